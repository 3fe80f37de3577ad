/* hp-template.c - what every templated widget does in dispose
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A widget whose template has one root (a GtkBox, a GtkStack) that no
 * field binds must unparent that root itself: gtk_widget_dispose_template()
 * unparents only the bound children, and a widget disposed with a child
 * still parented warns and leaks the child's tree.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include "ui/hp-template.h"

void
hp_template_dispose (GtkWidget *widget,
                     GType      type)
{
  GtkWidget *child;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (!GTK_IS_WINDOW (widget));

  gtk_widget_dispose_template (widget, type);
  while ((child = gtk_widget_get_first_child (widget)) != NULL)
    gtk_widget_unparent (child);
}
