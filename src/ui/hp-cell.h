/* hp-cell.h - list cells built in code, for the long lists
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Tree rows are indented for this many levels and no more (style.css);
 * a deeper row shows its depth as a number before its name. */
#define HP_CELL_MAX_INDENT 12

/* What a cell shows of its row, by the row's property names: text (or
 * markup) of an inscription, a heat bar's fraction, the visibility of a
 * mark. NULL members are not shown. */
typedef struct {
  gboolean    tree_row;        /* the list's items are GtkTreeListRows of the rows */
  gboolean    expander;        /* wrapped in a GtkTreeExpander (needs tree_row) */
  const char *markup;          /* inscription with markup (NULL: use text), expands */
  const char *text;            /* inscription with text, expands */
  const char *mark;            /* icon shown while this boolean property is TRUE */
  const char *mark_icon;
  const char *fraction;        /* heat bar */
  const char *percent;         /* right-aligned numbers */
  const char *count;
  int         count_chars;     /* width of the count in digits (default 9: "1,000,000") */
  const char *count_width;     /* a uint property of the row: the digits its counts need,
                                * in place of count_chars (the same for every row of a list) */
  const char *tooltip;         /* computed when the tooltip is asked for */
  const char *css_class;
  int         text_chars;      /* inscription width in characters */
  gboolean    dim;
  gboolean    ellipsize_middle;
} HpCellSpec;

/* A factory for cells of @spec; @spec must outlive it (a static). */
GtkListItemFactory *hp_cell_factory_new (const HpCellSpec *spec);

/* A factory of a dropdown's entries (GtkStringObjects). With @in_button,
 * for the button that shows the chosen one: a label that ellipsizes, with
 * the whole text as its tooltip; GtkDropDown's own label asks for the
 * whole text, and a long entry then took the room of the widgets beside it
 * or widened the window. Without, for the list: each entry whole. */
GtkListItemFactory *hp_cell_dropdown_factory_new (gboolean in_button);

/* Gives @column a fixed width: the natural width of a cell of @spec
 * (an inscription at its text_chars), or its minimum if the column
 * expands. A column view measures every cell
 * of a column without one whenever rows come or go: on the call tree, as
 * its rows are built a few per frame, that was half of each frame.
 * Resizing the column by hand still works (it sets the fixed width). */
void hp_cell_set_column_width (GtkColumnViewColumn *column,
                               const HpCellSpec    *spec);
/* The same, for a count @count_chars digits wide (spec->count_width) */
void hp_cell_set_column_width_for_count (GtkColumnViewColumn *column,
                                         const HpCellSpec    *spec,
                                         guint                count_chars);

/* The item (a reference) of the row of @view (a column view of these
 * cells) under the point (@x, @y) of @view, or NULL. */
GObject *hp_cell_pick_row (GtkWidget *view,
                           double     x,
                           double     y);

/* The row widget of @view (a column view of these cells) that shows
 * @item now, or NULL when it is not on screen. */
GtkWidget *hp_cell_find_row (GtkWidget *view,
                             GObject   *item);

/* @view is one stop of the window's Tab order (Tab leaves it, rather
 * than going to its next row), and Tab into it lands on a row that is
 * shown (the selected one if it is), never on one scrolled out of view. */
void       hp_cell_keep_focus_in_view (GtkColumnView *view);

/* Shows @menu as a context menu at (@x, @y) of @view, in a popover
 * kept on @owner (an ancestor of @view) for the next time. */
void     hp_cell_popup_menu (GtkWidget  *owner,
                             GtkWidget  *view,
                             GMenuModel *menu,
                             double      x,
                             double      y);

G_END_DECLS
