/* hp-cli-flamegraph.c - hotpath-cli flamegraph: a standalone SVG
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Writes the flame graph that the window shows as one SVG file that any
 * browser opens, in the form people know from flamegraph.pl: one box per
 * call-tree node, the root at the bottom, each box with a
 * <title>NAME (N samples, P%)</title> that browsers show on hover (for an
 * event counted by its weights, "N page faults, P% of all page faults",
 * as the report counts it). A small
 * embedded script adds click-to-zoom and search; without scripts the file
 * is still the whole picture.
 *
 * Text from the capture is untrusted: it is made valid UTF-8 and stripped
 * of the control characters that XML 1.0 forbids before it is escaped.
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "store/hp-capture-keys.h"

#include <stdio.h>
#include <string.h>

#include "analysis/hp-flame-graph.h"
#include "cli/hp-cli.h"
#include "document/hp-format.h"

#define ROW_HEIGHT   16
#define FONT_SIZE    12
#define GLYPH_WIDTH   (FONT_SIZE * 0.59)  /* Verdana's average advance at this size */
#define PAD_X        10
#define PAD_TOP      (FONT_SIZE * 3)
#define PAD_BOTTOM   (FONT_SIZE * 2 + 10)
#define MIN_BOX_PX   0.1                 /* narrower boxes are merged, as flamegraph.pl's minwidth */

typedef struct {
  HpFlameGraph *graph;
  HpProfile    *profile;
  GString      *out;
  HpFlameColors colors;
  guint64       n_samples;
  const char   *quantity;    /* what the widths count: "samples", "page faults" */
  HpCliFilter  *filter;      /* what they count, for hp_format_amount_full() */
  char         *whole;       /* what the shares are of, escaped: "all page faults" */
  gdouble       scale;       /* pixels per sample */
  guint         image_height;
} Svg;

/* Valid UTF-8 with every character XML 1.0 refuses (C0 controls but tab,
 * newline and return; U+FFFE, U+FFFF) replaced, then escaped. */
static char *
xml_text (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text ? text : "", -1);
  g_autoptr(GString) clean = g_string_sized_new (strlen (valid));

  for (const char *p = valid; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if ((c < 0x20 && c != '\t') || c == 0x7f || c == 0xfffe || c == 0xffff)
        g_string_append_unichar (clean, 0xfffd);
      else
        g_string_append_unichar (clean, c);
    }
  return g_markup_escape_text (clean->str, -1);
}

static const char *
box_name (Svg              *svg,
          const HpFlameBox *box)
{
  if (box->node == NULL)
    return "(narrow boxes merged)";
  if (box->node->function_id == 0)
    return "all";
  return hp_profile_get_function_name (svg->profile, box->node->function_id);
}

/* What fits in @width pixels of @name, ending in ".." when cut; NULL when
 * not even three characters fit. */
static char *
fit_label (const char *name,
           gdouble     width)
{
  glong fits = (glong) ((width - 6) / GLYPH_WIDTH);
  glong len = g_utf8_strlen (name, -1);
  g_autofree char *cut = NULL;

  if (fits < 3)
    return NULL;
  if (len <= fits)
    return g_strdup (name);
  cut = g_utf8_substring (name, 0, fits - 2);
  return g_strconcat (cut, "..", NULL);
}

static void
write_box (const HpFlameBox *box,
           gpointer          user_data)
{
  Svg *svg = user_data;
  gdouble x = PAD_X + box->x * svg->scale;
  gdouble w = box->width * svg->scale;
  gdouble y = svg->image_height - PAD_BOTTOM - (box->depth + 1) * ROW_HEIGHT;
  const char *name = box_name (svg, box);
  g_autofree char *title = xml_text (name);
  g_autofree char *label = fit_label (name, w);
  g_autofree char *label_xml = label ? xml_text (label) : NULL;
  g_autofree char *amount_text = hp_format_amount_full (&svg->filter->measure, box->width, HP_FORMAT_PLAIN);
  g_autofree char *amount = xml_text (amount_text);
  gdouble rgb[3];

  hp_flame_graph_box_color (svg->graph, box, svg->colors, rgb);
  g_string_append_printf (svg->out,
                          "<g class=\"f\"><title>%s (%s, %.2f%%%s%s)</title>"
                          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"rgb(%d,%d,%d)\" rx=\"2\"/>",
                          title, amount,
                          svg->n_samples ? 100.0 * box->width / svg->n_samples : 0.0,
                          svg->whole ? " of " : "", svg->whole ? svg->whole : "",
                          x, y, w, ROW_HEIGHT - 1,
                          (int) (rgb[0] * 255), (int) (rgb[1] * 255), (int) (rgb[2] * 255));
  g_string_append_printf (svg->out, "<text x=\"%.1f\" y=\"%.1f\">%s</text></g>\n",
                          x + 3, y + ROW_HEIGHT - 4.5, label_xml ? label_xml : "");
}

/* Click a box to zoom into it (its ancestors stay, full width), click the
 * root or press Escape to zoom out; Ctrl-F or the Search link highlights
 * the boxes whose name matches and says what share of samples they hold. */
static const char script[] =
  "<script type=\"text/ecmascript\"><![CDATA[\n"
  "'use strict';\n"
  "var svg = document.documentElement, boxes = [], W = +svg.getAttribute('width');\n"
  "var PAD = " G_STRINGIFY (PAD_X) ", FIT = " G_STRINGIFY (GLYPH_WIDTH) ";\n"
  "function init() {\n"
  "  document.querySelectorAll('g.f').forEach(function (g) {\n"
  "    var r = g.querySelector('rect'), t = g.querySelector('text'), title = g.querySelector('title').textContent;\n"
  "    var b = { g: g, r: r, t: t, x: +r.getAttribute('x'), w: +r.getAttribute('width'), y: +r.getAttribute('y'),\n"
  "              name: title.replace(/ \\(\\d+ [^,()]+, [0-9.]+%\\)$/, ''), n: +(title.match(/\\((\\d+) [^,()]+, [0-9.]+%\\)$/) || [0, 0])[1] };\n"
  "    boxes.push(b);\n"
  "    g.addEventListener('click', function () { zoom(b); });\n"
  "  });\n"
  "  document.getElementById('search').addEventListener('click', search);\n"
  "  window.addEventListener('keydown', function (e) {\n"
  "    if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); search(); }\n"
  "    if (e.key === 'Escape') zoom(boxes[0]);\n"
  "  });\n"
  "}\n"
  "function label(b, w) {\n"
  "  var fits = Math.floor((w - 6) / FIT);\n"
  "  b.t.textContent = fits < 3 ? '' : (b.name.length <= fits ? b.name : b.name.slice(0, fits - 2) + '..');\n"
  "}\n"
  "function zoom(z) {\n"
  "  var scale = (W - 2 * PAD) / z.w;\n"
  "  boxes.forEach(function (b) {\n"
  "    var inside = b.y <= z.y && b.x >= z.x - 0.05 && b.x + b.w <= z.x + z.w + 0.05;\n"
  "    var below = b.y > z.y && b.x <= z.x + 0.05 && b.x + b.w >= z.x + z.w - 0.05;\n"
  "    if (!inside && !below) { b.g.style.display = 'none'; return; }\n"
  "    b.g.style.display = '';\n"
  "    var x = below ? PAD : PAD + (b.x - z.x) * scale, w = below ? W - 2 * PAD : b.w * scale;\n"
  "    b.r.setAttribute('x', x); b.r.setAttribute('width', w);\n"
  "    b.t.setAttribute('x', x + 3); label(b, w);\n"
  "  });\n"
  "}\n"
  "function search() {\n"
  "  var term = prompt('Highlight the functions whose name matches (a regular expression):', '');\n"
  "  var matched = 0, total = boxes.length ? boxes[0].n : 0, spans = [];\n"
  "  var re = null;\n"
  "  try { re = term ? new RegExp(term) : null; } catch (e) { re = null; }\n"
  "  boxes.forEach(function (b) {\n"
  "    var hit = re !== null && re.test(b.name);\n"
  "    b.r.style.fill = hit ? 'rgb(230,0,230)' : '';\n"
  "    if (hit && !spans.some(function (s) { return b.y > s.y && b.x >= s.x && b.x + b.w <= s.x + s.w; })) {\n"
  "      spans.push(b); matched += b.n;\n"
  "    }\n"
  "  });\n"
  "  document.getElementById('matched').textContent = re ? 'Matched: ' + (total ? (100 * matched / total).toFixed(2) : '0') + '%' : '';\n"
  "}\n"
  "init();\n"
  "]]></script>\n";

static gboolean
parse_colors (const char    *value,
              HpFlameColors *colors)
{
  if (value == NULL || strcmp (value, "hot") == 0)
    *colors = HP_FLAME_COLORS_HOT;
  else if (strcmp (value, "module") == 0)
    *colors = HP_FLAME_COLORS_MODULE;
  else
    return FALSE;
  return TRUE;
}

int
hp_cli_flamegraph (int    argc,
                   char **argv)
{
  g_auto(GStrv) files = NULL;
  g_autofree char *output = NULL;
  g_autofree char *colors_name = NULL;
  g_autofree char *title = NULL;
  gboolean reverse = FALSE;
  gint width = 1200;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the SVG to FILE ('-' for standard output)"), N_("FILE") },
    { "reverse", 0, 0, G_OPTION_ARG_NONE, &reverse, N_("Bottom-up: each function with its callers above it"), NULL },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, N_("Width of the image in pixels (default 1200)"), N_("PX") },
    { "colors", 0, 0, G_OPTION_ARG_STRING, &colors_name, N_("Colour boxes by function name (hot, the default) or by module"), N_("hot|module") },
    { "title", 0, 0, G_OPTION_ARG_STRING, &title, N_("Title at the top of the image (default: the capture's name)"), N_("TEXT") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = hp_cli_option_context_new (N_("CAPTURE"));
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(HpFlameGraph) graph = NULL;
  g_autofree char *event = NULL;
  g_autofree char *quantity = NULL;
  g_autofree char *counted = NULL;
  g_autofree char *whole_xml = NULL;
  const char *event_name = NULL, *unit = NULL;
  g_autofree char *heading = NULL;
  g_autofree char *base = NULL;
  g_auto(HpCliFilter) filter = { 0 };
  g_autoptr(GHashTable) tids = NULL;
  Svg svg = { 0 };

  g_option_context_set_summary (context,
                                N_("Write the flame graph of a capture (or a perf.data) as a standalone SVG.\n\n"
                                "Examples:\n"
                                "  hotpath-cli flamegraph app.hotpath -o app.svg\n"
                                "  hotpath-cli flamegraph app.hotpath --reverse --colors module -o callers.svg"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  hp_cli_filter_add_options (&filter, context);
  if (!hp_cli_parse_one_file (context, "flamegraph", &argc, &argv, &files,
                              "give one capture file"))
    return 2;
  if (output == NULL)
    {
      hp_cli_error (_("flamegraph: give the SVG file to write with -o FILE ('-' for standard output)"));
      return 2;
    }
  if (!hp_cli_output_is_file ("flamegraph", output))
    return 1;
  if (width < 200 || width > 100000)
    {
      hp_cli_error (_("flamegraph: --width must be between 200 and 100000 pixels, not %d"), width);
      return 2;
    }
  if (!parse_colors (colors_name, &svg.colors))
    {
      hp_cli_error (_("flamegraph: --colors must be hot or module, not '%s'"), colors_name);
      return 2;
    }

  if (!hp_cli_load_capture (files[0], &capture, &data) ||
      !hp_cli_filter_apply (&filter, "flamegraph", capture, &data, &tids))
    return 1;
  hp_capture_data_get_event (data, &event_name, &unit);
  svg.quantity = "samples";
  /* an event counted by its weights (page faults sampled every N, ns off
   * the CPU): a box's width is its weight, not its number of samples */
  if (filter.weighted)
    {
      HpCaptureData *weighted = hp_capture_data_new_weighted (data);
      g_autofree char *what = hp_format_measure_name_full (&filter.measure, HP_FORMAT_PLAIN);

      hp_capture_data_free (data);
      data = weighted;
      g_autofree char *name = hp_format_measure_name (&filter.measure);
      /* what the shares are of: "all page faults", "all time off the CPU" */
      g_autofree char *whole = g_strdup_printf (_("all %s"), name);

      svg.quantity = quantity = xml_text (what);
      svg.whole = whole_xml = xml_text (whole);
    }
  profile = hp_profile_new (data, tids);
  graph = hp_flame_graph_new (profile, reverse);

  svg.graph = graph;
  svg.filter = &filter;
  svg.profile = profile;
  svg.n_samples = hp_profile_get_n_samples (profile);
  svg.scale = svg.n_samples ? (width - 2.0 * PAD_X) / svg.n_samples : 0;
  svg.image_height = PAD_TOP + PAD_BOTTOM + (hp_flame_graph_get_depth (graph) + 1) * ROW_HEIGHT;
  svg.out = g_string_sized_new (1 << 16);

  event = xml_text (event_name ? event_name : "samples");
  /* what the widths are of: "5040 samples of cpu-clock", "all 5040 page faults (page-faults)" */
  if (svg.whole != NULL)
    {
      g_autofree char *amount = hp_format_amount_full (&filter.measure, svg.n_samples, HP_FORMAT_PLAIN);
      g_autofree char *amount_xml = xml_text (amount);

      counted = g_strdup_printf (_("all %s (%s)"), amount_xml, event);
    }
  else
    {
      g_autofree char *samples = hp_cli_samples (svg.n_samples);

      counted = g_strdup_printf (_("%s of %s"), samples, event);
    }
  base = g_path_get_basename (files[0]);
  heading = xml_text (title ? title : base);

  g_string_append_printf (svg.out,
                          "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
                          "<svg version=\"1.1\" width=\"%d\" height=\"%u\" viewBox=\"0 0 %d %u\" "
                          "xmlns=\"http://www.w3.org/2000/svg\">\n"
                          "<style>text { font-family: Verdana, 'DejaVu Sans', sans-serif; font-size: %dpx; fill: #000; "
                          "pointer-events: none; } g.f:hover rect { stroke: #000; stroke-width: 0.5; cursor: pointer; } "
                          ".h { font-size: 17px; } .s { fill: #555; }</style>\n"
                          "<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f8\"/>\n"
                          "<text class=\"h\" x=\"%d\" y=\"24\" text-anchor=\"middle\">%s</text>\n"
                          "<text class=\"s\" x=\"%d\" y=\"%u\">%s%s, %s%s%s; "
                          "click a box to zoom, Escape to zoom out</text>\n"
                          "<text id=\"search\" class=\"s\" x=\"%d\" y=\"24\" text-anchor=\"end\" "
                          "style=\"pointer-events: all; cursor: pointer\">Search</text>\n"
                          "<text id=\"matched\" class=\"s\" x=\"%d\" y=\"%u\" text-anchor=\"end\"></text>\n",
                          width, svg.image_height, width, svg.image_height, FONT_SIZE,
                          width / 2, heading,
                          PAD_X, svg.image_height - 10,
                          reverse ? "Bottom-up (callers above)" : "Top-down (callees above)",
                          svg.colors == HP_FLAME_COLORS_MODULE ? ", coloured by module" : "",
                          counted,
                          filter.description ? " in " : "", filter.description ? filter.description : "",
                          width - PAD_X, width - PAD_X, svg.image_height - 10);
  if (svg.n_samples > 0)
    hp_flame_graph_visit (graph, 0, MIN_BOX_PX / svg.scale, write_box, &svg);
  g_string_append (svg.out, script);
  g_string_append (svg.out, "</svg>\n");

  if (strcmp (output, "-") == 0)
    {
      fwrite (svg.out->str, 1, svg.out->len, stdout);
      fflush (stdout);
    }
  else if (!g_file_set_contents (output, svg.out->str, (gssize) svg.out->len, &error))
    {
      hp_cli_error (_("flamegraph: %s"), error->message);
      g_string_free (svg.out, TRUE);
      return 1;
    }
  g_string_free (svg.out, TRUE);
  return 0;
}
