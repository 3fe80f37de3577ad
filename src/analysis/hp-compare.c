/* hp-compare.c - compare two sets of captures: what got slower, and is it real
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A side of a comparison is one or more captures, taken as repeated runs
 * of the same command. Each capture is reduced, as it is added, to the
 * cost of every call path in it (self and total, in event units: the sum
 * of the sample weights, i.e. samples × period, and in samples), and is
 * then freed: a side of many runs costs a few arrays per run.
 *
 * Identity. Functions are matched by module base name and function name,
 * the rule of the summaries' path keys (hp_call_node_path_key()), never by
 * row ids or addresses, so that a rebuilt program still matches; GCC's
 * clones (foo.part.0, foo.constprop.1, foo.isra.0, foo.cold) are their
 * function. A call path is the list of these identities from the root,
 * and all runs of both sides intern their paths into one merged top-down
 * tree: path ids mean the same thing in every run. A function's total
 * counts a sample once even when it recurses (as in hp-profile.c): it is
 * the sum of the totals of its paths on which it does not occur above.
 *
 * Statistics (hp-stats.c). With several runs per side, each quantity is
 * tested with Welch's t on its per-run costs, so the run-to-run noise of
 * the machine and the sampling error are both in the variance, measured
 * rather than assumed. With one run on one side only, that run is assumed
 * to vary as the other side's runs do (a t test on the other side's
 * variance). With one run per side there is no run-to-run variance to
 * measure, and the test falls back to the sampling error of the counts
 * (Poisson): it then says nothing about run-to-run noise, and the caller
 * must say so.
 *
 * q-values control the false discovery rate (Benjamini–Hochberg) within
 * each family: functions by self cost, functions by total cost, call
 * paths. A quantity whose cost stays under the materiality floor on both
 * sides can never be flagged, so it is left out of its family rather than
 * diluting it (a filter that does not look at the change).
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include "store/hp-capture-keys.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "analysis/hp-compare.h"
#include "analysis/hp-stats.h"
#include "analysis/hp-summary-match.h"

G_DEFINE_QUARK (hp-compare-error-quark, hp_compare_error)

/* Runs are scaled by their speed only when at least this many functions
 * give it: each function is then measured against the median of at
 * least 3 others, which one changed function cannot move. Against 2, the
 * median is their mean: of three hot functions, one 10 % slower made the
 * two others 5 % faster. */
#define MIN_REFS 4

/* How many stack nodes ahead the table of paths is asked to be in the
 * cache: enough to cover a miss under the work of those nodes. */
#define PREFETCH_AHEAD 8

/* find_known_paths(): how many lookups ahead the table's slot is asked
 * for (each lookup is a few ns when it hits, a miss costs ~100 ns). */
#define LOOKUP_AHEAD 16

/* The merged tree's root and "no path". */
#define ROOT 0
#define NONE G_MAXUINT32
/* A stack node whose path is still to be found or made. */
#define PENDING (G_MAXUINT32 - 1)

/* Functions with at least this share of the cost make the summary MDE. */
#define MDE_SHARE 0.05
/* Below this share of their cost in functions the other side has too,
 * two sides are warned to be of different programs. */
#define MATCHED_WARNING 0.10
/* At least this share of the cost of each of two programs of different
 * names is in functions of names the other has: one program, renamed. */
#define RENAMED_SHARE 0.5
/* A caller or callee that carries at least this share of a function's
 * cost is one of those that pair a function of the base only with one of
 * the new only as one renamed (find_renames()). */
#define RENAME_NEIGHBOUR 0.05

typedef struct {
  guint32  parent;   /* path id; NONE for the root */
  guint32  ident;    /* function identity; 0 for the root */
  guint32  depth;
  gboolean first;    /* its function does not occur above it */
} PathNode;

/* A slot of the table (parent, identity) -> path id; id 0 (the root,
 * never a child) marks a free slot. Key and id side by side, so that a
 * probe reads one cache line. */
typedef struct {
  guint32 parent;
  guint32 ident;
  guint32 id;
} Slot;

/* One capture, reduced: total costs per path id (the path ids known when
 * it was added; later paths cost 0 in it), and self costs per function
 * identity (those known then), which is all a path's self serves. */
typedef struct {
  char    *name;
  char    *event;
  char    *unit;
  char    *command;
  guint    n_paths;
  double  *total_w;
  guint64 *total_n;
  guint    n_idents;
  double  *self_w;   /* by identity */
  guint64 *self_n;
  double   cost;     /* all its samples' weight */
  guint64  samples;
  GArray  *lines;    /* LineCost, top-down comparisons only */
  guint32 *decl;     /* with lines: by identity, the line key of the function's
                      * declaration (DW_AT_decl_line), 0 when unknown */
  guint    n_decl;
} Run;

/* The cost of a run at one source line on one path: a stack node of the
 * capture whose frame has a line. Several stack nodes can share a path
 * (frames at other lines of the same function), so a path has several. */
typedef struct {
  guint32 path;
  guint32 line_id;   /* index in the comparison's line_keys */
  double  self_w;
  double  total_w;
  guint64 self_n;
  guint64 total_n;
} LineCost;

typedef struct {
  GPtrArray        *runs;  /* Run* */
  HpCompareSideInfo info;
} Side;

/* A capture opened by hp_comparison_add_path(), loaded by hp_comparison_run(). */
typedef struct {
  HpCompareSide  side;
  char          *name;
  HpCapture     *capture;
  HpCaptureData *data;
  GError        *error;
  gboolean       done;   /* under the comparison's lock */
} Pending;

struct _HpComparison {
  HpCompareOptions options;
  gboolean         inverted;   /* paths read from the leaf up */
  gboolean         keep_lines; /* hp_comparison_keep_lines() */
  HpComparison    *bottom_up;  /* the same runs, inverted; or NULL */
  Side             sides[2];
  GPtrArray       *pending;  /* Pending* */
  char            *event;    /* the event to compare; NULL: each capture's first */
  GMutex           lock;
  GCond            loaded;

  /* the program the first run executed (its module's base name), and the
   * other names runs' programs had: name -> GINT_TO_POINTER (1) when
   * matched to it as the same program renamed, (-1) when not */
  char       *program_name;
  GHashTable *program_names;
  GPtrArray  *renamed;      /* char*, the names matched, in order */

  /* identities: "MODULE\tNAME", index from 1 */
  GHashTable *ident_index;  /* key (owned by ident_keys) -> GUINT_TO_POINTER (index) */
  GPtrArray  *ident_keys;   /* char*, [0] NULL */
  GPtrArray  *ident_modules; /* char* (interned), [0] NULL */

  /* the merged tree: (parent, identity) -> path id, open addressing */
  GArray  *nodes;           /* PathNode, [0] the root */
  Slot    *slots;
  gsize    slot_mask;

  /* after hp_comparison_run() */
  gboolean           done;
  HpCompareMethod    method;
  double             floor;
  double             mde;
  GPtrArray         *warnings;     /* char*, NULL-terminated */
  GArray            *functions;    /* HpCompareFunction, in order */
  GArray            *by_total;     /* guint indices into functions */
  GArray            *renames;      /* HpCompareRename (find_renames()) */
  GArray            *paths;        /* HpComparePath, public index = id - 1 */
  HpCompareStat     *path_stats;   /* by public index */
  guint8            *path_state;   /* 0 not computed, 1 computed */
  double            *path_base;    /* mean total cost per run, by public index */
  double            *path_new;
  GArray            *material;     /* guint public indices, in order */
  /* speed factors of the runs (compute_speed()), base runs then new */
  GArray            *refs;         /* guint32 identities the speeds come from */
  double            *ref_logs;     /* [ref * n_runs + run] */
  gint              *ref_of_ident; /* index in refs, or -1 */
  double            *all_speed;    /* [run]: from all the refs */
  double            *ref_speed;    /* [ref * n_runs + run]: from the other refs */
  double            *cur_speed[2]; /* what compute_stat() divides by, per side */
  HpCompareStat      program;      /* the total cost, unscaled */
  HpCompareStat      program_scaled; /* the same at the runs' common speed */

  /* source lines: "LINE\tFILE" -> index from 1 */
  GHashTable        *line_index;   /* key (owned by line_keys) -> GUINT_TO_POINTER (index) */
  GPtrArray         *line_keys;    /* char*, [0] NULL */
  /* the runs' LineCosts by function identity, made when first asked:
   * those of identity g are line_refs[line_start[g] .. line_start[g + 1]) */
  guint32           *line_start;
  guint64           *line_refs;    /* run index (base runs, then new) << 32 | index in its lines */
};

const char *
hp_verdict_to_string (HpVerdict verdict)
{
  switch (verdict)
    {
    case HP_VERDICT_SLOWER: return "slower";
    case HP_VERDICT_FASTER: return "faster";
    case HP_VERDICT_UNCHANGED: return "unchanged";
    case HP_VERDICT_NEGLIGIBLE: return "negligible";
    case HP_VERDICT_UNRESOLVED:
    default: return "unresolved";
    }
}

/* The margin of "unchanged" (judge()), event units: the comparison's
 * minimum detectable effect (the one the heading states,
 * hp_comparison_get_mde()) of the figure's base; 0 when there is none.
 * One margin for every figure, not each figure's own MDE: that made
 * "unchanged" easier the noisier the figure (f4 at -6.6 % to +4.8 %
 * unchanged, f1 at -6.5 % to +2.4 % unresolved; a whole program at
 * -4.5 % to +8.2 % unchanged while its main row, measured closer, was
 * unresolved). The floor is no margin of "unchanged": a figure smaller
 * than the floor fitted in it whatever it did, "unchanged -100 %" (a
 * path gone) or "+40 %" (significant); within the floor it is
 * "negligible", which says that. */
static double
unchanged_margin (HpComparison        *self,
                  const HpCompareStat *s)
{
  return isfinite (self->mde) && s->base > 0 ? self->mde / 100 * s->base : 0;
}

static char *
percent_of (double value,
            double base)
{
  if (!(base > 0) || !isfinite (value))
    return g_strdup ("—");
  return g_strdup_printf ("%+.1f %%", 100 * value / base);
}

/**
 * hp_comparison_explain:
 * @stat: a statistic of @self (a path's, a function's, the program's)
 *
 * What @stat's verdict means, in one sentence for people, with its
 * figures: "slower" and "faster" are significant and over the floor;
 * "unchanged" is an interval that rules out any change above a margin;
 * "unresolved" is an interval too wide to say either. The front ends
 * show it beside the word, so that the two words are never read alike.
 */
char *
hp_comparison_explain (HpComparison        *self,
                       const HpCompareStat *stat)
{
  double margin;
  double total;
  gboolean unbounded;
  g_autofree char *low = NULL;
  g_autofree char *high = NULL;
  g_autofree char *diff_low = NULL;
  g_autofree char *diff_high = NULL;

  g_return_val_if_fail (self != NULL && self->done && stat != NULL, NULL);

  margin = stat->base > 0 ? 100 * unchanged_margin (self, stat) / stat->base : INFINITY;
  unbounded = isnan (stat->low) || isnan (stat->high);
  /* the interval the tables show (Fieller's), else that of the difference */
  low = !isnan (stat->low) ? g_strdup_printf ("%+.1f %%", stat->low) : percent_of (stat->diff_low, stat->base);
  high = !isnan (stat->high) ? g_strdup_printf ("%+.1f %%", stat->high) : percent_of (stat->diff_high, stat->base);
  /* the difference in percent of the whole program, the floor's terms */
  total = (self->sides[0].info.cost + self->sides[1].info.cost) / 2;
  diff_low = percent_of (stat->diff_low, total);
  diff_high = percent_of (stat->diff_high, total);
  switch (stat->verdict)
    {
    case HP_VERDICT_SLOWER:
    case HP_VERDICT_FASTER:
      /* Translators: "slower" or "faster", a q-value, the interval's ends */
      return g_strdup_printf (_("%s: the change is significant (q %.2g) and above the floor; "
                                "the 95 %% interval is %s to %s"),
                              stat->verdict == HP_VERDICT_SLOWER ? _("slower") : _("faster"),
                              stat->q, low, high);
    case HP_VERDICT_UNCHANGED:
      if (stat->base_samples == 0 && stat->new_samples == 0)
        return g_strdup (_("unchanged: no samples on either side"));
      /* Translators: the interval's ends, then a margin in percent */
      return g_strdup_printf (_("unchanged: the 95 %% interval, %s to %s, rules out a change larger than ±%.1f %%"),
                              low, high, margin);
    case HP_VERDICT_NEGLIGIBLE:
      if (unbounded)
        /* Translators: two sample counts, then the interval of the difference
         * in percent of the whole program, then the floor in percent */
        return g_strdup_printf (_("negligible: too few samples (%" PRIu64 " in the base, %" PRIu64 " in the new runs) "
                                  "to bound its change in percent, but the difference, %s to %s of the whole "
                                  "program, is under the floor (%g %%) either way"),
                                stat->base_samples, stat->new_samples, diff_low, diff_high,
                                self->options.floor_percent);
      /* Translators: the interval of the change, then of the difference in
       * percent of the whole program, then the floor in percent */
      return g_strdup_printf (_("negligible: whatever it changed by (the 95 %% interval is %s to %s), the difference, "
                                "%s to %s of the whole program, is under the floor (%g %%)"),
                              low, high, diff_low, diff_high, self->options.floor_percent);
    case HP_VERDICT_UNRESOLVED:
    default:
      if (!(stat->base > 0))
        return g_strdup (_("unresolved: nothing to compare it with in the base"));
      if (unbounded)
        /* Translators: two sample counts, then the interval of the difference
         * in percent of the whole program, then the floor in percent */
        return g_strdup_printf (_("unresolved: too few samples (%" PRIu64 " in the base, %" PRIu64 " in the new runs) "
                                  "to bound its change in percent, and the difference, %s to %s of the whole "
                                  "program, may reach the floor (%g %%) (more runs narrow it)"),
                                stat->base_samples, stat->new_samples, diff_low, diff_high,
                                self->options.floor_percent);
      /* Translators: the interval's ends, then a margin in percent */
      return g_strdup_printf (_("unresolved: the runs cannot tell; the 95 %% interval, %s to %s, still allows a "
                                "change larger than ±%.1f %% (more runs narrow it)"), low, high, margin);
    }
}

/* Clones ---------------------------------------------------------------- */

static gboolean
is_clone_word (const char *s,
               gsize       len)
{
  static const char *words[] = { "part", "constprop", "isra", "cold", "lto_priv", "localalias" };

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (strlen (words[i]) == len && strncmp (s, words[i], len) == 0)
      return TRUE;
  return FALSE;
}

char *
hp_compare_fold_clone_name (const char *name)
{
  GString *s;
  gboolean changed = TRUE;

  g_return_val_if_fail (name != NULL, NULL);

  s = g_string_new (name);
  while (changed)
    {
      const char *dot;
      gsize end = s->len;
      gboolean digits = TRUE;

      changed = FALSE;

      /* "foo(int) [clone .isra.0]", as the demangler prints C++ clones */
      if (s->len > 0 && s->str[s->len - 1] == ']')
        {
          const char *open = g_strrstr (s->str, " [clone .");

          if (open != NULL && open > s->str)
            {
              g_string_truncate (s, open - s->str);
              changed = TRUE;
              continue;
            }
        }

      /* ".N" after a clone word, then the word: ".part.0", ".cold" */
      dot = memrchr (s->str, '.', end);
      if (dot == NULL || dot == s->str)
        break;
      for (const char *p = dot + 1; p < s->str + end; p++)
        if (!g_ascii_isdigit (*p))
          digits = FALSE;
      if (digits && dot + 1 < s->str + end)
        {
          const char *word_dot = memrchr (s->str, '.', dot - s->str);

          if (word_dot != NULL && word_dot != s->str &&
              is_clone_word (word_dot + 1, dot - word_dot - 1))
            {
              g_string_truncate (s, word_dot - s->str);
              changed = TRUE;
            }
        }
      else if (!digits && (strcmp (dot + 1, "cold") == 0 || strcmp (dot + 1, "localalias") == 0))
        {
          g_string_truncate (s, dot - s->str);
          changed = TRUE;
        }
    }
  return g_string_free (s, FALSE);
}

/* Big arrays ---------------------------------------------------------------- */

#define HUGE_PAGE ((gsize) 2 * 1024 * 1024)

/* Asks the kernel for 2 MB pages under the 2 MB-aligned part of
 * [@p, @p + @size), where it has not touched them yet. The big arrays of
 * a comparison (the table of paths, the runs' costs) are written all
 * over in an order the hash decides: with 4 kB pages a 1M-sample capture
 * costs tens of thousands of page faults and as many TLB misses, a fifth
 * of its time. Debian's transparent huge pages are "madvise": nothing
 * changes where they are off. */
static void
advise_huge (gpointer p,
             gsize    size)
{
  guintptr start = ((guintptr) p + HUGE_PAGE - 1) & ~(guintptr) (HUGE_PAGE - 1);
  guintptr end = ((guintptr) p + size) & ~(guintptr) (HUGE_PAGE - 1);

  if (end > start)
    madvise ((gpointer) start, end - start, MADV_HUGEPAGE);
}

/* An array of @n elements of @size bytes, not zeroed, in huge pages where
 * it spans them: a scratch array written once all over (in 4 kB pages,
 * the faults of its first writes cost more than the writes). Free it
 * with g_aligned_free(). */
static gpointer
big_new (gsize n,
         gsize size)
{
  gsize bytes;
  gpointer p;

  if (!g_size_checked_mul (&bytes, MAX (n, 1), size))
    g_error ("%s: overflow allocating %zu elements of %zu bytes",
             G_STRLOC, n, size);
  if (bytes < HUGE_PAGE)
    return g_aligned_alloc (bytes, 1, 64);
  bytes = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  p = g_aligned_alloc (bytes, 1, HUGE_PAGE);
  advise_huge (p, bytes);
  return p;
}

/* A zeroed array of @n elements of @size bytes. One of 2 MB or more is
 * aligned to huge pages and rounded up to a whole number of them (at most
 * 2 MB more), so that all of it can be in them. Free it with
 * g_aligned_free(). */
static gpointer
big_new0 (gsize n,
          gsize size)
{
  gpointer p = big_new (n, size);

  /* big_new checked that n × size does not overflow */
  memset (p, 0, MAX (n, 1) * size);
  return p;
}

static void
aligned_free_ptr (gpointer p)
{
  g_aligned_free (*(gpointer *) p);
}

/* g_autofree for big_new() and big_new0() */
#define big_autofree __attribute__ ((cleanup (aligned_free_ptr)))

/* Interning --------------------------------------------------------------- */

static guint32
intern_ident (HpComparison *self,
              const char   *module,
              const char   *name)
{
  g_autofree char *folded = hp_compare_fold_clone_name (name);
  g_autofree char *key = g_strconcat (module, "\t", folded, NULL);
  gpointer index;

  if (g_hash_table_lookup_extended (self->ident_index, key, NULL, &index))
    return GPOINTER_TO_UINT (index);
  g_ptr_array_add (self->ident_keys, g_steal_pointer (&key));
  /* few distinct modules: interned, shared by every function of one */
  g_ptr_array_add (self->ident_modules, (gpointer) g_intern_string (module));
  g_hash_table_insert (self->ident_index, self->ident_keys->pdata[self->ident_keys->len - 1],
                       GUINT_TO_POINTER (self->ident_keys->len - 1));
  return self->ident_keys->len - 1;
}

static const char *
ident_name (HpComparison *self,
            guint32       ident)
{
  const char *key = self->ident_keys->pdata[ident];

  return strchr (key, '\t') + 1;
}

static guint32
intern_line (HpComparison *self,
             const char   *file,
             guint         line)
{
  g_autofree char *key = g_strdup_printf ("%u\t%s", line, file);
  gpointer index;

  if (g_hash_table_lookup_extended (self->line_index, key, NULL, &index))
    return GPOINTER_TO_UINT (index);
  g_ptr_array_add (self->line_keys, g_steal_pointer (&key));
  g_hash_table_insert (self->line_index, self->line_keys->pdata[self->line_keys->len - 1],
                       GUINT_TO_POINTER (self->line_keys->len - 1));
  return self->line_keys->len - 1;
}

static inline gsize
slot_of (guint32 parent,
         guint32 ident,
         gsize   mask)
{
  guint64 h = ((guint64) parent << 32 | ident) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  return (gsize) (h ^ (h >> 29)) & mask;
}

/* Rehashes into a table of at least @size slots (a power of two). */
static void
grow_slots (HpComparison *self,
            gsize         size)
{
  gsize old_size = self->slot_mask + 1;
  Slot *old = self->slots;
  gsize new_size = old_size;

  while (new_size < size)
    new_size *= 2;
  if (new_size == old_size)
    return;
  self->slot_mask = new_size - 1;
  self->slots = big_new0 (new_size, sizeof (Slot));
  for (gsize o = 0; o < old_size; o++)
    if (old[o].id != 0)
      {
        gsize i;

        for (i = slot_of (old[o].parent, old[o].ident, self->slot_mask);
             self->slots[i].id != 0;
             i = (i + 1) & self->slot_mask)
          ;
        self->slots[i] = old[o];
      }
  g_aligned_free (old);
}

/* The path (@parent, @ident), or PENDING when there is none yet. */
static inline guint32
find_path (HpComparison *self,
           guint32       parent,
           guint32       ident)
{
  for (gsize i = slot_of (parent, ident, self->slot_mask); self->slots[i].id != 0; i = (i + 1) & self->slot_mask)
    if (self->slots[i].parent == parent && self->slots[i].ident == ident)
      return self->slots[i].id;
  return PENDING;
}

static guint32
intern_path (HpComparison *self,
             guint32       parent,
             guint32       ident)
{
  PathNode node;
  Slot *slot;
  gsize i;

  for (i = slot_of (parent, ident, self->slot_mask); self->slots[i].id != 0; i = (i + 1) & self->slot_mask)
    if (self->slots[i].parent == parent && self->slots[i].ident == ident)
      return self->slots[i].id;
  g_return_val_if_fail (self->nodes->len < PENDING, NONE);

  node.parent = parent;
  node.ident = ident;
  node.depth = g_array_index (self->nodes, PathNode, parent).depth + 1;
  node.first = TRUE;  /* set by mark_recursion() */
  g_array_append_val (self->nodes, node);
  slot = &self->slots[i];
  slot->parent = parent;
  slot->ident = ident;
  slot->id = self->nodes->len - 1;
  if ((self->nodes->len) * 2 > self->slot_mask)
    grow_slots (self, (self->slot_mask + 1) * 2);
  return self->nodes->len - 1;
}

/* Makes room for a run of @n sampled stack nodes. Several stack nodes
 * often share a path (frames at other lines of one function: in the
 * benchmark's captures, 6 stack nodes in 10 have a path of their own),
 * and runs of one program share most paths. So the first run sizes the
 * table at one slot per stack node, rounded up to a power of two (it
 * doubles once if more than half of them turn out to be paths), and the
 * nodes for all of them; a later run adds room only when it has more
 * stack nodes (a run of another program grows them as it goes). A
 * smaller table is fewer cache misses and fewer pages to fault in. */
static void
reserve_paths (HpComparison *self,
               gsize         n)
{
  guint len = self->nodes->len;
  gsize want = MAX ((gsize) len, n + 1);

  grow_slots (self, want);
  if (want > len)
    {
      g_array_set_size (self->nodes, want);
      g_array_set_size (self->nodes, len);
      advise_huge (self->nodes->data, want * sizeof (PathNode));
    }
}

/* Marks the paths whose function also occurs above them (recursion), which
 * a function's total must not count twice: one depth-first walk of the
 * merged tree, counting the occurrences of each function on the way down
 * (a walk up from every path would cost its depth each). */
static void
mark_recursion (HpComparison *self)
{
  guint n = self->nodes->len;
  PathNode *nodes = (PathNode *) (gpointer) self->nodes->data;
  g_autofree guint32 *start = g_new0 (guint32, n + 1);
  g_autofree guint32 *children = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *fill = NULL;
  g_autofree guint32 *on_path = g_new0 (guint32, self->ident_keys->len);
  g_autofree guint32 *stack = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *next = g_new (guint32, MAX (n, 1));
  guint depth = 0;

  /* children of each node, contiguous (a parent's id is below its children's) */
  for (guint32 id = 1; id < n; id++)
    start[nodes[id].parent + 1]++;
  for (guint32 id = 0; id < n; id++)
    start[id + 1] += start[id];
  fill = g_memdup2 (start, sizeof (guint32) * (n + 1));
  for (guint32 id = 1; id < n; id++)
    children[fill[nodes[id].parent]++] = id;

  stack[0] = ROOT;
  next[0] = start[ROOT];
  depth = 1;
  while (depth > 0)
    {
      guint32 top = stack[depth - 1];

      if (next[depth - 1] < start[top + 1])
        {
          guint32 child = children[next[depth - 1]++];

          nodes[child].first = on_path[nodes[child].ident] == 0;
          on_path[nodes[child].ident]++;
          stack[depth] = child;
          next[depth] = start[child];
          depth++;
        }
      else
        {
          if (top != ROOT)
            on_path[nodes[top].ident]--;
          depth--;
        }
    }
}

/* The function identity of each frame; NONE for a broken reference. */
static guint32 *
frame_idents (const HpCaptureData *data,
              const guint32       *fident)
{
  guint32 *ident = g_new (guint32, MAX (data->frames->len, 1));

  ident[0] = NONE;
  for (guint f = 1; f < data->frames->len; f++)
    {
      gint64 function_id = g_array_index (data->frames, HpCaptureFrame, f).function_id;

      ident[f] = function_id > 0 && function_id < data->functions->len ? fident[function_id] : NONE;
    }
  return ident;
}

/* The function identity of stack node @s, or NONE for a broken reference. */
static inline guint32
stack_ident (const HpCaptureData *data,
             const guint32       *frame_ident,
             gint64               s)
{
  gint64 frame_id = g_array_index (data->stacks, HpCaptureStack, s).frame_id;

  return frame_id > 0 && frame_id < data->frames->len ? frame_ident[frame_id] : NONE;
}

/* Each stack node's own cost (@w, @n) and, when @sub_w is given, the cost
 * at or under it (@sub_w, @sub_n): children into parents, a parent's id
 * being below its children's. The caller has checked the counts' stack
 * ids and the parents. */
static void
stack_costs (const HpCaptureData *data,
             gboolean             use_samples,
             double              *w,
             guint64             *n,
             double              *sub_w,
             guint64             *sub_n)
{
  guint n_stacks = MAX (data->stacks->len, 1);

  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);

      w[c->stack_id] += use_samples ? (double) c->samples : (double) c->weight;
      n[c->stack_id] += c->samples;
    }
  if (sub_w == NULL)
    return;
  memcpy (sub_w, w, sizeof (double) * n_stacks);
  memcpy (sub_n, n, sizeof (guint64) * n_stacks);
  for (guint s = n_stacks - 1; s >= 1; s--)
    {
      gint64 parent = g_array_index (data->stacks, HpCaptureStack, s).parent_id;

      sub_w[parent] += sub_w[s];
      sub_n[parent] += sub_n[s];
    }
}

/* Grows a run's totals to hold path @id, zeroing what is new. */
static void
run_reserve (Run     *run,
             guint32  id,
             guint   *capacity)
{
  guint old = *capacity;

  if (id < old)
    return;
  while (*capacity <= id)
    *capacity = MAX (*capacity * 2, 1024);
  {
    double *w = big_new0 (*capacity, sizeof (double));
    guint64 *n = big_new0 (*capacity, sizeof (guint64));

    if (old > 0)
      {
        memcpy (w, run->total_w, sizeof (double) * old);
        memcpy (n, run->total_n, sizeof (guint64) * old);
      }
    g_aligned_free (run->total_w);
    g_aligned_free (run->total_n);
    run->total_w = w;
    run->total_n = n;
  }
}

/* The bottom-up tree: each sampled stack's path read from its leaf up, so
 * that a path's total is the cost of the samples whose stack ends with it
 * (a function's callers, then theirs). A function's self cost is that
 * of the samples whose leaf is in it, as in the top-down tree. One pass:
 * the run's totals grow with the paths. */
static gboolean
add_inverted (HpComparison        *self,
              const HpCaptureData *data,
              const guint32       *frame_ident,
              gboolean             use_samples,
              Run                 *run)
{
  guint n_stacks = MAX (data->stacks->len, 1);
  g_autofree guint32 *ident = g_new0 (guint32, n_stacks);
  g_autofree guint32 *up = g_new0 (guint32, n_stacks);
  g_autofree double *w = g_new0 (double, n_stacks);
  g_autofree guint64 *n = g_new0 (guint64, n_stacks);
  guint capacity = 0;

  for (guint s = 1; s < n_stacks; s++)
    {
      ident[s] = stack_ident (data, frame_ident, s);
      g_return_val_if_fail (ident[s] != NONE, FALSE);
      up[s] = g_array_index (data->stacks, HpCaptureStack, s).parent_id;
    }
  stack_costs (data, use_samples, w, n, NULL, NULL);
  for (guint s = 1; s < n_stacks; s++)
    {
      run->self_w[ident[s]] += w[s];
      run->self_n[ident[s]] += n[s];
    }

  run_reserve (run, self->nodes->len - 1, &capacity);
  for (guint s = 1; s < n_stacks; s++)
    {
      guint32 node = ROOT;

      if (n[s] == 0 && w[s] == 0)
        continue;
      for (guint32 t = s; t != 0; t = up[t])
        {
          node = intern_path (self, node, ident[t]);
          run_reserve (run, node, &capacity);
          run->total_w[node] += w[s];
          run->total_n[node] += n[s];
        }
    }
  run->n_paths = self->nodes->len;
  run->total_w[ROOT] = run->cost;
  run->total_n[ROOT] = run->samples;
  return TRUE;
}

/* The costs of the sampled stack nodes whose frame has a source line,
 * kept per path so that a recursive function's total can leave out its
 * inner calls once the paths are marked (hp_comparison_get_lines()). */
static void
add_lines (HpComparison        *self,
           const HpCaptureData *data,
           const guint32       *path,
           gboolean             use_samples,
           Run                 *run)
{
  guint n_stacks = MAX (data->stacks->len, 1);
  g_autofree guint32 *frame_line = g_new (guint32, MAX (data->frames->len, 1));
  g_autofree double *w = g_new0 (double, n_stacks);
  g_autofree guint64 *n = g_new0 (guint64, n_stacks);
  g_autofree double *sub_w = g_new (double, n_stacks);
  g_autofree guint64 *sub_n = g_new (guint64, n_stacks);

  stack_costs (data, use_samples, w, n, sub_w, sub_n);
  /* frame -> line id, NONE until needed, 0 when it has no line */
  for (guint f = 0; f < data->frames->len; f++)
    frame_line[f] = NONE;
  /* one per sampled stack node at most: room for them all at once */
  run->lines = g_array_sized_new (FALSE, FALSE, sizeof (LineCost), data->stacks->len);
  run->n_decl = self->ident_keys->len;
  run->decl = g_new0 (guint32, MAX (run->n_decl, 1));
  for (guint s = 1; s < data->stacks->len; s++)
    {
      gint64 frame_id = g_array_index (data->stacks, HpCaptureStack, s).frame_id;
      LineCost cost;

      if (path[s] == NONE)
        continue;
      if (frame_line[frame_id] == NONE)
        {
          const HpCaptureFrame *frame = &g_array_index (data->frames, HpCaptureFrame, frame_id);

          frame_line[frame_id] = frame->line > 0 && frame->file != NULL
                                 ? intern_line (self, frame->file, frame->line) : 0;
        }
      if (frame_line[frame_id] == 0)
        continue;
      {
        guint32 ident = g_array_index (self->nodes, PathNode, path[s]).ident;
        const HpCaptureFrame *frame = &g_array_index (data->frames, HpCaptureFrame, frame_id);
        const HpCaptureFunction *function = &g_array_index (data->functions, HpCaptureFunction, frame->function_id);

        if (ident < run->n_decl && run->decl[ident] == 0 && function->line > 0 && function->file != NULL)
          run->decl[ident] = intern_line (self, function->file, function->line);
      }
      cost.path = path[s];
      cost.line_id = frame_line[frame_id];
      cost.self_w = w[s];
      cost.total_w = sub_w[s];
      cost.self_n = n[s];
      cost.total_n = sub_n[s];
      g_array_append_val (run->lines, cost);
    }
}

/* Life cycle --------------------------------------------------------------- */

static void pending_free (gpointer data);

static void
run_free (gpointer data)
{
  Run *run = data;

  g_free (run->name);
  g_free (run->event);
  g_free (run->unit);
  g_free (run->command);
  g_aligned_free (run->total_w);
  g_free (run->self_w);
  g_aligned_free (run->total_n);
  g_free (run->self_n);
  g_clear_pointer (&run->lines, g_array_unref);
  g_free (run->decl);
  g_free (run);
}

HpComparison *
hp_comparison_new (void)
{
  HpComparison *self = g_new0 (HpComparison, 1);
  PathNode root = { NONE, 0, 0, TRUE };

  for (guint s = 0; s < 2; s++)
    self->sides[s].runs = g_ptr_array_new_with_free_func (run_free);
  self->pending = g_ptr_array_new_with_free_func (pending_free);
  g_mutex_init (&self->lock);
  g_cond_init (&self->loaded);
  self->program_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->renamed = g_ptr_array_new_with_free_func (g_free);
  self->ident_keys = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->ident_keys, NULL);
  self->ident_modules = g_ptr_array_new ();
  g_ptr_array_add (self->ident_modules, NULL);
  self->ident_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->nodes = g_array_new (FALSE, FALSE, sizeof (PathNode));
  g_array_append_val (self->nodes, root);
  self->slot_mask = 1023;
  self->slots = big_new0 (self->slot_mask + 1, sizeof (Slot));
  self->line_keys = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->line_keys, NULL);
  self->line_index = g_hash_table_new (g_str_hash, g_str_equal);
  return self;
}

HpComparison *
hp_comparison_new_with_bottom_up (void)
{
  HpComparison *self = hp_comparison_new ();

  self->bottom_up = hp_comparison_new ();
  self->bottom_up->inverted = TRUE;
  return self;
}

/**
 * hp_comparison_keep_lines:
 *
 * Makes the captures added from now on keep their costs per source line,
 * for hp_comparison_get_lines(). It costs a tenth more time and memory,
 * which a report that shows no lines need not pay.
 */
void
hp_comparison_keep_lines (HpComparison *self)
{
  g_return_if_fail (self != NULL);

  self->keep_lines = TRUE;
}

HpComparison *
hp_comparison_get_bottom_up (HpComparison *self)
{
  g_return_val_if_fail (self != NULL && self->done, NULL);

  return self->bottom_up;
}

gboolean
hp_comparison_is_bottom_up (HpComparison *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->inverted;
}

void
hp_comparison_free (HpComparison *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->bottom_up, hp_comparison_free);
  g_free (self->event);
  for (guint s = 0; s < 2; s++)
    g_ptr_array_unref (self->sides[s].runs);
  g_ptr_array_unref (self->pending);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->loaded);
  g_free (self->program_name);
  g_hash_table_unref (self->program_names);
  g_ptr_array_unref (self->renamed);
  g_hash_table_unref (self->ident_index);
  g_ptr_array_unref (self->ident_keys);
  g_ptr_array_unref (self->ident_modules);
  g_array_unref (self->nodes);
  g_aligned_free (self->slots);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  g_clear_pointer (&self->functions, g_array_unref);
  g_clear_pointer (&self->by_total, g_array_unref);
  g_clear_pointer (&self->renames, g_array_unref);
  g_clear_pointer (&self->paths, g_array_unref);
  g_clear_pointer (&self->material, g_array_unref);
  g_free (self->path_stats);
  g_free (self->path_state);
  g_free (self->path_base);
  g_free (self->path_new);
  g_clear_pointer (&self->refs, g_array_unref);
  g_free (self->ref_logs);
  g_free (self->ref_of_ident);
  g_free (self->all_speed);
  g_free (self->ref_speed);
  g_hash_table_unref (self->line_index);
  g_ptr_array_unref (self->line_keys);
  g_free (self->line_start);
  g_free (self->line_refs);
  g_free (self);
}

/* Renamed programs -----------------------------------------------------------
 *
 * README's own example compares ./app-old with ./app-new: one program,
 * built twice and kept under two names so that their runs can be
 * interleaved. Its functions are then in modules of two base names and
 * would match nothing. Libraries keep the rule (libfoo.so.1 is never
 * libbar.so.1), but the module of the program a run executed, its
 * command's first word, goes by the name of the first run's program when
 * the two are one program renamed: most of the cost of each is in
 * functions of names the other has. Two different programs, which share
 * main() and little else, keep their names (and the warning that the
 * sides have little in common). The decision is made once per name, so
 * every run of one program is matched alike, and said in a warning.
 */

/* The module of the program @data's run executed (hp_summary_program_name(),
 * as the summary library names programs), or 0 when no module has its name. */
static gint64
program_module (const HpCaptureData *data)
{
  g_autofree char *name = hp_summary_program_name (data);

  if (name == NULL)
    return 0;
  for (guint m = 1; m < data->modules->len; m++)
    {
      const HpCaptureModule *module = &g_array_index (data->modules, HpCaptureModule, m);

      if (!module->is_kernel && g_strcmp0 (module->name, name) == 0)
        return m;
    }
  return 0;
}

/* Whether module @module of @data is self->program_name renamed: at least
 * RENAMED_SHARE of the self cost of each (its functions' names counted
 * instead where one has no self cost) is in functions of names the other
 * has, clones folded; self->program_name's cost is the runs' added so far. */
static gboolean
is_renamed_program (HpComparison        *self,
                    const HpCaptureData *data,
                    gint64               module)
{
  const char *program = g_intern_string (self->program_name);
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree double *function_cost = g_new0 (double, MAX (data->functions->len, 1));
  g_autofree double *name_cost = g_new0 (double, MAX (data->functions->len, 1));
  /* [0] weighed by self cost, [1] by count; mine: this run's, theirs: the program's */
  double mine[2] = { 0, 0 }, mine_matched[2] = { 0, 0 };
  double theirs[2] = { 0, 0 }, theirs_matched[2] = { 0, 0 };
  guint by;

  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);
      gint64 frame_id, function_id;

      if (c->stack_id <= 0 || c->stack_id >= data->stacks->len)
        continue;
      frame_id = g_array_index (data->stacks, HpCaptureStack, c->stack_id).frame_id;
      if (frame_id <= 0 || frame_id >= data->frames->len)
        continue;
      function_id = g_array_index (data->frames, HpCaptureFrame, frame_id).function_id;
      if (function_id > 0 && function_id < data->functions->len)
        function_cost[function_id] += c->samples;
    }

  /* this run's functions in @module, by folded name */
  for (guint f = 1; f < data->functions->len; f++)
    {
      const HpCaptureFunction *fn = &g_array_index (data->functions, HpCaptureFunction, f);
      g_autofree char *folded = NULL;
      gpointer index;

      if (fn->module_id != module)
        continue;
      folded = hp_compare_fold_clone_name (fn->name ? fn->name : "");
      if (!g_hash_table_lookup_extended (names, folded, NULL, &index))
        {
          index = GUINT_TO_POINTER (g_hash_table_size (names));
          g_hash_table_insert (names, g_steal_pointer (&folded), index);
        }
      name_cost[GPOINTER_TO_UINT (index)] += function_cost[f];
    }
  {
    GHashTableIter iter;
    gpointer key, index;

    g_hash_table_iter_init (&iter, names);
    while (g_hash_table_iter_next (&iter, &key, &index))
      {
        g_autofree char *ident = g_strconcat (program, "\t", (const char *) key, NULL);
        gboolean theirs_too = g_hash_table_contains (self->ident_index, ident);
        double cost = name_cost[GPOINTER_TO_UINT (index)];

        mine[0] += cost;
        mine[1] += 1;
        mine_matched[0] += theirs_too ? cost : 0;
        mine_matched[1] += theirs_too ? 1 : 0;
      }
  }

  /* the program's functions, by identity, over the runs added so far */
  for (guint32 g = 1; g < self->ident_keys->len; g++)
    {
      gboolean mine_too;
      double cost = 0;

      if (self->ident_modules->pdata[g] != program)
        continue;
      for (guint s = 0; s < 2; s++)
        for (guint r = 0; r < self->sides[s].runs->len; r++)
          {
            const Run *run = g_ptr_array_index (self->sides[s].runs, r);

            if (g < run->n_idents)
              cost += (double) run->self_n[g];
          }
      mine_too = g_hash_table_contains (names, ident_name (self, g));
      theirs[0] += cost;
      theirs[1] += 1;
      theirs_matched[0] += mine_too ? cost : 0;
      theirs_matched[1] += mine_too ? 1 : 0;
    }

  by = mine[0] > 0 && theirs[0] > 0 ? 0 : 1;
  return mine[by] > 0 && theirs[by] > 0 &&
         mine_matched[by] >= RENAMED_SHARE * mine[by] &&
         theirs_matched[by] >= RENAMED_SHARE * theirs[by];
}

/* The name the functions of @data's program go by: its own, or
 * self->program_name when it is that program renamed (NULL then: no change). */
static const char *
program_alias (HpComparison        *self,
               const HpCaptureData *data,
               gint64              *module)
{
  const char *name;
  gpointer known;

  *module = program_module (data);
  if (*module == 0)
    return NULL;
  name = g_array_index (data->modules, HpCaptureModule, *module).name;
  if (self->program_name == NULL)
    {
      self->program_name = g_strdup (name);
      return NULL;
    }
  if (strcmp (name, self->program_name) == 0)
    return NULL;
  if (!g_hash_table_lookup_extended (self->program_names, name, NULL, &known))
    {
      known = GINT_TO_POINTER (is_renamed_program (self, data, *module) ? 1 : -1);
      g_hash_table_insert (self->program_names, g_strdup (name), known);
      if (GPOINTER_TO_INT (known) > 0)
        g_ptr_array_add (self->renamed, g_strdup (name));
    }
  return GPOINTER_TO_INT (known) > 0 ? self->program_name : NULL;
}

/* Adding runs --------------------------------------------------------------- */

typedef struct {
  guint32 stack;
  guint32 parent;  /* stack node */
  guint32 ident;
} Step;

/* The paths the table has already for the live stack nodes of a run (a
 * later run of a program has almost all of its paths there): each
 * lookup is a cache miss, which costs more than the rest of the work on
 * a node. In the order of the stack ids, a node's parent often comes just
 * before it (a new stack adds a chain of nodes), so its path is not known
 * in time to ask for the slot ahead. By depth, every parent's path is
 * known before its children's are looked up: the slot LOOKUP_AHEAD nodes
 * further on is asked for meanwhile. Nothing is added: @path holds
 * PENDING for a live node whose path is not there (or whose frame is
 * broken), NONE for the others, and the caller makes the new paths in the
 * order of the stack ids, so that they have the ids they always had. */
static void
find_known_paths (HpComparison        *self,
                  const HpCaptureData *data,
                  const guint32       *frame_ident,
                  const guint8        *live,
                  gsize                n_live,
                  guint32             *path)
{
  guint n_stacks = MAX (data->stacks->len, 1);
  const HpCaptureStack *stacks = (const HpCaptureStack *) (gpointer) data->stacks->data;
  big_autofree Step *order = big_new (n_live, sizeof (Step));
  g_autofree gsize *next = NULL;
  guint32 max_depth = 0;

  /* each live node's depth, in @path for now (a parent's id is below
   * its children's, and the parent of a live node is live) */
  path[0] = 0;
  for (guint s = 1; s < n_stacks; s++)
    if (live[s])
      {
        path[s] = path[stacks[s].parent_id] + 1;
        max_depth = MAX (max_depth, path[s]);
      }
  /* where each depth starts in @order */
  next = g_new0 (gsize, (gsize) max_depth + 2);
  for (guint s = 1; s < n_stacks; s++)
    if (live[s])
      next[path[s] + 1]++;
  for (guint32 d = 1; d <= max_depth; d++)
    next[d + 1] += next[d];
  for (guint s = 1; s < n_stacks; s++)
    {
      Step *step;

      if (!live[s])
        {
          path[s] = NONE;
          continue;
        }
      step = &order[next[path[s]]++];
      step->stack = s;
      step->parent = stacks[s].parent_id;
      step->ident = stack_ident (data, frame_ident, s);
      path[s] = PENDING;
    }
  path[0] = ROOT;

  for (gsize i = 0; i < n_live; i++)
    {
      const Step *step = &order[i];
      guint32 parent;

      if (i + LOOKUP_AHEAD < n_live)
        {
          const Step *ahead = &order[i + LOOKUP_AHEAD];
          guint32 ahead_parent = path[ahead->parent];

          if (ahead_parent < PENDING && ahead->ident != NONE)
            __builtin_prefetch (&self->slots[slot_of (ahead_parent, ahead->ident, self->slot_mask)]);
        }
      if (i + 2 * LOOKUP_AHEAD < n_live)
        __builtin_prefetch (&path[order[i + 2 * LOOKUP_AHEAD].parent]);
      parent = path[step->parent];
      if (parent < PENDING && step->ident != NONE)
        path[step->stack] = find_path (self, parent, step->ident);
    }
}


gboolean
hp_comparison_add_data (HpComparison        *self,
                        HpCompareSide        side,
                        const char          *name,
                        const HpCaptureData *data,
                        GError             **error)
{
  guint n_stacks, n_functions;
  g_autofree guint32 *fident = NULL;
  g_autofree guint32 *frame_ident = NULL;
  big_autofree guint8 *live = NULL;
  big_autofree guint32 *path = NULL;
  const char *alias;
  gint64 program = 0;
  gboolean use_samples;
  double weight_sum = 0, sample_sum = 0;
  gsize n_live = 0;
  const PathNode *nodes;
  Run *run;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (side == HP_COMPARE_BASE || side == HP_COMPARE_NEW, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (!self->done, FALSE);

  n_stacks = MAX (data->stacks->len, 1);
  n_functions = MAX (data->functions->len, 1);

  run = g_new0 (Run, 1);
  run->name = g_strdup (name);
  {
    const char *event, *unit;

    hp_capture_data_get_event (data, &event, &unit);
    run->event = g_strdup (event);
    run->unit = g_strdup (unit);
  }
  run->command = g_strdup (g_hash_table_lookup (data->metadata, HP_META_COMMAND));

  /* function id -> identity; a renamed program's module by its first name */
  alias = program_alias (self, data, &program);
  fident = g_new0 (guint32, n_functions);
  for (guint f = 1; f < data->functions->len; f++)
    {
      const HpCaptureFunction *fn = &g_array_index (data->functions, HpCaptureFunction, f);
      const char *module = "";

      if (alias != NULL && fn->module_id == program)
        module = alias;
      else if (fn->module_id > 0 && fn->module_id < data->modules->len)
        module = g_array_index (data->modules, HpCaptureModule, fn->module_id).name ?: "";
      fident[f] = intern_ident (self, module, fn->name ? fn->name : "");
    }
  frame_ident = frame_idents (data, fident);
  run->n_idents = self->ident_keys->len;
  run->self_w = g_new0 (double, run->n_idents);
  run->self_n = g_new0 (guint64, run->n_idents);

  /* Which stack nodes have samples at or under them: only those get a
   * path. A capture whose samples carry no weight (written by a tool
   * that did not know the period) counts samples. The costs go to the
   * paths below, by count (stack_counts has one per sampled stack), never
   * through arrays of all the stack nodes. */
  live = big_new0 (n_stacks, sizeof (guint8));
  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);

      g_return_val_if_fail (c->stack_id >= 0 && c->stack_id < n_stacks, (run_free (run), FALSE));
      weight_sum += c->weight;
      sample_sum += c->samples;
      run->samples += c->samples;
      if (c->weight > 0 || c->samples > 0)
        live[c->stack_id] = 1;
    }
  use_samples = weight_sum <= 0;
  run->cost = use_samples ? sample_sum : weight_sum;
  if (use_samples)
    {
      g_free (run->unit);
      run->unit = g_strdup ("samples");
    }
  for (guint s = n_stacks - 1; s >= 1; s--)
    {
      gint64 parent = g_array_index (data->stacks, HpCaptureStack, s).parent_id;

      g_return_val_if_fail (parent >= 0 && parent < s, (run_free (run), FALSE));
      if (live[s])
        {
          live[parent] = 1;
          n_live++;
        }
    }

  if (self->inverted)
    {
      if (!add_inverted (self, data, frame_ident, use_samples, run))
        {
          run_free (run);
          return FALSE;
        }
      goto done;
    }

  /* each sampled stack node -> its path in the merged tree. Each lookup
   * of the table is a cache miss at a place the hash decides: the slot
   * of the node PREFETCH_AHEAD further on is asked for meanwhile, when
   * its parent's path is known already (it mostly is: a parent comes
   * long before its children in a big capture). */
  reserve_paths (self, n_live);
  path = big_new (n_stacks, sizeof (guint32));
  if (self->nodes->len > 1)
    find_known_paths (self, data, frame_ident, live, n_live, path);
  else
    for (guint s = 0; s < n_stacks; s++)
      path[s] = live[s] ? PENDING : NONE;
  path[0] = ROOT;
  for (guint s = 1; s < n_stacks; s++)
    {
      guint t = s + PREFETCH_AHEAD;
      guint32 g;

      if (path[s] != PENDING)
        continue;
      if (t < n_stacks && path[t] == PENDING)
        {
          const HpCaptureStack *ahead = &g_array_index (data->stacks, HpCaptureStack, t);
          guint32 h = stack_ident (data, frame_ident, t);

          if (ahead->parent_id < s && h != NONE)
            __builtin_prefetch (&self->slots[slot_of (path[ahead->parent_id], h, self->slot_mask)]);
        }
      g = stack_ident (data, frame_ident, s);
      g_return_val_if_fail (g != NONE, (run_free (run), FALSE));
      path[s] = intern_path (self, path[g_array_index (data->stacks, HpCaptureStack, s).parent_id], g);
    }

  /* Each path's own cost, then its children's added into it (a child's
   * id is above its parent's). A stack node and its ancestors are at
   * different depths, so never on the same path: each sample counts once
   * on each path of its stack. */
  run->n_paths = self->nodes->len;
  run->total_w = big_new0 (run->n_paths, sizeof (double));
  run->total_n = big_new0 (run->n_paths, sizeof (guint64));
  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);
      guint32 p = path[c->stack_id];

      if (p == NONE)
        continue;
      run->total_w[p] += use_samples ? (double) c->samples : (double) c->weight;
      run->total_n[p] += c->samples;
    }
  nodes = (const PathNode *) (gpointer) self->nodes->data;
  for (guint32 id = 1; id < run->n_paths; id++)
    {
      run->self_w[nodes[id].ident] += run->total_w[id];
      run->self_n[nodes[id].ident] += run->total_n[id];
    }
  for (guint32 id = run->n_paths - 1; id >= 1; id--)
    {
      run->total_w[nodes[id].parent] += run->total_w[id];
      run->total_n[nodes[id].parent] += run->total_n[id];
    }
  run->total_w[ROOT] = run->cost;
  run->total_n[ROOT] = run->samples;
  if (self->keep_lines)
    add_lines (self, data, path, use_samples, run);

done:
  g_ptr_array_add (self->sides[side].runs, run);
  if (self->bottom_up != NULL)
    return hp_comparison_add_data (self->bottom_up, side, name, data, error);
  return TRUE;
}

void
hp_comparison_set_event (HpComparison *self,
                         const char   *name)
{
  g_return_if_fail (self != NULL);

  g_free (self->event);
  self->event = g_strdup (name);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

gboolean
hp_comparison_add_path (HpComparison  *self,
                        HpCompareSide  side,
                        const char    *path,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, error);
      const char *entry;

      if (dir == NULL)
        return FALSE;
      while ((entry = g_dir_read_name (dir)) != NULL)
        if (g_str_has_suffix (entry, ".hotpath"))
          g_ptr_array_add (files, g_build_filename (path, entry, NULL));
      if (files->len == 0)
        {
          g_set_error (error, HP_COMPARE_ERROR, HP_COMPARE_ERROR_NO_CAPTURES,
                       _("%s: no captures (*.hotpath files) in this folder"), path);
          return FALSE;
        }
      /* the order of the runs names the first one in messages */
      g_ptr_array_sort (files, compare_names);
    }
  else
    g_ptr_array_add (files, g_strdup (path));

  /* Open each capture now, so that a file that is not a capture is named
   * at once; load them in hp_comparison_run(), in parallel. */
  for (guint i = 0; i < files->len; i++)
    {
      Pending *pending;
      HpCapture *capture;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      capture = hp_capture_open (files->pdata[i], FALSE, error);
      if (capture == NULL)
        return FALSE;
      pending = g_new0 (Pending, 1);
      pending->side = side;
      pending->name = g_strdup (files->pdata[i]);
      pending->capture = capture;
      g_ptr_array_add (self->pending, pending);
    }
  return TRUE;
}

static void
pending_free (gpointer data)
{
  Pending *pending = data;

  g_free (pending->name);
  g_clear_pointer (&pending->capture, hp_capture_close);
  g_clear_pointer (&pending->data, hp_capture_data_free);
  g_clear_error (&pending->error);
  g_free (pending);
}

static void
load_job (gpointer data,
          gpointer user_data)
{
  Pending *pending = data;
  HpComparison *self = user_data;
  GError *error = NULL;
  HpCaptureData *loaded = hp_capture_load_stack_totals (pending->capture, &error);

  if (loaded != NULL && self->event != NULL)
    {
      guint64 mask = hp_capture_data_event_mask (loaded, self->event);

      if (mask == 0)
        g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     _("%s: the capture has no event %s"), pending->name, self->event);
      else
        {
          HpCaptureData *selected = hp_capture_data_select_events (loaded, mask);

          hp_capture_data_free (loaded);
          loaded = selected;
        }
      if (mask == 0)
        g_clear_pointer (&loaded, hp_capture_data_free);
    }

  g_mutex_lock (&self->lock);
  pending->data = loaded;
  pending->error = error;
  pending->done = TRUE;
  g_cond_broadcast (&self->loaded);
  g_mutex_unlock (&self->lock);
}

/* Loads the captures hp_comparison_add_path() opened, two at a time in
 * worker threads (most of the time of a big comparison is SQLite), and
 * reduces each in this thread as soon as it is there, in order. */
static gboolean
load_pending (HpComparison  *self,
              GError       **error)
{
  g_autoptr(GPtrArray) pending = g_steal_pointer (&self->pending);
  GThreadPool *pool;
  gboolean ok = TRUE;

  self->pending = g_ptr_array_new_with_free_func (pending_free);
  if (pending->len == 0)
    return TRUE;
  pool = g_thread_pool_new (load_job, self, 2, FALSE, NULL);
  for (guint i = 0; i < pending->len; i++)
    g_thread_pool_push (pool, pending->pdata[i], NULL);
  for (guint i = 0; i < pending->len; i++)
    {
      Pending *p = pending->pdata[i];

      g_mutex_lock (&self->lock);
      while (!p->done)
        g_cond_wait (&self->loaded, &self->lock);
      g_mutex_unlock (&self->lock);
      if (ok && p->data == NULL)
        {
          g_propagate_error (error, g_steal_pointer (&p->error));
          ok = FALSE;
        }
      else if (ok)
        ok = hp_comparison_add_data (self, p->side, p->name, p->data, error);
      g_clear_pointer (&p->data, hp_capture_data_free);
      g_clear_pointer (&p->capture, hp_capture_close);
    }
  g_thread_pool_free (pool, FALSE, TRUE);
  return ok;
}

/* Statistics ---------------------------------------------------------------- */

/* Per-run values of one quantity on both sides, then its statistics
 * (all but q and the verdict). */
typedef struct {
  double  *x[2];
  guint64 *k[2];
  guint    n[2];
} Values;

static void
compute_stat (HpComparison        *self,
              const Values        *v,
              HpCompareStat       *out)
{
  const HpCompareOptions *o = &self->options;
  double mean[2], var[2], se2[2], df;
  guint64 k[2] = { 0, 0 };
  HpStatsTest t;

  for (guint s = 0; s < 2; s++)
    {
      g_autofree double *scaled = g_new (double, v->n[s]);

      for (guint r = 0; r < v->n[s]; r++)
        {
          scaled[r] = v->x[s][r] / self->cur_speed[s][r];
          k[s] += v->k[s][r];
        }
      hp_stats_mean_var (scaled, v->n[s], &mean[s], &var[s]);
    }

  switch (self->method)
    {
    case HP_COMPARE_METHOD_WELCH:
      se2[0] = var[0] / v->n[0];
      se2[1] = var[1] / v->n[1];
      df = hp_stats_welch_df (se2[0], v->n[0], se2[1], v->n[1]);
      break;
    case HP_COMPARE_METHOD_ONE_RUN:
      {
        guint multi = v->n[0] > 1 ? 0 : 1;

        se2[0] = var[multi] / v->n[0];
        se2[1] = var[multi] / v->n[1];
        df = v->n[multi] - 1;
      }
      break;
    case HP_COMPARE_METHOD_COUNTS:
    default:
      /* A count k is Poisson with variance k; a cost is k times the mean
       * period of its run. */
      for (guint s = 0; s < 2; s++)
        {
          const Run *run = g_ptr_array_index (self->sides[s].runs, 0);
          double period = run->samples > 0 ? run->cost / (double) run->samples / self->cur_speed[s][0] : 0;

          se2[s] = (double) k[s] * period * period;
        }
      df = INFINITY;
      break;
    }

  hp_stats_test_means (mean[0], se2[0], mean[1], se2[1], df, o->alpha, o->power, &t);

  out->base = mean[0];
  out->new_cost = mean[1];
  out->base_samples = k[0];
  out->new_samples = k[1];
  out->p = t.p;
  out->q = NAN;
  out->diff_low = t.diff_low;
  out->diff_high = t.diff_high;
  out->mde_cost = t.mde;
  if (mean[0] > 0)
    {
      out->change = 100 * t.diff / mean[0];
      out->mde = 100 * t.mde / mean[0];
    }
  else
    {
      out->change = NAN;
      out->mde = INFINITY;
    }
  out->low = 100 * t.ratio_low;
  out->high = 100 * t.ratio_high;
  out->verdict = HP_VERDICT_UNRESOLVED;
}

static HpVerdict
judge (HpComparison        *self,
       const HpCompareStat *s)
{
  double diff = s->new_cost - s->base;
  double margin = unchanged_margin (self, s);

  if (!isnan (s->q) && s->q < self->options.alpha && fabs (diff) >= self->floor)
    return diff > 0 ? HP_VERDICT_SLOWER : HP_VERDICT_FASTER;
  if (s->base_samples == 0 && s->new_samples == 0)
    return HP_VERDICT_UNCHANGED;
  /* Unchanged: the interval shown, the change's (Fieller's, which the
   * base's own error widens beyond the difference's), and the
   * difference's within the margin. A change in percent whose interval
   * is unbounded (the base is not significantly above 0: a handful of
   * samples, or a function absent from most runs) is never unchanged: a
   * kernel function of one sample read "unchanged +100 % (unbounded)". */
  if (!isnan (s->low) && !isnan (s->high) && margin > 0 &&
      s->diff_low >= -margin && s->diff_high <= margin &&
      s->low >= -100 * margin / s->base && s->high <= 100 * margin / s->base)
    return HP_VERDICT_UNCHANGED;
  /* whatever it did, less than the floor */
  if (s->diff_low >= -self->floor && s->diff_high <= self->floor)
    return HP_VERDICT_NEGLIGIBLE;
  return HP_VERDICT_UNRESOLVED;
}

static gboolean
can_reach_floor (HpComparison        *self,
                 const HpCompareStat *s)
{
  return MAX (s->base, s->new_cost) >= self->floor;
}

/* q-values over the family of @stats that can reach the floor, then the verdicts. */
static void
adjust_and_judge (HpComparison   *self,
                  HpCompareStat **stats,
                  guint           n)
{
  g_autofree double *p = g_new (double, MAX (n, 1));
  g_autofree double *q = g_new (double, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    p[i] = can_reach_floor (self, stats[i]) ? stats[i]->p : NAN;
  hp_stats_bh_adjust (p, q, n);
  for (guint i = 0; i < n; i++)
    {
      stats[i]->q = q[i];
      stats[i]->verdict = judge (self, stats[i]);
    }
}

static gboolean
is_flagged (const HpCompareStat *s)
{
  return s->verdict == HP_VERDICT_SLOWER || s->verdict == HP_VERDICT_FASTER;
}

/* Flagged first, by q then by the size of the change; then by cost. */
static int
compare_stats (const HpCompareStat *a,
               const HpCompareStat *b)
{
  gboolean fa = is_flagged (a), fb = is_flagged (b);
  double sa, sb;

  if (fa != fb)
    return fa ? -1 : 1;
  if (fa && a->q != b->q)
    return a->q < b->q ? -1 : 1;
  if (fa)
    {
      sa = fabs (a->new_cost - a->base);
      sb = fabs (b->new_cost - b->base);
    }
  else
    {
      sa = MAX (a->base, a->new_cost);
      sb = MAX (b->base, b->new_cost);
    }
  if (sa != sb)
    return sa > sb ? -1 : 1;
  return 0;
}

static int
compare_functions_self (gconstpointer a,
                        gconstpointer b)
{
  const HpCompareFunction *fa = a, *fb = b;
  int cmp = compare_stats (&fa->self, &fb->self);

  if (cmp != 0)
    return cmp;
  if ((cmp = strcmp (fa->name, fb->name)) != 0)
    return cmp;
  return strcmp (fa->module, fb->module);
}

static int
compare_functions_total (gconstpointer a,
                         gconstpointer b,
                         gpointer      user_data)
{
  HpComparison *self = user_data;
  const HpCompareFunction *fa = &g_array_index (self->functions, HpCompareFunction, *(const guint *) a);
  const HpCompareFunction *fb = &g_array_index (self->functions, HpCompareFunction, *(const guint *) b);
  int cmp = compare_stats (&fa->total, &fb->total);

  if (cmp != 0)
    return cmp;
  return *(const guint *) a < *(const guint *) b ? -1 : 1;
}

static int
compare_paths (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  HpComparison *self = user_data;
  guint ia = *(const guint *) a, ib = *(const guint *) b;
  int cmp = compare_stats (&self->path_stats[ia], &self->path_stats[ib]);

  if (cmp != 0)
    return cmp;
  return ia < ib ? -1 : ia > ib;
}

static double
value_at (const Run *run,
          const double *values,
          guint32   id)
{
  return id < run->n_paths ? values[id] : 0;
}

/* The per-run values of path @id (an internal id). */
static void
path_values (HpComparison *self,
             guint32       id,
             Values       *v)
{
  for (guint s = 0; s < 2; s++)
    for (guint r = 0; r < v->n[s]; r++)
      {
        const Run *run = g_ptr_array_index (self->sides[s].runs, r);

        v->x[s][r] = value_at (run, run->total_w, id);
        v->k[s][r] = id < run->n_paths ? run->total_n[id] : 0;
      }
}

static void
values_init (HpComparison *self,
             Values       *v)
{
  for (guint s = 0; s < 2; s++)
    {
      v->n[s] = self->sides[s].runs->len;
      v->x[s] = g_new0 (double, v->n[s]);
      v->k[s] = g_new0 (guint64, v->n[s]);
    }
}

static void
values_clear (Values *v)
{
  for (guint s = 0; s < 2; s++)
    {
      g_free (v->x[s]);
      g_free (v->k[s]);
    }
}

static gboolean
check_events (HpComparison  *self,
              GError       **error)
{
  const Run *first = NULL;
  const char *first_side = NULL;

  for (guint s = 0; s < 2; s++)
    for (guint r = 0; r < self->sides[s].runs->len; r++)
      {
        const Run *run = g_ptr_array_index (self->sides[s].runs, r);

        if (first == NULL)
          {
            first = run;
            first_side = s == 0 ? "base" : "new";
            continue;
          }
        if (g_strcmp0 (run->event, first->event) != 0 || g_strcmp0 (run->unit, first->unit) != 0)
          {
            g_set_error (error, HP_COMPARE_ERROR, HP_COMPARE_ERROR_MISMATCH,
                         _("%s (%s) measured %s in %s, but %s (%s) measured %s in %s: "
                           "captures of different events or units cannot be compared"),
                         first->name, first_side, first->event ? first->event : _("an unknown event"),
                         first->unit ? first->unit : _("unknown units"),
                         run->name, s == 0 ? "base" : "new", run->event ? run->event : _("an unknown event"),
                         run->unit ? run->unit : _("unknown units"));
            return FALSE;
          }
      }
  return TRUE;
}

/* Per-run function costs, [side][run * n_idents + ident]. */
typedef struct {
  guint    n_idents;
  double  *self_w[2];
  double  *total_w[2];
  guint64 *self_n[2];
  guint64 *total_n[2];
  double  *present[2];   /* total over the runs, by identity */
} FunctionValues;

static void
function_values_init (HpComparison   *self,
                      FunctionValues *fv)
{
  fv->n_idents = self->ident_keys->len;
  for (guint s = 0; s < 2; s++)
    {
      gsize size = (gsize) self->sides[s].runs->len * fv->n_idents;

      fv->self_w[s] = g_new0 (double, size);
      fv->total_w[s] = g_new0 (double, size);
      fv->self_n[s] = g_new0 (guint64, size);
      fv->total_n[s] = g_new0 (guint64, size);
      fv->present[s] = g_new0 (double, fv->n_idents);
      for (guint r = 0; r < self->sides[s].runs->len; r++)
        {
          const Run *run = g_ptr_array_index (self->sides[s].runs, r);
          gsize row = (gsize) r * fv->n_idents;

          /* self: the run's by identity; total: the paths on which the
           * function does not occur above */
          memcpy (&fv->self_w[s][row], run->self_w, sizeof (double) * run->n_idents);
          memcpy (&fv->self_n[s][row], run->self_n, sizeof (guint64) * run->n_idents);
          for (guint32 id = 1; id < run->n_paths; id++)
            {
              const PathNode *node = &g_array_index (self->nodes, PathNode, id);

              if (node->first)
                {
                  fv->total_w[s][row + node->ident] += run->total_w[id];
                  fv->total_n[s][row + node->ident] += run->total_n[id];
                }
            }
          for (guint32 g = 1; g < fv->n_idents; g++)
            fv->present[s][g] += fv->total_w[s][row + g];
        }
    }
}

static void
function_values_clear (FunctionValues *fv)
{
  for (guint s = 0; s < 2; s++)
    {
      g_free (fv->self_w[s]);
      g_free (fv->total_w[s]);
      g_free (fv->self_n[s]);
      g_free (fv->total_n[s]);
      g_free (fv->present[s]);
    }
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double da = *(const double *) a, db = *(const double *) b;

  return da < db ? -1 : da > db;
}

static double
median (double *x,
        guint   n)
{
  qsort (x, n, sizeof (double), compare_doubles);
  return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* The speed of each run. On a busy machine most of the run-to-run noise
 * is the whole program running faster or slower (frequency, a neighbour
 * on the other hyperthread), every function together: measured on
 * tests/workloads/ab.c on two loaded cores, 3-7 % per function run to
 * run, but 0.4-2 % for its share of the run; and the runs of one side
 * can all be a few percent slower than the other's. Each run's factor is
 * the median, over the reference functions, of its cost relative to their
 * geometric mean over all runs of both sides (the median-of-ratios of
 * DESeq, Anders & Huber 2010), and the runs' costs are divided by it: a
 * function is then compared at the speed of the whole program, and a
 * change of that speed (the machine's, or a change of the code that
 * slows every function alike) shows in the whole program's unscaled cost
 * instead (hp_comparison_get_program()).
 *
 * The reference functions are those with at least the floor's share of
 * self cost in every run. Each of them (and a path ending in it) is
 * scaled by the median of the others only, so that its own change cannot
 * pull its scale and shrink itself; a changed function among the others
 * is one outlier of a median. Fewer than three references, or one run on
 * a side, or noise that is not common to the functions (below): no
 * scaling. */
static void use_speed_of (HpComparison *self, guint32 ident);
static void speed_from (HpComparison *self, gint skip, GHashTable *exclude, double *out);

/* The speeds from the reference functions not in @exclude, and each
 * reference function's from the others. */
static void
compute_speeds_without (HpComparison *self,
                        GHashTable   *exclude)
{
  guint n_runs = self->sides[0].runs->len + self->sides[1].runs->len;

  speed_from (self, -1, exclude, self->all_speed);
  for (guint f = 0; f < self->refs->len; f++)
    speed_from (self, f, exclude, &self->ref_speed[(gsize) f * n_runs]);
}

static void
speed_from (HpComparison *self,
            gint          skip,
            GHashTable   *exclude,
            double       *out)
{
  guint n_runs = self->sides[0].runs->len + self->sides[1].runs->len;
  g_autofree double *column = g_new (double, MAX (self->refs->len, 1));
  double mean_log = 0;

  for (guint k = 0; k < n_runs; k++)
    {
      guint n = 0;

      for (guint f = 0; f < self->refs->len; f++)
        if ((gint) f != skip &&
            (exclude == NULL || !g_hash_table_contains (exclude, GUINT_TO_POINTER (g_array_index (self->refs, guint32, f)))))
          column[n++] = self->ref_logs[(gsize) f * n_runs + k];
      out[k] = n > 0 ? median (column, n) : 0;
      mean_log += out[k];
    }
  /* around 1 over all runs, so that scaled costs stay near the measured */
  mean_log /= n_runs;
  for (guint k = 0; k < n_runs; k++)
    out[k] = exp (out[k] - mean_log);
}

static void
compute_speed (HpComparison         *self,
               const FunctionValues *fv)
{
  guint n_runs = self->sides[0].runs->len + self->sides[1].runs->len;

  self->refs = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->ref_of_ident = g_new (gint, fv->n_idents);
  for (guint g = 0; g < fv->n_idents; g++)
    self->ref_of_ident[g] = -1;
  self->all_speed = g_new (double, n_runs);
  for (guint k = 0; k < n_runs; k++)
    self->all_speed[k] = 1.0;
  use_speed_of (self, 0);

  if (self->method != HP_COMPARE_METHOD_WELCH)
    return;
  for (guint32 g = 1; g < fv->n_idents; g++)
    {
      gboolean ok = TRUE;

      for (guint s = 0; s < 2 && ok; s++)
        for (guint r = 0; r < self->sides[s].runs->len && ok; r++)
          {
            const Run *run = g_ptr_array_index (self->sides[s].runs, r);
            double x = fv->self_w[s][(gsize) r * fv->n_idents + g];

            ok = x > 0 && x >= self->options.floor_percent / 100 * run->cost;
          }
      if (ok)
        g_array_append_val (self->refs, g);
    }
  if (self->refs->len < MIN_REFS)
    {
      g_array_set_size (self->refs, 0);
      return;
    }

  self->ref_logs = g_new (double, (gsize) self->refs->len * n_runs);
  for (guint f = 0; f < self->refs->len; f++)
    {
      guint32 g = g_array_index (self->refs, guint32, f);
      double *row = &self->ref_logs[(gsize) f * n_runs];
      double mean = 0;
      guint k = 0;

      for (guint s = 0; s < 2; s++)
        for (guint r = 0; r < self->sides[s].runs->len; r++, k++)
          {
            row[k] = log (fv->self_w[s][(gsize) r * fv->n_idents + g]);
            mean += row[k];
          }
      mean /= n_runs;
      for (k = 0; k < n_runs; k++)
        row[k] -= mean;
    }

  self->ref_speed = g_new (double, (gsize) self->refs->len * n_runs);
  for (guint f = 0; f < self->refs->len; f++)
    self->ref_of_ident[g_array_index (self->refs, guint32, f)] = f;
  compute_speeds_without (self, NULL);

  /* Scaling helps where the noise is common to the functions; where it
   * is not (each function's own sampling error dominates), dividing by
   * the others' noise only adds it. Decided once for the comparison, on
   * the reference functions' within-side variance of log cost summed,
   * not function by function (which would pick the smaller of two noisy
   * variances each time). */
  {
    double raw = 0, scaled = 0;

    for (guint f = 0; f < self->refs->len; f++)
      {
        const double *row = &self->ref_logs[(gsize) f * n_runs];
        const double *speed = &self->ref_speed[(gsize) f * n_runs];
        guint k = 0;

        for (guint s = 0; s < 2; s++)
          {
            guint n = self->sides[s].runs->len;
            g_autofree double *a = g_new (double, n);
            g_autofree double *b = g_new (double, n);
            double mean, var;

            for (guint r = 0; r < n; r++, k++)
              {
                a[r] = row[k];
                b[r] = row[k] - log (speed[k]);
              }
            hp_stats_mean_var (a, n, &mean, &var);
            raw += var * (n - 1);
            hp_stats_mean_var (b, n, &mean, &var);
            scaled += var * (n - 1);
          }
      }
    if (!(scaled < raw))
      {
        for (guint g = 0; g < fv->n_idents; g++)
          self->ref_of_ident[g] = -1;
        for (guint k = 0; k < n_runs; k++)
          self->all_speed[k] = 1.0;
        g_array_set_size (self->refs, 0);
      }
  }
}

/* What compute_stat() divides the runs by, for a quantity of function
 * @ident (0: none in particular). */
static void
use_speed_of (HpComparison *self,
              guint32       ident)
{
  guint n_runs = self->sides[0].runs->len + self->sides[1].runs->len;
  gint f = ident > 0 && self->ref_of_ident != NULL ? self->ref_of_ident[ident] : -1;
  double *speed = f >= 0 ? &self->ref_speed[(gsize) f * n_runs] : self->all_speed;

  self->cur_speed[0] = speed;
  self->cur_speed[1] = speed + self->sides[0].runs->len;
}

static double summary_mde (HpComparison *self, GArray *functions);

static void
compute_functions (HpComparison         *self,
                   const FunctionValues *fv)
{
  g_autoptr(GArray) functions = g_array_new (FALSE, TRUE, sizeof (HpCompareFunction));
  g_autofree HpCompareStat **self_stats = NULL;
  g_autofree HpCompareStat **total_stats = NULL;
  Values v;

  values_init (self, &v);
  for (guint32 g = 1; g < fv->n_idents; g++)
    {
      HpCompareFunction fn = { 0 };

      if (fv->present[0][g] <= 0 && fv->present[1][g] <= 0)
        continue;
      fn.name = ident_name (self, g);
      fn.module = g_ptr_array_index (self->ident_modules, g);
      fn.ident = g;
      use_speed_of (self, g);
      for (guint s = 0; s < 2; s++)
        for (guint r = 0; r < v.n[s]; r++)
          {
            v.x[s][r] = fv->self_w[s][(gsize) r * fv->n_idents + g];
            v.k[s][r] = fv->self_n[s][(gsize) r * fv->n_idents + g];
          }
      compute_stat (self, &v, &fn.self);
      for (guint s = 0; s < 2; s++)
        for (guint r = 0; r < v.n[s]; r++)
          {
            v.x[s][r] = fv->total_w[s][(gsize) r * fv->n_idents + g];
            v.k[s][r] = fv->total_n[s][(gsize) r * fv->n_idents + g];
          }
      compute_stat (self, &v, &fn.total);
      g_array_append_val (functions, fn);
    }
  use_speed_of (self, 0);
  values_clear (&v);

  self_stats = g_new (HpCompareStat *, MAX (functions->len, 1));
  total_stats = g_new (HpCompareStat *, MAX (functions->len, 1));
  for (guint i = 0; i < functions->len; i++)
    {
      self_stats[i] = &g_array_index (functions, HpCompareFunction, i).self;
      total_stats[i] = &g_array_index (functions, HpCompareFunction, i).total;
    }
  /* the margin of "unchanged" for every verdict from here on */
  self->mde = summary_mde (self, functions);
  adjust_and_judge (self, self_stats, functions->len);
  adjust_and_judge (self, total_stats, functions->len);

  g_array_sort (functions, compare_functions_self);
  g_clear_pointer (&self->functions, g_array_unref);
  self->functions = g_steal_pointer (&functions);
  g_clear_pointer (&self->by_total, g_array_unref);
  self->by_total = g_array_sized_new (FALSE, FALSE, sizeof (guint), self->functions->len);
  for (guint i = 0; i < self->functions->len; i++)
    g_array_append_val (self->by_total, i);
  g_array_sort_with_data (self->by_total, compare_functions_total, self);
}

/* Renamed functions --------------------------------------------------------- */

static int
compare_guint32 (gconstpointer a,
                 gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* All runs' cost of path @id. */
static double
path_cost_all_runs (HpComparison *self,
                    guint32       id)
{
  double cost = 0;

  for (guint s = 0; s < 2; s++)
    for (guint r = 0; r < self->sides[s].runs->len; r++)
      {
        const Run *run = g_ptr_array_index (self->sides[s].runs, r);

        if (id < run->n_paths)
          cost += run->total_w[id];
      }
  return cost;
}

/* The callers (@callers) or callees of @ident's outermost calls that
 * carry at least RENAME_NEIGHBOUR of its cost, as a sorted set of
 * identities: the root is 0 among callers, and the function itself (a
 * recursive call) G_MAXUINT32, so that a function renamed with its
 * recursion matches. The share keeps out what lands anywhere (a timer
 * interrupt's kernel frames under a hot function), which differs by run. */
static GArray *
neighbour_set (HpComparison *self,
               guint32       ident)
{
  const PathNode *nodes = (const PathNode *) (gpointer) self->nodes->data;
  g_autoptr(GHashTable) cost = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) costs = g_array_new (FALSE, FALSE, sizeof (double));
  GArray *set = g_array_new (FALSE, FALSE, sizeof (guint32));
  double total = 0;

  /* callers (keys below 2^31), then callees (with the top bit) */
  for (guint32 id = 1; id < self->nodes->len; id++)
    {
      guint32 other;
      double c;
      guint slot;

      if (nodes[id].ident == ident && nodes[id].first)
        {
          other = nodes[nodes[id].parent].ident;
          c = path_cost_all_runs (self, id);
          total += c;
        }
      else if (nodes[id].parent != ROOT && nodes[nodes[id].parent].ident == ident && nodes[nodes[id].parent].first)
        {
          other = nodes[id].ident | 0x80000000u;
          c = path_cost_all_runs (self, id);
        }
      else
        continue;
      if ((other & 0x7fffffffu) == ident)
        other |= 0x7fffffffu;
      slot = GPOINTER_TO_UINT (g_hash_table_lookup (cost, GUINT_TO_POINTER (other + 1)));
      if (slot == 0)
        {
          double zero = 0;

          g_array_append_val (keys, other);
          g_array_append_val (costs, zero);
          slot = keys->len;
          g_hash_table_insert (cost, GUINT_TO_POINTER (other + 1), GUINT_TO_POINTER (slot));
        }
      g_array_index (costs, double, slot - 1) += c;
    }
  for (guint i = 0; i < keys->len; i++)
    if (g_array_index (costs, double, i) >= RENAME_NEIGHBOUR * total)
      g_array_append_val (set, g_array_index (keys, guint32, i));
  g_array_sort (set, compare_guint32);
  return set;
}

static gboolean
is_placeholder_name (const char *name)
{
  return name[0] == '[' || g_str_has_prefix (name, "0x") || strstr (name, "+0x") != NULL;
}

static gboolean
same_set (GArray *a,
          GArray *b)
{
  return a->len == b->len && memcmp (a->data, b->data, sizeof (guint32) * a->len) == 0;
}

/* A function renamed between the builds is two identities: one only in
 * the base, one only in the new runs, each judged -100 % and "new". They
 * are paired when that is unambiguous, conservatively: each costs at
 * least the floor (total) on its side and nothing on the other, both are
 * of one module, their callers are the same functions and so are their
 * callees, those that carry 5 % of their cost (a function of none, or
 * called from the root only, is never paired: too little to tell), and
 * neither matches any other function so. Functions named by an address
 * (no symbol) are never paired.
 * A pair is then compared as one function (the base one's runs against
 * the new one's), each quantity judged among the pairs; the rows of the
 * two names stay as they are, and the front ends say which they pair. */
static void
find_renames (HpComparison         *self,
              const FunctionValues *fv)
{
  g_autoptr(GArray) removed = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) added = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autofree HpCompareStat **self_stats = NULL;
  g_autofree HpCompareStat **total_stats = NULL;
  g_autofree gint *match_of_removed = NULL;
  g_autofree guint *matches_of_added = NULL;
  Values v;

  self->renames = g_array_new (FALSE, FALSE, sizeof (HpCompareRename));
  if (self->inverted)
    return;
  for (guint i = 0; i < self->functions->len; i++)
    {
      const HpCompareFunction *fn = &g_array_index (self->functions, HpCompareFunction, i);

      /* a name that is an address ("liblzma.so.5+0x15fb0", no symbol)
       * was never renamed: another address is other code (xz -0 and -1
       * run other match finders of one liblzma, at other addresses) */
      if (is_placeholder_name (fn->name))
        continue;
      if (fn->total.new_samples == 0 && fn->total.base_samples > 0 && fn->total.base >= self->floor)
        g_array_append_val (removed, i);
      else if (fn->total.base_samples == 0 && fn->total.new_samples > 0 && fn->total.new_cost >= self->floor)
        g_array_append_val (added, i);
    }
  if (removed->len == 0 || added->len == 0)
    return;

  /* the neighbours of the removed, then of the added */
  for (guint list = 0; list < 2; list++)
    {
      GArray *which = list == 0 ? removed : added;

      for (guint i = 0; i < which->len; i++)
        {
          guint32 ident = g_array_index (self->functions, HpCompareFunction, g_array_index (which, guint, i)).ident;

          g_ptr_array_add (sets, neighbour_set (self, ident));
        }
    }
  match_of_removed = g_new (gint, removed->len);
  matches_of_added = g_new0 (guint, added->len);
  for (guint i = 0; i < removed->len; i++)
    {
      const HpCompareFunction *r = &g_array_index (self->functions, HpCompareFunction, g_array_index (removed, guint, i));
      GArray *r_set = sets->pdata[i];
      guint n = 0;

      match_of_removed[i] = -1;
      /* called from the root alone and calling nothing: nothing to go by */
      if (r_set->len == 0 || (r_set->len == 1 && g_array_index (r_set, guint32, 0) == 0))
        continue;
      for (guint j = 0; j < added->len; j++)
        {
          const HpCompareFunction *a = &g_array_index (self->functions, HpCompareFunction, g_array_index (added, guint, j));

          if (r->module != a->module || !same_set (r_set, sets->pdata[removed->len + j]))
            continue;
          match_of_removed[i] = j;
          matches_of_added[j]++;
          n++;
        }
      if (n > 1)
        match_of_removed[i] = -2;
    }

  values_init (self, &v);
  use_speed_of (self, 0);
  for (guint i = 0; i < removed->len; i++)
    {
      gint j = match_of_removed[i];
      HpCompareRename pair = { 0 };
      guint32 ident[2];

      if (j < 0 || matches_of_added[j] != 1)
        continue;
      pair.removed = g_array_index (removed, guint, i);
      pair.added = g_array_index (added, guint, j);
      ident[0] = g_array_index (self->functions, HpCompareFunction, pair.removed).ident;
      ident[1] = g_array_index (self->functions, HpCompareFunction, pair.added).ident;
      for (guint q = 0; q < 2; q++)
        {
          for (guint s = 0; s < 2; s++)
            for (guint r = 0; r < v.n[s]; r++)
              {
                gsize at = (gsize) r * fv->n_idents + ident[s];

                v.x[s][r] = q == 0 ? fv->self_w[s][at] : fv->total_w[s][at];
                v.k[s][r] = q == 0 ? fv->self_n[s][at] : fv->total_n[s][at];
              }
          compute_stat (self, &v, q == 0 ? &pair.self : &pair.total);
        }
      g_array_append_val (self->renames, pair);
    }
  values_clear (&v);

  self_stats = g_new (HpCompareStat *, MAX (self->renames->len, 1));
  total_stats = g_new (HpCompareStat *, MAX (self->renames->len, 1));
  for (guint i = 0; i < self->renames->len; i++)
    {
      self_stats[i] = &g_array_index (self->renames, HpCompareRename, i).self;
      total_stats[i] = &g_array_index (self->renames, HpCompareRename, i).total;
    }
  adjust_and_judge (self, self_stats, self->renames->len);
  adjust_and_judge (self, total_stats, self->renames->len);
}

/* The summary MDE: the median over the hot functions (or the hottest). */
static double
summary_mde (HpComparison *self,
             GArray       *functions)
{
  g_autoptr(GArray) mdes = g_array_new (FALSE, FALSE, sizeof (double));
  const HpCompareFunction *hottest = NULL;

  for (guint i = 0; i < functions->len; i++)
    {
      const HpCompareFunction *fn = &g_array_index (functions, HpCompareFunction, i);

      if (fn->self.base >= MDE_SHARE * self->sides[0].info.cost && isfinite (fn->self.mde))
        g_array_append_val (mdes, fn->self.mde);
      if (hottest == NULL || fn->self.base > hottest->self.base)
        hottest = fn;
    }
  if (mdes->len == 0 && hottest != NULL && isfinite (hottest->self.mde))
    g_array_append_val (mdes, hottest->self.mde);
  if (mdes->len == 0)
    return NAN;
  return median ((double *) (gpointer) mdes->data, mdes->len);
}

static void
compute_paths (HpComparison *self)
{
  guint n_paths = self->nodes->len;
  g_autofree HpCompareStat **family = NULL;
  Values v;

  self->paths = g_array_sized_new (FALSE, FALSE, sizeof (HpComparePath), n_paths - 1);
  self->path_stats = g_new0 (HpCompareStat, MAX (n_paths - 1, 1));
  self->path_state = g_new0 (guint8, MAX (n_paths - 1, 1));
  self->path_base = g_new0 (double, MAX (n_paths - 1, 1));
  self->path_new = g_new0 (double, MAX (n_paths - 1, 1));
  for (guint32 id = 1; id < n_paths; id++)
    {
      const PathNode *node = &g_array_index (self->nodes, PathNode, id);
      HpComparePath p;

      p.name = ident_name (self, node->ident);
      p.module = g_ptr_array_index (self->ident_modules, node->ident);
      p.depth = node->depth;
      p.parent = node->parent == ROOT ? -1 : (gint) node->parent - 1;
      g_array_append_val (self->paths, p);
    }

  /* Means for all; the statistics now for those that can reach the
   * floor, the others when asked (a big capture has hundreds of
   * thousands of paths). */
  for (guint s = 0; s < 2; s++)
    for (guint r = 0; r < self->sides[s].runs->len; r++)
      {
        const Run *run = g_ptr_array_index (self->sides[s].runs, r);
        double *sum = s == 0 ? self->path_base : self->path_new;

        for (guint32 id = 1; id < run->n_paths; id++)
          sum[id - 1] += run->total_w[id] / self->cur_speed[s][r];
      }
  self->material = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i + 1 < n_paths; i++)
    {
      self->path_base[i] /= self->sides[0].runs->len;
      self->path_new[i] /= self->sides[1].runs->len;
      if (MAX (self->path_base[i], self->path_new[i]) >= self->floor)
        g_array_append_val (self->material, i);
    }

  values_init (self, &v);
  family = g_new (HpCompareStat *, self->material->len + 2);
  for (guint m = 0; m < self->material->len; m++)
    {
      guint i = g_array_index (self->material, guint, m);

      path_values (self, i + 1, &v);
      use_speed_of (self, g_array_index (self->nodes, PathNode, i + 1).ident);
      compute_stat (self, &v, &self->path_stats[i]);
      use_speed_of (self, 0);
      self->path_state[i] = 1;
      family[m] = &self->path_stats[i];
    }
  values_clear (&v);
  /* the whole program is the cost of the roots, a path of a sort */
  family[self->material->len] = &self->program;
  family[self->material->len + 1] = &self->program_scaled;
  adjust_and_judge (self, family, self->material->len + 2);
  g_array_sort_with_data (self->material, compare_paths, self);
}

/* The whole program's cost per run, as measured (not scaled by speed):
 * a change of the whole program's speed shows here, whether the machine
 * or the code caused it. */
static void
compute_program (HpComparison *self)
{
  Values v;
  HpCompareStat *stat = &self->program;

  values_init (self, &v);
  for (guint s = 0; s < 2; s++)
    for (guint r = 0; r < v.n[s]; r++)
      {
        const Run *run = g_ptr_array_index (self->sides[s].runs, r);

        v.x[s][r] = run->cost * self->cur_speed[s][r];  /* compute_stat divides by it */
        v.k[s][r] = run->samples;
      }
  compute_stat (self, &v, stat);
  /* and as the rows are measured, scaled by the runs' speed */
  for (guint s = 0; s < 2; s++)
    for (guint r = 0; r < v.n[s]; r++)
      v.x[s][r] = ((const Run *) g_ptr_array_index (self->sides[s].runs, r))->cost;
  compute_stat (self, &v, &self->program_scaled);
  values_clear (&v);
  /* judged with the call paths (compute_paths()), whose roots are the
   * same cost: one family, one test */
}

gboolean
hp_comparison_run (HpComparison           *self,
                   const HpCompareOptions *options,
                   GError                **error)
{
  static const HpCompareOptions defaults = HP_COMPARE_OPTIONS_DEFAULT;
  FunctionValues fv;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (!self->done, FALSE);

  self->options = options != NULL ? *options : defaults;
  if (!load_pending (self, error))
    return FALSE;
  for (guint s = 0; s < 2; s++)
    if (self->sides[s].runs->len == 0)
      {
        g_set_error (error, HP_COMPARE_ERROR, HP_COMPARE_ERROR_NO_CAPTURES,
                     _("the %s side has no capture"), s == 0 ? "base" : "new");
        return FALSE;
      }
  if (!check_events (self, error))
    return FALSE;
  /* each capture's samples add up to 2^62 at most (the reader checks), but
   * a folder holds any number of them: five such wrapped the sum */
  for (guint s = 0; s < 2; s++)
    {
      guint64 n_samples = 0;

      for (guint r = 0; r < self->sides[s].runs->len; r++)
        {
          const Run *run = g_ptr_array_index (self->sides[s].runs, r);

          if (run->samples > HP_CAPTURE_MAX_TOTAL - n_samples)
            {
              g_set_error (error, HP_COMPARE_ERROR, HP_COMPARE_ERROR_TOO_MANY_SAMPLES,
                           _("%s: the samples of the %s side's captures up to this one add up to "
                             "more than 2^62"), run->name, s == 0 ? "base" : "new");
              return FALSE;
            }
          n_samples += run->samples;
        }
    }

  self->done = TRUE;
  if (self->sides[0].runs->len > 1 && self->sides[1].runs->len > 1)
    self->method = HP_COMPARE_METHOD_WELCH;
  else if (self->sides[0].runs->len > 1 || self->sides[1].runs->len > 1)
    self->method = HP_COMPARE_METHOD_ONE_RUN;
  else
    self->method = HP_COMPARE_METHOD_COUNTS;

  for (guint s = 0; s < 2; s++)
    {
      Side *side = &self->sides[s];
      const Run *first = g_ptr_array_index (side->runs, 0);
      double cost = 0;

      side->info.n_captures = side->runs->len;
      side->info.n_samples = 0;
      for (guint r = 0; r < side->runs->len; r++)
        {
          const Run *run = g_ptr_array_index (side->runs, r);

          side->info.n_samples += run->samples;
          cost += run->cost;
        }
      side->info.cost = cost / side->runs->len;
      side->info.event = first->event;
      side->info.unit = first->unit;
      side->info.command = first->command;
      side->info.first_file = first->name;
    }
  self->floor = self->options.floor_percent / 100 *
                (self->sides[0].info.cost + self->sides[1].info.cost) / 2;

  mark_recursion (self);
  function_values_init (self, &fv);

  /* how much of each side is in functions the other side has too */
  for (guint s = 0; s < 2; s++)
    {
      double matched = 0, all = 0;

      for (guint r = 0; r < self->sides[s].runs->len; r++)
        for (guint32 g = 1; g < fv.n_idents; g++)
          {
            double x = fv.self_w[s][(gsize) r * fv.n_idents + g];

            all += x;
            if (fv.present[1 - s][g] > 0)
              matched += x;
          }
      self->sides[s].info.matched = all > 0 ? matched / all : 0;
    }

  /* Judge the functions; then once more with the speeds taken from the
   * functions that were not judged changed: a changed function is an
   * outlier in the median of a few, which it still pulls a little. */
  compute_speed (self, &fv);
  compute_functions (self, &fv);
  if (self->refs->len > 0)
    {
      g_autoptr(GHashTable) changed = g_hash_table_new (NULL, NULL);
      guint n_changed = 0;

      for (guint i = 0; i < self->functions->len; i++)
        {
          const HpCompareFunction *fn = &g_array_index (self->functions, HpCompareFunction, i);

          if ((fn->self.verdict == HP_VERDICT_SLOWER || fn->self.verdict == HP_VERDICT_FASTER) &&
              self->ref_of_ident[fn->ident] >= 0)
            {
              g_hash_table_add (changed, GUINT_TO_POINTER (fn->ident));
              n_changed++;
            }
        }
      /* every function keeps at least two others to scale by */
      if (n_changed > 0 && self->refs->len - n_changed >= 3)
        {
          compute_speeds_without (self, changed);
          compute_functions (self, &fv);
        }
    }
  find_renames (self, &fv);
  function_values_clear (&fv);

  compute_program (self);
  compute_paths (self);

  self->warnings = g_ptr_array_new_with_free_func (g_free);
  if (MIN (self->sides[0].info.matched, self->sides[1].info.matched) < MATCHED_WARNING)
    g_ptr_array_add (self->warnings,
                     g_strdup_printf (_("the two sides have little in common: %.0f %% of the base's cost and "
                                        "%.0f %% of the new's are in functions found on both sides; "
                                        "are they captures of the same program?"),
                                      100 * self->sides[0].info.matched, 100 * self->sides[1].info.matched));
  if (self->renamed->len > 0)
    {
      g_autofree char *others = NULL;

      g_ptr_array_add (self->renamed, NULL);
      others = g_strjoinv (", ", (char **) self->renamed->pdata);
      g_ptr_array_set_size (self->renamed, self->renamed->len - 1);
      g_ptr_array_add (self->warnings,
                       g_strdup_printf (_("the runs executed programs of different names, %s and %s, "
                                          "with the same functions: they are matched as one program, "
                                          "named %s here"), self->program_name, others, self->program_name));
    }
  g_ptr_array_add (self->warnings, NULL);
  if (self->bottom_up != NULL && !hp_comparison_run (self->bottom_up, &self->options, error))
    return FALSE;
  return TRUE;
}

/* Results ------------------------------------------------------------------- */

/**
 * hp_comparison_get_renames:
 *
 * The functions found only in the base paired with one found only in the
 * new runs as one renamed (or replaced) function: same module, same
 * callers and callees, each over the floor, unambiguous (find_renames()).
 *
 * Returns: (transfer none): HpCompareRename, ordered as the functions
 */
GArray *
hp_comparison_get_renames (HpComparison *self)
{
  g_return_val_if_fail (self != NULL && self->done, NULL);

  return self->renames;
}

HpCompareMethod
hp_comparison_get_method (HpComparison *self)
{
  g_return_val_if_fail (self != NULL && self->done, HP_COMPARE_METHOD_COUNTS);

  return self->method;
}

const HpCompareSideInfo *
hp_comparison_get_side (HpComparison  *self,
                        HpCompareSide  side)
{
  g_return_val_if_fail (self != NULL && self->done, NULL);
  g_return_val_if_fail (side == HP_COMPARE_BASE || side == HP_COMPARE_NEW, NULL);

  return &self->sides[side].info;
}

double
hp_comparison_get_floor (HpComparison *self)
{
  g_return_val_if_fail (self != NULL && self->done, NAN);

  return self->floor;
}

const HpCompareStat *
hp_comparison_get_program (HpComparison *self)
{
  g_return_val_if_fail (self != NULL && self->done, NULL);

  return &self->program;
}

const HpCompareStat *
hp_comparison_get_program_scaled (HpComparison *self)
{
  g_return_val_if_fail (self != NULL && self->done, NULL);

  return self->refs->len > 0 ? &self->program_scaled : NULL;
}

guint
hp_comparison_get_n_reference (HpComparison *self)
{
  g_return_val_if_fail (self != NULL && self->done, 0);

  return self->refs->len;
}

double
hp_comparison_get_mde (HpComparison *self)
{
  g_return_val_if_fail (self != NULL && self->done, NAN);

  return self->mde;
}

const char * const *
hp_comparison_get_warnings (HpComparison *self)
{
  g_return_val_if_fail (self != NULL && self->done, NULL);

  return (const char * const *) self->warnings->pdata;
}

guint
hp_comparison_get_n_functions (HpComparison *self)
{
  g_return_val_if_fail (self != NULL && self->done, 0);

  return self->functions->len;
}

const HpCompareFunction *
hp_comparison_get_function (HpComparison *self,
                            guint         i)
{
  g_return_val_if_fail (self != NULL && self->done, NULL);
  g_return_val_if_fail (i < self->functions->len, NULL);

  return &g_array_index (self->functions, HpCompareFunction, i);
}

const guint *
hp_comparison_get_functions_by_total (HpComparison *self)
{
  g_return_val_if_fail (self != NULL && self->done, NULL);

  return (const guint *) (gpointer) self->by_total->data;
}

guint
hp_comparison_get_n_paths (HpComparison *self)
{
  g_return_val_if_fail (self != NULL && self->done, 0);

  return self->paths->len;
}

const HpComparePath *
hp_comparison_get_path (HpComparison *self,
                        guint         i)
{
  g_return_val_if_fail (self != NULL && self->done, NULL);
  g_return_val_if_fail (i < self->paths->len, NULL);

  return &g_array_index (self->paths, HpComparePath, i);
}

const HpCompareStat *
hp_comparison_get_path_stat (HpComparison *self,
                             guint         i)
{
  g_return_val_if_fail (self != NULL && self->done, NULL);
  g_return_val_if_fail (i < self->paths->len, NULL);

  if (self->path_state[i] == 0)
    {
      Values v;

      values_init (self, &v);
      path_values (self, i + 1, &v);
      use_speed_of (self, g_array_index (self->nodes, PathNode, i + 1).ident);
      compute_stat (self, &v, &self->path_stats[i]);
      use_speed_of (self, 0);
      values_clear (&v);
      /* out of the family: it cannot reach the floor, so cannot be flagged */
      self->path_stats[i].verdict = judge (self, &self->path_stats[i]);
      self->path_state[i] = 1;
    }
  return &self->path_stats[i];
}

/* Flagged first, then by cost: the window opens the tree on the top
 * children, and a slower function under a bigger unchanged sibling was
 * below the fold, behind that sibling's children. */
static int
compare_children (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  HpComparison *self = user_data;
  guint ia = *(const guint *) a, ib = *(const guint *) b;
  /* a path that is not material has no statistics yet, and is never flagged */
  gboolean fa = self->path_state[ia] && is_flagged (&self->path_stats[ia]);
  gboolean fb = self->path_state[ib] && is_flagged (&self->path_stats[ib]);
  double ca = MAX (self->path_base[ia], self->path_new[ia]);
  double cb = MAX (self->path_base[ib], self->path_new[ib]);

  if (fa != fb)
    return fa ? -1 : 1;
  if (ca != cb)
    return ca > cb ? -1 : 1;
  return ia < ib ? -1 : ia > ib;
}

GArray *
hp_comparison_get_path_children (HpComparison *self,
                                 gint          i)
{
  GArray *children;

  g_return_val_if_fail (self != NULL && self->done, NULL);
  g_return_val_if_fail (i >= -1 && i < (gint) self->paths->len, NULL);

  children = g_array_new (FALSE, FALSE, sizeof (guint));
  /* a child comes after its parent: scan from there */
  for (guint c = (guint) (i + 1); c < self->paths->len; c++)
    if (g_array_index (self->paths, HpComparePath, c).parent == i)
      g_array_append_val (children, c);
  g_array_sort_with_data (children, compare_children, self);
  return children;
}

GArray *
hp_comparison_get_material_paths (HpComparison *self)
{
  g_return_val_if_fail (self != NULL && self->done, NULL);

  return g_array_ref (self->material);
}

static GPtrArray *
path_steps (HpComparison *self,
            guint         i)
{
  GPtrArray *steps = g_ptr_array_new ();

  for (gint p = (gint) i; p >= 0; p = g_array_index (self->paths, HpComparePath, p).parent)
    g_ptr_array_insert (steps, 0, &g_array_index (self->paths, HpComparePath, p));
  return steps;
}

char *
hp_comparison_get_path_key (HpComparison *self,
                            guint         i)
{
  g_autoptr(GPtrArray) steps = NULL;
  GString *key = g_string_new (NULL);

  g_return_val_if_fail (self != NULL && self->done, NULL);
  g_return_val_if_fail (i < self->paths->len, NULL);

  steps = path_steps (self, i);
  for (guint s = 0; s < steps->len; s++)
    {
      const HpComparePath *p = steps->pdata[s];

      g_string_append_printf (key, "%s\t%s\n", p->module, p->name);
    }
  return g_string_free (key, FALSE);
}

/**
 * hp_comparison_match_path_key:
 *
 * @key, a path key of one of the compared captures (a summary's), as the
 * comparison's paths are keyed: the module of a program matched to the
 * first run's under another name (app-new for app-old) goes by that name.
 */
char *
hp_comparison_match_path_key (HpComparison *self,
                              const char   *key)
{
  g_auto(GStrv) steps = NULL;
  GString *out;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  if (self->renamed->len == 0)
    return g_strdup (key);
  out = g_string_new (NULL);
  steps = g_strsplit (key, "\n", -1);
  for (guint s = 0; steps[s] != NULL; s++)
    {
      const char *tab = strchr (steps[s], '\t');
      g_autofree char *module = tab ? g_strndup (steps[s], tab - steps[s]) : NULL;

      if (s > 0)
        g_string_append_c (out, '\n');
      if (module != NULL && GPOINTER_TO_INT (g_hash_table_lookup (self->program_names, module)) > 0)
        g_string_append_printf (out, "%s%s", self->program_name, tab);
      else
        g_string_append (out, steps[s]);
    }
  return g_string_free (out, FALSE);
}

char *
hp_comparison_get_path_readable (HpComparison *self,
                                 guint         i)
{
  g_autoptr(GPtrArray) steps = NULL;
  GString *readable = g_string_new (NULL);

  g_return_val_if_fail (self != NULL && self->done, NULL);
  g_return_val_if_fail (i < self->paths->len, NULL);

  steps = path_steps (self, i);
  for (guint s = 0; s < steps->len; s++)
    {
      const HpComparePath *p = steps->pdata[s];

      if (s > 0)
        g_string_append (readable, self->inverted ? " ← " : " → ");
      g_string_append (readable, p->name);
    }
  return g_string_free (readable, FALSE);
}

/* Callers, callees and source lines ------------------------------------------ */

gint
hp_comparison_find_function (HpComparison *self,
                             const char   *module,
                             const char   *name)
{
  g_autofree char *folded = NULL;
  g_autofree char *key = NULL;
  gpointer ident;

  g_return_val_if_fail (self != NULL && self->done, -1);
  g_return_val_if_fail (module != NULL && name != NULL, -1);

  folded = hp_compare_fold_clone_name (name);
  key = g_strconcat (module, "\t", folded, NULL);
  if (!g_hash_table_lookup_extended (self->ident_index, key, NULL, &ident))
    return -1;
  for (guint i = 0; i < self->functions->len; i++)
    if (g_array_index (self->functions, HpCompareFunction, i).ident == GPOINTER_TO_UINT (ident))
      return i;
  return -1;
}

/* Per-run values of many quantities at once: [side][key * n_runs + run]. */
typedef struct {
  GHashTable *index;   /* key -> GUINT_TO_POINTER (slot + 1) */
  GArray     *keys;    /* guint32, by slot */
  GArray     *x[2][2]; /* double: [side][0 self, 1 total] */
  GArray     *k[2][2]; /* guint64 */
} Table;

static void
table_init (Table *t)
{
  t->index = g_hash_table_new (NULL, NULL);
  t->keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint s = 0; s < 2; s++)
    for (guint q = 0; q < 2; q++)
      {
        t->x[s][q] = g_array_new (FALSE, TRUE, sizeof (double));
        t->k[s][q] = g_array_new (FALSE, TRUE, sizeof (guint64));
      }
}

static void
table_clear (Table *t)
{
  g_hash_table_unref (t->index);
  g_array_unref (t->keys);
  for (guint s = 0; s < 2; s++)
    for (guint q = 0; q < 2; q++)
      {
        g_array_unref (t->x[s][q]);
        g_array_unref (t->k[s][q]);
      }
}

static void
table_add (HpComparison *self,
           Table        *t,
           guint32       key,
           guint         side,
           guint         run,
           guint         quantity,
           double        x,
           guint64       k)
{
  guint slot = GPOINTER_TO_UINT (g_hash_table_lookup (t->index, GUINT_TO_POINTER (key)));

  if (slot == 0)
    {
      g_array_append_val (t->keys, key);
      slot = t->keys->len;
      g_hash_table_insert (t->index, GUINT_TO_POINTER (key), GUINT_TO_POINTER (slot));
      for (guint s = 0; s < 2; s++)
        for (guint q = 0; q < 2; q++)
          {
            g_array_set_size (t->x[s][q], slot * self->sides[s].runs->len);
            g_array_set_size (t->k[s][q], slot * self->sides[s].runs->len);
          }
    }
  slot--;
  g_array_index (t->x[side][quantity], double, slot * self->sides[side].runs->len + run) += x;
  g_array_index (t->k[side][quantity], guint64, slot * self->sides[side].runs->len + run) += k;
}

/* The statistics of quantity @q of every key, judged as one family. */
static HpCompareStat *
table_stats (HpComparison *self,
             Table        *t,
             guint         q,
             guint32       ident)
{
  HpCompareStat *stats = g_new0 (HpCompareStat, MAX (t->keys->len, 1));
  g_autofree HpCompareStat **family = g_new (HpCompareStat *, MAX (t->keys->len, 1));
  Values v;

  use_speed_of (self, ident);
  for (guint i = 0; i < t->keys->len; i++)
    {
      for (guint s = 0; s < 2; s++)
        {
          guint n = self->sides[s].runs->len;

          v.n[s] = n;
          v.x[s] = &g_array_index (t->x[s][q], double, (gsize) i * n);
          v.k[s] = &g_array_index (t->k[s][q], guint64, (gsize) i * n);
        }
      compute_stat (self, &v, &stats[i]);
      family[i] = &stats[i];
    }
  use_speed_of (self, 0);
  adjust_and_judge (self, family, t->keys->len);
  return stats;
}

static int
compare_neighbours (gconstpointer a,
                    gconstpointer b)
{
  const HpCompareNeighbour *na = a, *nb = b;

  return compare_stats (&na->stat, &nb->stat);
}

/* The cost of the calls from (@callers) or to the function: over the
 * paths of its outermost calls, their parents' functions, or over the
 * children of those paths, theirs. */
static GArray *
get_neighbours (HpComparison *self,
                guint         function,
                gboolean      callers)
{
  guint32 ident;
  const PathNode *nodes;
  g_autofree HpCompareStat *stats = NULL;
  GArray *result = g_array_new (FALSE, FALSE, sizeof (HpCompareNeighbour));
  /* per table slot: the one path id it adds up, or NONE for several */
  g_autoptr(GArray) path_of = g_array_new (FALSE, TRUE, sizeof (guint32));
  Table t;

  g_return_val_if_fail (self != NULL && self->done, result);
  g_return_val_if_fail (function < self->functions->len, result);

  ident = g_array_index (self->functions, HpCompareFunction, function).ident;
  nodes = (const PathNode *) (gpointer) self->nodes->data;
  table_init (&t);
  for (guint32 id = 1; id < self->nodes->len; id++)
    {
      guint32 other;
      guint slot;

      if (callers)
        {
          if (nodes[id].ident != ident || !nodes[id].first || nodes[id].parent == ROOT)
            continue;
          other = nodes[nodes[id].parent].ident;
        }
      else
        {
          guint32 parent = nodes[id].parent;

          if (parent == ROOT || nodes[parent].ident != ident || !nodes[parent].first)
            continue;
          other = nodes[id].ident;
        }
      for (guint s = 0; s < 2; s++)
        for (guint r = 0; r < self->sides[s].runs->len; r++)
          {
            const Run *run = g_ptr_array_index (self->sides[s].runs, r);

            if (id < run->n_paths)
              table_add (self, &t, other, s, r, 0, run->total_w[id], run->total_n[id]);
          }
      /* which paths each neighbour adds up */
      slot = GPOINTER_TO_UINT (g_hash_table_lookup (t.index, GUINT_TO_POINTER (other)));
      if (slot > 0)
        {
          if (slot > path_of->len)
            g_array_set_size (path_of, slot);
          if (g_array_index (path_of, guint32, slot - 1) == 0)
            g_array_index (path_of, guint32, slot - 1) = id;
          else if (g_array_index (path_of, guint32, slot - 1) != id)
            g_array_index (path_of, guint32, slot - 1) = NONE;
        }
    }

  stats = table_stats (self, &t, 0, ident);
  for (guint i = 0; i < t.keys->len; i++)
    {
      guint32 other = g_array_index (t.keys, guint32, i);
      guint32 id = i < path_of->len ? g_array_index (path_of, guint32, i) : 0;
      HpCompareNeighbour nb;

      nb.name = ident_name (self, other);
      nb.module = g_ptr_array_index (self->ident_modules, other);
      /* The calls on one path are that path's total, a row of the tree:
       * the same figure gets the tree's statistics and verdict (its speed
       * scaling, its family), never a second opinion. Only a sum of
       * several paths, which no row shows, is judged among the
       * neighbours. */
      if (id != 0 && id != NONE)
        {
          nb.stat = *hp_comparison_get_path_stat (self, id - 1);
          nb.path = (gint) id - 1;
        }
      else
        {
          nb.stat = stats[i];
          nb.path = -1;
        }
      g_array_append_val (result, nb);
    }
  table_clear (&t);
  g_array_sort (result, compare_neighbours);
  return result;
}

/**
 * hp_comparison_get_callers:
 * @function: an index of hp_comparison_get_function()
 *
 * The functions that call @function, each with the cost of those calls
 * (@function's total under it), as HpCompareNeighbour, judged as one
 * family and ordered as the functions are (flagged first). The inverted
 * comparison of hp_comparison_get_bottom_up() has none: ask the top-down
 * one.
 */
GArray *
hp_comparison_get_callers (HpComparison *self,
                           guint         function)
{
  if (self != NULL && self->inverted)
    return g_array_new (FALSE, FALSE, sizeof (HpCompareNeighbour));
  return get_neighbours (self, function, TRUE);
}

/**
 * hp_comparison_get_callees:
 *
 * The functions @function calls, with the cost of those calls (their
 * total under it), as hp_comparison_get_callers().
 */
GArray *
hp_comparison_get_callees (HpComparison *self,
                           guint         function)
{
  if (self != NULL && self->inverted)
    return g_array_new (FALSE, FALSE, sizeof (HpCompareNeighbour));
  return get_neighbours (self, function, FALSE);
}

/* Buckets every run's LineCosts by the function of their path, once. */
static void
index_lines (HpComparison *self)
{
  guint n_idents = self->ident_keys->len;
  const PathNode *nodes = (const PathNode *) (gpointer) self->nodes->data;
  g_autofree guint32 *fill = NULL;
  guint k = 0;

  if (self->line_start != NULL)
    return;
  self->line_start = g_new0 (guint32, n_idents + 1);
  for (guint s = 0; s < 2; s++)
    for (guint r = 0; r < self->sides[s].runs->len; r++)
      {
        const Run *run = g_ptr_array_index (self->sides[s].runs, r);

        for (guint i = 0; run->lines != NULL && i < run->lines->len; i++)
          self->line_start[nodes[g_array_index (run->lines, LineCost, i).path].ident + 1]++;
      }
  for (guint g = 0; g < n_idents; g++)
    self->line_start[g + 1] += self->line_start[g];
  self->line_refs = g_new (guint64, MAX (self->line_start[n_idents], 1));
  fill = g_memdup2 (self->line_start, sizeof (guint32) * (n_idents + 1));
  for (guint s = 0; s < 2; s++)
    for (guint r = 0; r < self->sides[s].runs->len; r++, k++)
      {
        const Run *run = g_ptr_array_index (self->sides[s].runs, r);

        for (guint i = 0; run->lines != NULL && i < run->lines->len; i++)
          {
            guint32 g = nodes[g_array_index (run->lines, LineCost, i).path].ident;

            self->line_refs[fill[g]++] = (guint64) k << 32 | i;
          }
      }
}

/* Aligning two versions of a source file ----------------------------------- */

/* Above this many lines a side, files are not aligned (by number instead):
 * the alignment is near linear, but a file this long is generated. */
#define MAX_ALIGNED_LINES 200000

typedef struct {
  guint n[2];      /* occurrences in the range, base and new */
  guint at[2];     /* the last one's index */
} Occurrence;

typedef struct {
  guint a0, a1, b0, b1;
} Range;

/* Patience diff: lines that occur once in each range anchor the alignment
 * (the longest run of them in the same order on both sides), the ranges
 * between anchors are aligned the same way, and equal lines next to a
 * match extend it. An edit of a line leaves it unmatched (a line of each
 * side), an inserted line is on one side only. map[i] is the new line of
 * base line i + 1, 0 when it has none. */
static void
align_texts (const char * const *a,
             guint               na,
             const char * const *b,
             guint               nb,
             guint32            *map)
{
  g_autoptr(GArray) todo = g_array_new (FALSE, FALSE, sizeof (Range));
  Range all = { 0, na, 0, nb };

  g_array_append_val (todo, all);
  while (todo->len > 0)
    {
      Range r = g_array_index (todo, Range, todo->len - 1);
      g_autoptr(GHashTable) seen = NULL;
      g_autoptr(GArray) anchors = NULL;
      g_autofree guint *tails = NULL;
      g_autofree guint *prev = NULL;
      guint n_tails = 0, k, prev_a, prev_b;

      g_array_set_size (todo, todo->len - 1);
      while (r.a0 < r.a1 && r.b0 < r.b1 && strcmp (a[r.a0], b[r.b0]) == 0)
        map[r.a0++] = ++r.b0;
      while (r.a0 < r.a1 && r.b0 < r.b1 && strcmp (a[r.a1 - 1], b[r.b1 - 1]) == 0)
        map[--r.a1] = r.b1--;
      if (r.a0 >= r.a1 || r.b0 >= r.b1)
        continue;

      seen = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
      for (guint side = 0; side < 2; side++)
        for (guint i = side == 0 ? r.a0 : r.b0; i < (side == 0 ? r.a1 : r.b1); i++)
          {
            const char *line = side == 0 ? a[i] : b[i];
            Occurrence *o = g_hash_table_lookup (seen, line);

            if (o == NULL)
              g_hash_table_insert (seen, (gpointer) line, o = g_new0 (Occurrence, 1));
            o->n[side]++;
            o->at[side] = i;
          }
      /* the unique pairs in base order, then the longest increasing run of
       * their new lines (patience sorting) */
      anchors = g_array_new (FALSE, FALSE, sizeof (guint) * 2);
      for (guint i = r.a0; i < r.a1; i++)
        {
          Occurrence *o = g_hash_table_lookup (seen, a[i]);

          if (o->n[0] == 1 && o->n[1] == 1)
            {
              guint pair[2] = { i, o->at[1] };

              g_array_append_val (anchors, pair);
            }
        }
      if (anchors->len == 0)
        continue;
      tails = g_new (guint, anchors->len);
      prev = g_new (guint, anchors->len);
      for (guint i = 0; i < anchors->len; i++)
        {
          guint j = ((guint *) anchors->data)[2 * i + 1];
          guint lo = 0, hi = n_tails;

          while (lo < hi)
            {
              guint mid = (lo + hi) / 2;

              if (((guint *) anchors->data)[2 * tails[mid] + 1] < j)
                lo = mid + 1;
              else
                hi = mid;
            }
          prev[i] = lo > 0 ? tails[lo - 1] : G_MAXUINT;
          tails[lo] = i;
          if (lo == n_tails)
            n_tails++;
        }
      /* the chain, from its end; each gap between anchors is a range */
      prev_a = r.a1;
      prev_b = r.b1;
      for (k = tails[n_tails - 1]; ; k = prev[k])
        {
          guint ia = ((guint *) anchors->data)[2 * k], ib = ((guint *) anchors->data)[2 * k + 1];
          Range gap = { ia + 1, prev_a, ib + 1, prev_b };

          map[ia] = ib + 1;
          if (gap.a0 < gap.a1 && gap.b0 < gap.b1)
            g_array_append_val (todo, gap);
          prev_a = ia;
          prev_b = ib;
          if (prev[k] == G_MAXUINT)
            break;
        }
      {
        Range gap = { r.a0, prev_a, r.b0, prev_b };

        if (gap.a0 < gap.a1 && gap.b0 < gap.b1)
          g_array_append_val (todo, gap);
      }
    }
}

/* Source lines --------------------------------------------------------------- */

typedef struct {
  HpCompareLine line;
  double        position;  /* in the new side's numbering */
} PlacedLine;

static int
compare_placed (gconstpointer a,
                gconstpointer b)
{
  const PlacedLine *la = a, *lb = b;
  int c = strcmp (la->line.file, lb->line.file);

  if (c != 0)
    return c;
  return la->position < lb->position ? -1 : la->position > lb->position;
}

/* The line key of @ident's declaration on side @s: its first run's that has one. */
static guint32
side_decl (HpComparison *self,
           guint         s,
           guint32       ident)
{
  for (guint r = 0; r < self->sides[s].runs->len; r++)
    {
      const Run *run = g_ptr_array_index (self->sides[s].runs, r);

      if (run->decl != NULL && ident < run->n_decl && run->decl[ident] != 0)
        return run->decl[ident];
    }
  return 0;
}

static guint
key_line (HpComparison *self,
          guint32       key)
{
  return (guint) g_ascii_strtoull (self->line_keys->pdata[key], NULL, 10);
}

static const char *
key_file (HpComparison *self,
          guint32       key)
{
  return strchr (self->line_keys->pdata[key], '\t') + 1;
}

/**
 * hp_comparison_get_line_files:
 * @function: an index of hp_comparison_get_function()
 * @base_file: (out): the file of @function's declaration in the base runs, or NULL
 * @new_file: (out): the same in the new runs
 *
 * The files whose text hp_comparison_get_lines_aligned() takes, as the
 * captures' DWARF names them (NULL when a side does not say).
 */
void
hp_comparison_get_line_files (HpComparison  *self,
                              guint          function,
                              const char   **base_file,
                              const char   **new_file)
{
  guint32 ident;
  guint32 decl[2];

  *base_file = *new_file = NULL;
  g_return_if_fail (self != NULL && self->done);
  g_return_if_fail (function < self->functions->len);

  ident = g_array_index (self->functions, HpCompareFunction, function).ident;
  for (guint s = 0; s < 2; s++)
    decl[s] = side_decl (self, s, ident);
  *base_file = decl[0] ? key_file (self, decl[0]) : NULL;
  *new_file = decl[1] ? key_file (self, decl[1]) : NULL;
}

/**
 * hp_comparison_get_lines:
 * @function: an index of hp_comparison_get_function()
 *
 * hp_comparison_get_lines_aligned() without the files' text.
 */
GArray *
hp_comparison_get_lines (HpComparison *self,
                         guint         function)
{
  return hp_comparison_get_lines_aligned (self, function, NULL, 0, NULL, 0, NULL);
}

/**
 * hp_comparison_get_lines_aligned:
 * @function: an index of hp_comparison_get_function()
 * @base_text: (nullable): the lines of the base's file of @function
 *   (hp_comparison_get_line_files()), without their newlines
 * @new_text: (nullable): the same of the new's
 * @match: (out) (optional): how the base's lines were matched to the new's
 *
 * The source lines of @function with samples on either side, as
 * HpCompareLine in the order of the new side's file: self at the line,
 * and total counting each sample once (the outermost call, when it
 * recurses). Self and total are each judged as one family. Empty unless
 * hp_comparison_keep_lines() was called before adding.
 *
 * A line of the base is the line of the new that holds the same text,
 * when both texts are given (HP_COMPARE_LINES_BY_TEXT: two versions of
 * the file, say two checkouts); else the line as far from the function's
 * declaration, when the declaration moved (HP_COMPARE_LINES_BY_DECLARATION:
 * lines added or removed above the function; an edit inside it still
 * shifts the lines below it); else the same number. The capture keeps no
 * source text, so the file of one version on this computer cannot align
 * the other's lines.
 */
GArray *
hp_comparison_get_lines_aligned (HpComparison       *self,
                                 guint               function,
                                 const char * const *base_text,
                                 guint               n_base_text,
                                 const char * const *new_text,
                                 guint               n_new_text,
                                 HpCompareLineMatch *match)
{
  GArray *result = g_array_new (FALSE, FALSE, sizeof (HpCompareLine));
  const PathNode *nodes;
  g_autofree HpCompareStat *self_stats = NULL;
  g_autofree HpCompareStat *total_stats = NULL;
  g_autofree guint32 *map = NULL;
  g_autoptr(GHashTable) base_key = NULL;     /* base line key -> table key */
  g_autoptr(GHashTable) base_number = NULL;  /* table key -> base line */
  g_autoptr(GArray) placed = NULL;
  HpCompareLineMatch how = HP_COMPARE_LINES_BY_NUMBER;
  const char *files[2] = { NULL, NULL };
  guint32 decl[2];
  gint delta = 0;
  guint n_base;
  guint32 ident;
  Table t;

  if (match != NULL)
    *match = HP_COMPARE_LINES_BY_NUMBER;
  g_return_val_if_fail (self != NULL && self->done, result);
  g_return_val_if_fail (function < self->functions->len, result);

  if (self->inverted)
    return result;
  index_lines (self);
  ident = g_array_index (self->functions, HpCompareFunction, function).ident;
  nodes = (const PathNode *) (gpointer) self->nodes->data;
  n_base = self->sides[0].runs->len;

  for (guint s = 0; s < 2; s++)
    {
      decl[s] = side_decl (self, s, ident);
      files[s] = decl[s] ? key_file (self, decl[s]) : NULL;
    }
  if (files[0] != NULL && files[1] != NULL && base_text != NULL && new_text != NULL &&
      n_base_text <= MAX_ALIGNED_LINES && n_new_text <= MAX_ALIGNED_LINES)
    {
      how = HP_COMPARE_LINES_BY_TEXT;
      map = g_new0 (guint32, MAX (n_base_text, 1));
      align_texts (base_text, n_base_text, new_text, n_new_text, map);
    }
  else if (files[0] != NULL && files[1] != NULL &&
           (key_line (self, decl[0]) != key_line (self, decl[1]) || strcmp (files[0], files[1]) != 0))
    {
      how = HP_COMPARE_LINES_BY_DECLARATION;
      delta = (gint) key_line (self, decl[1]) - (gint) key_line (self, decl[0]);
    }

  base_key = g_hash_table_new (NULL, NULL);
  base_number = g_hash_table_new (NULL, NULL);
  table_init (&t);
  for (guint32 i = self->line_start[ident]; i < self->line_start[ident + 1]; i++)
    {
      guint k = self->line_refs[i] >> 32;
      guint s = k < n_base ? 0 : 1;
      guint r = s == 0 ? k : k - n_base;
      const Run *run = g_ptr_array_index (self->sides[s].runs, r);
      const LineCost *cost = &g_array_index (run->lines, LineCost, (guint32) self->line_refs[i]);
      guint32 key = cost->line_id;

      /* a base line: the key of its line in the new's numbering, or its
       * own with the top bit when the new has none */
      if (s == 0 && how != HP_COMPARE_LINES_BY_NUMBER)
        {
          gpointer found;

          if (g_hash_table_lookup_extended (base_key, GUINT_TO_POINTER (key), NULL, &found))
            key = GPOINTER_TO_UINT (found);
          else
            {
              guint line = key_line (self, key);
              gint64 to = 0;

              if (strcmp (key_file (self, key), files[0]) != 0)
                to = line;   /* another file: as numbered */
              else if (how == HP_COMPARE_LINES_BY_TEXT)
                to = line <= n_base_text ? map[line - 1] : 0;
              else
                to = (gint64) line + delta;
              key = to > 0 ? intern_line (self, strcmp (key_file (self, cost->line_id), files[0]) == 0
                                                ? files[1] : key_file (self, cost->line_id), (guint) to)
                           : cost->line_id | 0x80000000u;
              g_hash_table_insert (base_key, GUINT_TO_POINTER (cost->line_id), GUINT_TO_POINTER (key));
            }
        }
      if (s == 0)
        g_hash_table_insert (base_number, GUINT_TO_POINTER (key),
                             GUINT_TO_POINTER (key_line (self, cost->line_id)));
      table_add (self, &t, key, s, r, 0, cost->self_w, cost->self_n);
      table_add (self, &t, key, s, r, 1, nodes[cost->path].first ? cost->total_w : 0,
                 nodes[cost->path].first ? cost->total_n : 0);
    }

  self_stats = table_stats (self, &t, 0, ident);
  total_stats = table_stats (self, &t, 1, ident);
  placed = g_array_sized_new (FALSE, FALSE, sizeof (PlacedLine), t.keys->len);
  for (guint i = 0; i < t.keys->len; i++)
    {
      guint32 key = g_array_index (t.keys, guint32, i);
      guint32 own = key & 0x7fffffffu;
      PlacedLine p = { { 0 } };

      p.line.file = key_file (self, own);
      p.line.base_line = GPOINTER_TO_UINT (g_hash_table_lookup (base_number, GUINT_TO_POINTER (key)));
      if (key & 0x80000000u)
        {
          /* only in the base: after the new place of the base line above it */
          guint line = key_line (self, own);

          p.line.line = 0;
          p.position = 0.5;
          if (how == HP_COMPARE_LINES_BY_TEXT)
            {
              p.line.file = files[1];
              for (guint above = MIN (line, n_base_text + 1) - 1; above >= 1; above--)
                if (map[above - 1] > 0)
                  {
                    p.position = map[above - 1] + 0.5;
                    break;
                  }
            }
          else
            p.position = line + 0.5;
        }
      else
        {
          p.line.line = key_line (self, own);
          p.position = p.line.line;
        }
      p.line.self = self_stats[i];
      p.line.total = total_stats[i];
      g_array_append_val (placed, p);
    }
  table_clear (&t);
  g_array_sort (placed, compare_placed);
  for (guint i = 0; i < placed->len; i++)
    g_array_append_val (result, g_array_index (placed, PlacedLine, i).line);
  if (match != NULL)
    *match = how;
  return result;
}
