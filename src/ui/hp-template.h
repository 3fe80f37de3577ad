/* hp-template.h - what every templated widget does in dispose
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* gtk_widget_dispose_template() for @type, then unparents the children
 * of @widget it left: the template's root, when no field binds it. Call
 * it in dispose, before chaining up. Not for a GtkWindow, whose own
 * dispose unparents its child. */
void hp_template_dispose (GtkWidget *widget,
                          GType      type);

G_END_DECLS
