/* hp-flame-canvas.h - draws a flame graph and answers where the pointer is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "analysis/hp-flame-graph.h"
#include "document/hp-loaded-capture.h"

G_BEGIN_DECLS

#define HP_TYPE_FLAME_CANVAS (hp_flame_canvas_get_type ())
G_DECLARE_FINAL_TYPE (HpFlameCanvas, hp_flame_canvas, HP, FLAME_CANVAS, GtkWidget)

GtkWidget        *hp_flame_canvas_new           (void);

/* The graph to draw (borrowed: the caller keeps it alive while set), or
 * NULL. Resets the zoom to the root. */
void              hp_flame_canvas_set_graph     (HpFlameCanvas    *self,
                                                 HpFlameGraph     *graph);
HpFlameGraph     *hp_flame_canvas_get_graph     (HpFlameCanvas    *self);

/* Names boxes as the window shows names (@names: the graph's capture,
 * borrowed), or as the profile holds them (NULL). */
void              hp_flame_canvas_set_names     (HpFlameCanvas    *self,
                                                 HpLoadedCapture  *names);

/* What the widths count (@measure borrowed, outliving the graph; NULL:
 * samples), for the hover text. */
void              hp_flame_canvas_set_measure   (HpFlameCanvas    *self,
                                                 const HpMeasure  *measure);

/* Zoom into box @index (0: the whole graph). */
void              hp_flame_canvas_set_zoom      (HpFlameCanvas    *self,
                                                 guint             index);
guint             hp_flame_canvas_get_zoom      (HpFlameCanvas    *self);

/* Outline the box of @node (NULL: none). */
void              hp_flame_canvas_set_selected  (HpFlameCanvas    *self,
                                                 const HpCallNode *node);
const HpCallNode *hp_flame_canvas_get_selected  (HpFlameCanvas    *self);

/* Highlight boxes whose function name contains @text, ignoring case. */
void              hp_flame_canvas_set_search    (HpFlameCanvas    *self,
                                                 const char       *text);
/* @marks: HpCallNode* -> first line of its summary (borrowed), or NULL. */
void              hp_flame_canvas_set_marks     (HpFlameCanvas    *self,
                                                 GHashTable       *marks);
void              hp_flame_canvas_set_icicle    (HpFlameCanvas    *self,
                                                 gboolean          icicle);
void              hp_flame_canvas_set_colors    (HpFlameCanvas    *self,
                                                 HpFlameColors     colors);

/* The box index under widget coordinates (@x, @y), or -1. */
gint              hp_flame_canvas_box_at        (HpFlameCanvas    *self,
                                                 double            x,
                                                 double            y);
/* Where box @index is drawn, FALSE when it is not (outside the zoom, or
 * narrower than a pixel). */
gboolean          hp_flame_canvas_get_box_area  (HpFlameCanvas    *self,
                                                 guint             index,
                                                 graphene_rect_t  *area);
/* The colour box @index is filled with (undimmed): for tests. */
void              hp_flame_canvas_get_box_fill  (HpFlameCanvas    *self,
                                                 guint             index,
                                                 GdkRGBA          *fill);
/* Text of the tooltip for box @index. */
char             *hp_flame_canvas_describe_box  (HpFlameCanvas    *self,
                                                 guint             index);
/* Boxes drawn in the last snapshot, and how many times the box layer
 * was rendered anew (hover redraws only an overlay): for tests. */
guint             hp_flame_canvas_get_n_drawn   (HpFlameCanvas    *self);
guint             hp_flame_canvas_get_n_renders (HpFlameCanvas    *self);
/* How many labels were shaped whole since the canvas was made: a label
 * is shaped once per font, then drawn from its node (tests) */
guint             hp_flame_canvas_get_n_shaped  (HpFlameCanvas    *self);

G_END_DECLS
