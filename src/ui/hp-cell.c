/* hp-cell.c - list cells built in code, for the long lists
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The call tree and the source pane use these instead of
 * GtkBuilderListItemFactory templates. A GtkListView keeps up to about
 * 200 rows of widgets, and replacing its model rebuilds them all: with
 * builder templates that cost 150 to 330 ms per model change on the
 * 1M-sample benchmark (tests/display/bench-ui-open.c), mostly in
 * gtk_builder_extend_with_template, far over a frame. Cells made in code
 * and bound by hand, with the numbers drawn by one HpShareCell, cost a
 * fraction of that.
 *
 * A cell reads its row's properties when bound and follows
 * notifications of the ones that can change (markup, mark) until
 * unbound. Tooltips are computed only when asked for.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "ui/hp-cell.h"
#include "ui/hp-share-cell.h"

typedef struct {
  GtkWidget   *box;        /* holding more than one of those below, or NULL */
  GtkWidget   *inscription;
  GtkWidget   *mark;       /* made the first time it is shown */
  GtkWidget   *depth;      /* the same, for rows deeper than HP_CELL_MAX_INDENT */
  GtkWidget   *share;
  GObject     *row;        /* bound item (not the GtkTreeListRow) */
  gulong       notify_id;
} Cell;

/* The summary mark. No tooltip of its own: setting one per cell costs
 * more than the rest of the cell; the row's tooltip says it. */
static void
add_mark (const HpCellSpec *spec,
          Cell             *cell)
{
  cell->mark = gtk_image_new_from_icon_name (spec->mark_icon);
  gtk_widget_add_css_class (cell->mark, "summary-mark");
  gtk_box_append (GTK_BOX (cell->box), cell->mark);
}

/* A row deeper than the indentation shows (style.css stops indenting
 * at HP_CELL_MAX_INDENT levels, so that the name of a node 200 calls deep
 * is still in its column) says its depth instead. */
static void
update_depth (Cell        *cell,
              GtkListItem *list_item)
{
  gpointer item = gtk_list_item_get_item (list_item);
  guint depth = GTK_IS_TREE_LIST_ROW (item) ? gtk_tree_list_row_get_depth (item) : 0;

  if (depth >= HP_CELL_MAX_INDENT && cell->depth == NULL && cell->box != NULL)
    {
      cell->depth = gtk_label_new (NULL);
      gtk_widget_add_css_class (cell->depth, "depth-badge");
      gtk_widget_add_css_class (cell->depth, "numeric");
      gtk_box_prepend (GTK_BOX (cell->box), cell->depth);
    }
  if (cell->depth != NULL)
    {
      if (depth >= HP_CELL_MAX_INDENT)
        {
          char text[16];

          /* (one-based, as "depth 1" is a top-level row) */
          g_snprintf (text, sizeof text, "%u", depth + 1);
          gtk_label_set_text (GTK_LABEL (cell->depth), text);
        }
      gtk_widget_set_visible (cell->depth, depth >= HP_CELL_MAX_INDENT);
    }
}

static GObject *
item_of (const HpCellSpec *spec,
         GtkListItem      *list_item)
{
  gpointer item = gtk_list_item_get_item (list_item);

  if (spec->tree_row && GTK_IS_TREE_LIST_ROW (item))
    return gtk_tree_list_row_get_item (item);  /* transfer full */
  return item ? g_object_ref (item) : NULL;
}

static char *
get_string (GObject    *row,
            const char *property)
{
  char *value = NULL;

  g_object_get (row, property, &value, NULL);
  return value;
}

static void
update (const HpCellSpec *spec,
        Cell             *cell)
{
  if (spec->markup != NULL)
    {
      /* parsing markup is the dearest part of a cell: only rows that
       * need it (hot, matching a search) have any */
      g_autofree char *markup = get_string (cell->row, spec->markup);

      if (markup != NULL)
        gtk_inscription_set_markup (GTK_INSCRIPTION (cell->inscription), markup);
      else
        {
          g_autofree char *text = get_string (cell->row, spec->text);

          /* set_text keeps the attributes of the markup shown before: a
           * search's highlight stayed, at its old offsets, on whatever
           * row the cell showed next */
          gtk_inscription_set_attributes (GTK_INSCRIPTION (cell->inscription), NULL);
          gtk_inscription_set_text (GTK_INSCRIPTION (cell->inscription), text);
        }
    }
  if (spec->mark != NULL)
    {
      gboolean on = FALSE;

      g_object_get (cell->row, spec->mark, &on, NULL);
      if (on && cell->mark == NULL)
        add_mark (spec, cell);
      if (cell->mark != NULL)
        gtk_widget_set_visible (cell->mark, on);
    }
}

static void
on_row_notify (GObject    *row,
               GParamSpec *pspec,
               GtkWidget  *child)
{
  const HpCellSpec *spec = g_object_get_data (G_OBJECT (child), "hp-cell-spec");
  Cell *cell = g_object_get_data (G_OBJECT (child), "hp-cell");

  update (spec, cell);
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  const HpCellSpec *spec = g_object_get_data (G_OBJECT (widget), "hp-cell-spec");
  Cell *cell = g_object_get_data (G_OBJECT (widget), "hp-cell");
  g_autofree char *text = NULL;

  if (cell->row == NULL)
    return FALSE;
  text = get_string (cell->row, spec->tooltip);
  if (text != NULL && cell->depth != NULL && gtk_widget_get_visible (cell->depth))
    {
      /* Translators: added to a call tree row's tooltip; %s is a number */
      char *with_depth = g_strdup_printf (_("%s\nCall depth: %s (the indentation stops at %u levels)"),
                                          text, gtk_label_get_text (GTK_LABEL (cell->depth)),
                                          HP_CELL_MAX_INDENT);
      g_free (text);
      text = with_depth;
    }
  gtk_tooltip_set_text (tooltip, text);
  return text != NULL;
}

/* Lets go of the row a cell shows. */
static void
release (Cell *cell)
{
  if (cell->row != NULL)
    g_clear_signal_handler (&cell->notify_id, cell->row);
  g_clear_object (&cell->row);
}

static void
cell_free (gpointer p)
{
  release (p);
  g_free (p);
}

/* The cell's content, filling @cell's pointers: an inscription, a share
 * cell, or a box of an inscription and a place for the mark (those @spec
 * has). The fewer widgets the better: a view makes them for ~200 rows. */
static GtkWidget *
build_content (const HpCellSpec *spec,
               Cell             *cell)
{
  GtkWidget *content = NULL;

  if (spec->markup != NULL || spec->text != NULL)
    {
      content = cell->inscription = gtk_inscription_new (NULL);
      gtk_widget_set_hexpand (cell->inscription, TRUE);
      gtk_inscription_set_min_chars (GTK_INSCRIPTION (cell->inscription), MIN (spec->text_chars, 12));
      gtk_inscription_set_nat_chars (GTK_INSCRIPTION (cell->inscription), spec->text_chars);
      gtk_inscription_set_text_overflow (GTK_INSCRIPTION (cell->inscription),
                                         spec->ellipsize_middle ? GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_MIDDLE :
                                         spec->text_chars > 0 ? GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END :
                                         GTK_INSCRIPTION_OVERFLOW_CLIP);
      if (spec->dim)
        gtk_widget_add_css_class (cell->inscription, "dim-text");
      if (spec->css_class != NULL)
        gtk_widget_add_css_class (cell->inscription, spec->css_class);
    }
  if (spec->percent != NULL || spec->count != NULL || spec->fraction != NULL)
    {
      g_assert (content == NULL);  /* (no spec has both) */
      content = cell->share = hp_share_cell_new (spec->fraction != NULL, spec->percent != NULL,
                                                 spec->count == NULL ? 0 : spec->count_chars ? spec->count_chars : 9);
      gtk_widget_set_hexpand (cell->share, TRUE);
      gtk_widget_set_halign (cell->share, GTK_ALIGN_END);
    }
  if (spec->mark != NULL)
    {
      cell->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      if (content != NULL)
        gtk_box_append (GTK_BOX (cell->box), content);
      content = cell->box;
    }
  if (content == NULL)
    content = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  return content;
}

static void
setup (GtkSignalListItemFactory *factory,
       GtkListItem              *list_item,
       const HpCellSpec         *spec)
{
  Cell *cell = g_new0 (Cell, 1);
  GtkWidget *box = build_content (spec, cell);
  GtkWidget *child = box;

  if (spec->tooltip != NULL)
    {
      gtk_widget_set_has_tooltip (box, TRUE);
      g_signal_connect (box, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
    }

  if (spec->expander)
    {
      child = gtk_tree_expander_new ();
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (child), box);
    }
  g_object_set_data (G_OBJECT (box), "hp-cell-spec", (gpointer) spec);
  g_object_set_data_full (G_OBJECT (box), "hp-cell", cell, cell_free);
  g_object_set_data (G_OBJECT (list_item), "hp-cell-box", box);
  gtk_list_item_set_child (list_item, child);
}

static void
bind (GtkSignalListItemFactory *factory,
      GtkListItem              *list_item,
      const HpCellSpec         *spec)
{
  GtkWidget *box = g_object_get_data (G_OBJECT (list_item), "hp-cell-box");
  Cell *cell = g_object_get_data (G_OBJECT (box), "hp-cell");
  GObject *row = item_of (spec, list_item);

  /* (a GtkTreeExpander keeps its row, and its widgets, when it is the same) */
  if (spec->expander)
    gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item)),
                                    gtk_list_item_get_item (list_item));
  if (row != NULL && row == cell->row)
    {
      /* bound to it already, and kept up to date by on_row_notify */
      g_object_unref (row);
      return;
    }
  release (cell);
  cell->row = row;  /* the reference item_of() returned */
  if (row == NULL)
    return;
  if (spec->expander)
    update_depth (cell, list_item);

  if (spec->text != NULL && spec->markup == NULL)
    {
      g_autofree char *text = get_string (row, spec->text);

      gtk_inscription_set_text (GTK_INSCRIPTION (cell->inscription), text);
    }
  if (cell->share != NULL)
    {
      double fraction = 0;
      g_autofree char *percent = spec->percent ? get_string (row, spec->percent) : NULL;
      g_autofree char *count = spec->count ? get_string (row, spec->count) : NULL;

      if (spec->fraction != NULL)
        g_object_get (row, spec->fraction, &fraction, NULL);
      if (spec->count_width != NULL)
        {
          guint chars = 0;

          g_object_get (row, spec->count_width, &chars, NULL);
          if (chars > 0)
            hp_share_cell_set_count_chars (HP_SHARE_CELL (cell->share), chars);
        }
      hp_share_cell_set (HP_SHARE_CELL (cell->share), fraction, percent, count);
    }
  update (spec, cell);
  if (spec->markup != NULL || spec->mark != NULL)
    cell->notify_id = g_signal_connect (row, "notify", G_CALLBACK (on_row_notify), box);
}

/* GTK 4.8 unbinds and binds again every row whose position changes, which
 * is every row below a node that is expanded: up to 200 rows of four
 * cells, and rebinding a tree expander rebuilds its widgets. So a cell
 * keeps its row when unbound, and bind() does nothing when it is given
 * the same row again. The row is let go when the cell is bound to another
 * one or destroyed. */
static void
unbind (GtkSignalListItemFactory *factory,
        GtkListItem              *list_item,
        const HpCellSpec         *spec)
{
}

/* The theme's horizontal padding of a column view cell (6 px a side),
 * and room for a tree expander's indent and arrow (a level). */
#define CELL_PADDING    12
#define EXPANDER_WIDTH  24

void
hp_cell_set_column_width (GtkColumnViewColumn *column,
                          const HpCellSpec    *spec)
{
  Cell cell = { 0 };
  GtkWidget *box = g_object_ref_sink (build_content (spec, &cell));
  int minimum = 0, natural = 0;

  if (spec->mark != NULL)
    add_mark (spec, &cell);
  gtk_widget_measure (box, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
  g_object_unref (box);
  /* a column that expands gets the room there is anyway: its minimum,
   * so that the others still fit a narrow pane */
  gtk_column_view_column_set_fixed_width (column,
                                          (gtk_column_view_column_get_expand (column) ? minimum : natural)
                                          + CELL_PADDING + (spec->expander ? 2 * EXPANDER_WIDTH : 0));
}

void
hp_cell_set_column_width_for_count (GtkColumnViewColumn *column,
                                    const HpCellSpec    *spec,
                                    guint                count_chars)
{
  HpCellSpec narrowed = *spec;

  narrowed.count_chars = count_chars;
  hp_cell_set_column_width (column, &narrowed);
}

static void
setup_dropdown_item (GtkSignalListItemFactory *factory,
                     GtkListItem              *item,
                     gpointer                  in_button)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  if (GPOINTER_TO_INT (in_button))
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_width_chars (GTK_LABEL (label), 8);
      /* a thread's entry whole where there is room: "Thread hp-worker-1
       * in hp-main (15082, 1,277 samples)" */
      gtk_label_set_max_width_chars (GTK_LABEL (label), 52);
    }
  gtk_list_item_set_child (item, label);
}

static void
bind_dropdown_item (GtkSignalListItemFactory *factory,
                    GtkListItem              *item,
                    gpointer                  in_button)
{
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  const char *text = gtk_string_object_get_string (gtk_list_item_get_item (item));

  gtk_label_set_text (label, text);
  if (GPOINTER_TO_INT (in_button))
    gtk_widget_set_tooltip_text (GTK_WIDGET (label), text);
}

GtkListItemFactory *
hp_cell_dropdown_factory_new (gboolean in_button)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_dropdown_item), GINT_TO_POINTER (in_button));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_dropdown_item), GINT_TO_POINTER (in_button));
  return factory;
}

GtkListItemFactory *
hp_cell_factory_new (const HpCellSpec *spec)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup), (gpointer) spec);
  g_signal_connect (factory, "bind", G_CALLBACK (bind), (gpointer) spec);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind), (gpointer) spec);
  return factory;
}

static Cell *
find_cell (GtkWidget *widget)
{
  Cell *cell = g_object_get_data (G_OBJECT (widget), "hp-cell");

  if (cell != NULL && cell->row != NULL)
    return cell;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if ((cell = find_cell (child)) != NULL)
      return cell;
  return NULL;
}

GObject *
hp_cell_pick_row (GtkWidget *view,
                  double     x,
                  double     y)
{
  GtkWidget *picked = gtk_widget_pick (view, x, y, GTK_PICK_DEFAULT);

  /* from what is under the pointer (a label, a cell's padding) up to the
   * row, then down to any cell of it: all show the same item */
  for (GtkWidget *w = picked; w != NULL && w != view; w = gtk_widget_get_parent (w))
    {
      Cell *cell = g_object_get_data (G_OBJECT (w), "hp-cell");

      if (cell != NULL && cell->row != NULL)
        return g_object_ref (cell->row);
      if (g_strcmp0 (gtk_widget_get_css_name (w), "row") == 0)
        {
          cell = find_cell (w);
          return cell != NULL ? g_object_ref (cell->row) : NULL;
        }
    }
  return NULL;
}

GtkWidget *
hp_cell_find_row (GtkWidget *view,
                  GObject   *item)
{
  /* the view's rows are the children of its list: a cell keeps its
   * last row when unbound (see unbind()), so only rows on screen count */
  for (GtkWidget *list = gtk_widget_get_first_child (view); list != NULL; list = gtk_widget_get_next_sibling (list))
    for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
      {
        Cell *cell;

        if (g_strcmp0 (gtk_widget_get_css_name (row), "row") != 0 || !gtk_widget_get_mapped (row))
          continue;
        cell = find_cell (row);
        if (cell != NULL && cell->row == item)
          return row;
      }
  return NULL;
}

static float
first_y (GtkWidget *row,
         GtkWidget *view)
{
  graphene_point_t top = GRAPHENE_POINT_INIT (0, 0);

  if (!gtk_widget_compute_point (row, view, &GRAPHENE_POINT_INIT (0, 0), &top))
    return G_MAXFLOAT;
  return top.y;
}

static GtkWidget *
row_of (GtkWidget *widget)
{
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    if (g_strcmp0 (gtk_widget_get_css_name (widget), "row") == 0)
      return widget;
  return NULL;
}

/* A list keeps the keyboard focus on a row of its own choosing, even one
 * scrolled out of view long ago (the source pane's first line, when it
 * shows line 400): Tab then landed on a row nobody could see. Entering
 * the list, the focus moves to the selected row if it is shown, else to
 * the first row shown. */
static gboolean
focus_shown_row (gpointer user_data)
{
  g_autoptr(GtkWidget) view = user_data;
  GtkRoot *root = gtk_widget_get_root (view);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkWidget *row = row_of (focus);
  GtkWidget *first = NULL;

  if (focus == NULL || !gtk_widget_is_ancestor (focus, view) ||
      (row != NULL && gtk_widget_get_mapped (row) && gtk_widget_get_child_visible (row)))
    return G_SOURCE_REMOVE;
  for (GtkWidget *list = gtk_widget_get_first_child (view); list != NULL; list = gtk_widget_get_next_sibling (list))
    for (GtkWidget *r = gtk_widget_get_first_child (list); r != NULL; r = gtk_widget_get_next_sibling (r))
      {
        graphene_point_t top;

        if (g_strcmp0 (gtk_widget_get_css_name (r), "row") != 0 ||
            !gtk_widget_get_mapped (r) || !gtk_widget_get_child_visible (r) ||
            !gtk_widget_compute_point (r, view, &GRAPHENE_POINT_INIT (0, 0), &top) ||
            top.y < 0 || top.y >= gtk_widget_get_height (view))
          continue;
        if (gtk_widget_get_state_flags (r) & GTK_STATE_FLAG_SELECTED)
          {
            gtk_widget_grab_focus (r);
            return G_SOURCE_REMOVE;
          }
        /* (the rows are not in their order on screen) */
        if (first == NULL || top.y < first_y (first, view))
          first = r;
      }
  if (first != NULL)
    gtk_widget_grab_focus (first);
  return G_SOURCE_REMOVE;
}

/* (after the focus change has ended: moving the focus while it is being
 * moved is not allowed) */
static void
on_focus_enter (GtkEventControllerFocus *controller,
                gpointer                 user_data)
{
  GtkWidget *view = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));

  g_idle_add_full (G_PRIORITY_HIGH, focus_shown_row, g_object_ref (view), NULL);
}

/* Tab leaves the list: a GtkListView takes it to move to the next row,
 * so Tab into the source pane walked all its lines one by one. Up and
 * Down do that; the list is one stop in the window's Tab order. */
static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                gpointer               user_data)
{
  GtkWidget *view = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller));
  GtkDirectionType direction;

  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK))
    return FALSE;
  if (keyval == GDK_KEY_ISO_Left_Tab || ((keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab) && (state & GDK_SHIFT_MASK)))
    direction = GTK_DIR_TAB_BACKWARD;
  else if (keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab)
    direction = GTK_DIR_TAB_FORWARD;
  else
    return FALSE;
  /* the window moves the focus on from here as if the list took none */
  gtk_widget_set_can_focus (view, FALSE);
  g_signal_emit_by_name (gtk_widget_get_root (view), "move-focus", direction);
  gtk_widget_set_can_focus (view, TRUE);
  return TRUE;
}

void
hp_cell_keep_focus_in_view (GtkColumnView *view)
{
  GtkEventController *controller = gtk_event_controller_focus_new ();

  g_signal_connect (controller, "enter", G_CALLBACK (on_focus_enter), NULL);
  gtk_widget_add_controller (GTK_WIDGET (view), controller);
  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect (controller, "key-pressed", G_CALLBACK (on_key_pressed), NULL);
  gtk_widget_add_controller (GTK_WIDGET (view), controller);
}

static void
menu_unparent (gpointer data)
{
  gtk_widget_unparent (data);
}

void
hp_cell_popup_menu (GtkWidget  *owner,
                    GtkWidget  *view,
                    GMenuModel *menu,
                    double      x,
                    double      y)
{
  GtkWidget *popover = g_object_get_data (G_OBJECT (owner), "hp-cell-menu");
  double ox = x, oy = y;

  if (popover == NULL)
    {
      popover = gtk_popover_menu_new_from_model (menu);
      gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
      gtk_widget_set_halign (popover, GTK_ALIGN_START);
      gtk_widget_set_parent (popover, owner);
      /* unparented with the owner's data, when it is disposed */
      g_object_set_data_full (G_OBJECT (owner), "hp-cell-menu", popover, menu_unparent);
    }
  else
    gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (popover), menu);
  gtk_widget_translate_coordinates (view, owner, x, y, &ox, &oy);
  gtk_popover_set_pointing_to (GTK_POPOVER (popover), &(GdkRectangle) { ox, oy, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (popover));
}
