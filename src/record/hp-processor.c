/* hp-processor.c - turns perf records into a capture: resolve, intern, write
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This file owns the middle of the data flow: it keeps the state that perf
 * records describe (each process's address space, thread names), resolves
 * every sample's call chain to frames with the symbolizer and writes the
 * interned stack and the sample with the capture writer. The live recorder
 * and the perf.data importer both feed it, so a record type is handled in
 * exactly one place whatever its source.
 *
 * Samples that carry the user registers and a copy of the user stack
 * (PERF_SAMPLE_REGS_USER + PERF_SAMPLE_STACK_USER, "--call-graph dwarf") get
 * their user frames from HpUnwinder instead of the kernel's frame-pointer
 * chain; kernel frames still come from the kernel's chain. Whatever the
 * source, a user stack that does not reach a thread's start is cut short:
 * it is rooted under a "[truncated]" frame rather than shown under a false
 * caller, and counted.
 *
 * Speed: at 20 kHz the same few thousand call chains repeat, so a chain is
 * resolved once per (process, address-space generation, addresses) and then
 * found in a hash table; each address is resolved once per module offset.
 * DWARF samples are unwound one by one (their stack copies differ), and the
 * unwound addresses then take the same cached path.
 */

#define G_LOG_DOMAIN "hp-processor"

#include "config.h"

#include "store/hp-capture-keys.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "record/hp-processor.h"
#include "symbols/hp-address-space.h"
#include "symbols/hp-jitdump.h"
#include "symbols/hp-perf-map.h"
#include "symbols/hp-unwinder.h"

/* Marks, in a chain of addresses, user frames that came from the unwinder:
 * their return addresses are already adjusted. Above PERF_CONTEXT_MAX like
 * the kernel's markers, and distinct from all of them. */
#define HP_CONTEXT_USER_UNWOUND ((guint64) -3000)

typedef struct {
  HpAddressSpace *space;
  guint           generation;  /* bumped on every change of the address space */
  guint32         pid;
  /* Run-time compiled code (see resolve_jit) */
  HpPerfMap      *perf_map;    /* NULL until an address needs it */
  HpJitDump      *jitdump;     /* NULL until an address needs it, or none */
  char           *jitdump_path; /* from the MMAP of jit-PID.dump, if seen */
  gboolean        jitdump_searched;
  GHashTable     *jit_frames;  /* address -> frame id, NULL until needed */
} Process;

/* A frame of anonymous code that no map named yet: named at the end,
 * when the program may have written its map (JDK's DumpPerfMapAtExit). */
typedef struct {
  guint32 pid;
  guint64 address;
  gint64  frame_id;
} PendingFrame;

typedef struct {
  guint64                time;
  guint64                seq;
  const HpPerfEventInfo *info;
  const guint8          *bytes;
  guint16                size;
  gboolean               owned;  /* a copy, freed with the entry */
  GByteArray            *holder; /* holds @bytes; a reference, dropped with the entry */
} Queued;

/* A call chain as the key of the stack cache: its hash is computed once,
 * over 64-bit words. A lookup points at the sample's own addresses; a key
 * kept in the table has them after the header, in one allocation. */
typedef struct {
  guint          hash;
  guint32        pid;
  guint          generation;
  gboolean       copy_ended;
  gsize          n_ips;
  const guint64 *ips;
} ChainKey;

typedef struct {
  gint64   event_id;
  gboolean off_cpu;
  guint64  period;    /* weight of a sample without PERF_SAMPLE_PERIOD */
} EventMap;

typedef struct {
  gint64  stack_id;
  guint64 time;
  guint32 cpu;
  gint64  event_id;
} OffCpu;

typedef struct {
  gint64   stack_id;
  gboolean has_user;
  gboolean truncated;
  gboolean copy_ended;  /* truncated where the stack copy ended */
  gboolean at_jit;      /* truncated at run-time compiled code */
} StackInfo;

struct _HpProcessor {
  HpCaptureWriter *writer;
  HpSymbolizer    *symbolizer;
  HpUnwinder      *unwinder;

  GHashTable *processes;       /* pid -> Process */
  GHashTable *thread_names;    /* tid -> char* */
  GHashTable *known_threads;   /* tid set: written to the threads table */

  GHashTable *module_ids;      /* HpModule* -> module id */
  GHashTable *resolved_frames; /* HpResolvedAddress* -> GArray of frame ids, innermost first */
  GHashTable *named_frames;    /* "name+0xOFF" -> frame id, for addresses without a module */
  GHashTable *stacks;          /* ChainKey (pid, generation, ips) -> StackInfo */
  GArray     *start_frames;    /* guint8 per frame id: 1 for functions where threads start */
  GArray     *unknown_frames;  /* guint8 per frame id: 1 for addresses in no mapping nor JIT map */

  GArray     *frame_buf;       /* gint64, leaf first, reused per sample */
  GArray     *last_frames;     /* gint64: the frames of the last stack interned, root first */
  GArray     *last_nodes;      /* gint64: its stack node at each of them */
  GArray     *chain_buf;       /* guint64: kernel chain + unwound user pcs */
  GArray     *pc_buf;          /* guint64: unwound user pcs */
  gint64      truncated_frame; /* the "[truncated]" root frame; 0 until needed */

  GPtrArray  *perf_map_dirs;   /* where perf-PID.map files are looked for */
  GArray     *pending_frames;  /* PendingFrame */
  gboolean    resolved_jit;    /* the last user address resolved was JIT code */
  gint64      jit_module;      /* "[jit]", 0 until needed */
  gint64      anon_module;     /* "[anon]", 0 until needed */
  /* "name\nfile" -> function id, for JIT functions declared where their
   * line table starts: every copy the JIT compiles starts elsewhere */
  GHashTable *jit_functions;

  GArray     *queue;           /* Queued */
  const HpPerfEventInfo *current_info; /* event of the record being processed, if known */
  guint64     seq;
  guint64     round_max_time;  /* newest time seen in the current round */
  guint64     flush_limit;     /* newest time of the previous round */

  GHashTable *event_ids;       /* perf id -> EventMap* */
  GHashTable *off_cpu_since;   /* tid -> OffCpu*: where and when it left the CPU */
  guint64     start_time;      /* samples before it are dropped (set_start_time) */

  HpProcessorStats stats;
};

static void
process_free (gpointer data)
{
  Process *p = data;

  hp_address_space_free (p->space);
  hp_perf_map_free (p->perf_map);
  hp_jitdump_free (p->jitdump);
  g_free (p->jitdump_path);
  g_clear_pointer (&p->jit_frames, g_hash_table_unref);
  g_free (p);
}

static void
queued_clear (gpointer data)
{
  Queued *q = data;

  if (q->owned)
    g_free ((gpointer) q->bytes);
  if (q->holder != NULL)
    g_byte_array_unref (q->holder);
}

/* The chains of one capture differ mostly in a few words: a multiply-xor
 * hash over 64-bit words takes a few cycles per frame, where a byte-wise
 * hash (g_bytes_hash) took a tenth of a whole import. */
static guint
chain_hash (const ChainKey *key)
{
  guint64 h = key->n_ips * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  h = (h ^ (((guint64) key->pid << 32) | key->generation)) * G_GUINT64_CONSTANT (0xFF51AFD7ED558CCD);
  h ^= (h >> 29) ^ (guint64) key->copy_ended;
  for (gsize i = 0; i < key->n_ips; i++)
    {
      h = (h ^ key->ips[i]) * G_GUINT64_CONSTANT (0xFF51AFD7ED558CCD);
      h ^= h >> 29;
    }
  h ^= h >> 32;
  return (guint) h;
}

static guint
chain_key_hash (gconstpointer p)
{
  return ((const ChainKey *) p)->hash;
}

static gboolean
chain_key_equal (gconstpointer a,
                 gconstpointer b)
{
  const ChainKey *ka = a;
  const ChainKey *kb = b;

  return ka->hash == kb->hash && ka->n_ips == kb->n_ips && ka->pid == kb->pid
         && ka->generation == kb->generation && ka->copy_ended == kb->copy_ended
         && memcmp (ka->ips, kb->ips, ka->n_ips * sizeof *ka->ips) == 0;
}

static ChainKey *
chain_key_copy (const ChainKey *key)
{
  ChainKey *copy = g_malloc (sizeof *copy + key->n_ips * sizeof *key->ips);

  *copy = *key;
  memcpy (copy + 1, key->ips, key->n_ips * sizeof *key->ips);
  copy->ips = (const guint64 *) (gconstpointer) (copy + 1);
  return copy;
}

HpProcessor *
hp_processor_new (HpCaptureWriter *writer)
{
  HpProcessor *self;

  g_return_val_if_fail (writer != NULL, NULL);

  self = g_new0 (HpProcessor, 1);
  self->writer = writer;
  self->symbolizer = hp_symbolizer_new ();
  self->unwinder = hp_unwinder_new ();
  self->processes = g_hash_table_new_full (NULL, NULL, NULL, process_free);
  self->thread_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->known_threads = g_hash_table_new (NULL, NULL);
  self->module_ids = g_hash_table_new (NULL, NULL);
  self->resolved_frames = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  self->named_frames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->jit_functions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->stacks = g_hash_table_new_full (chain_key_hash, chain_key_equal, g_free, g_free);
  self->start_frames = g_array_new (FALSE, TRUE, sizeof (guint8));
  self->unknown_frames = g_array_new (FALSE, TRUE, sizeof (guint8));
  self->event_ids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->off_cpu_since = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->frame_buf = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->last_frames = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->last_nodes = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->chain_buf = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->pc_buf = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->queue = g_array_new (FALSE, FALSE, sizeof (Queued));
  g_array_set_clear_func (self->queue, queued_clear);
  self->perf_map_dirs = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->perf_map_dirs, g_strdup ("/tmp"));
  self->pending_frames = g_array_new (FALSE, FALSE, sizeof (PendingFrame));
  return self;
}

void
hp_processor_free (HpProcessor *self)
{
  if (self == NULL)
    return;
  g_hash_table_destroy (self->processes);
  g_hash_table_destroy (self->thread_names);
  g_hash_table_destroy (self->known_threads);
  g_hash_table_destroy (self->module_ids);
  g_hash_table_destroy (self->resolved_frames);
  g_hash_table_destroy (self->named_frames);
  g_hash_table_destroy (self->jit_functions);
  g_hash_table_destroy (self->stacks);
  g_array_unref (self->start_frames);
  g_array_unref (self->unknown_frames);
  g_hash_table_destroy (self->event_ids);
  g_hash_table_destroy (self->off_cpu_since);
  g_array_unref (self->frame_buf);
  g_array_unref (self->last_frames);
  g_array_unref (self->last_nodes);
  g_array_unref (self->chain_buf);
  g_array_unref (self->pc_buf);
  g_array_unref (self->queue);
  g_ptr_array_unref (self->perf_map_dirs);
  g_array_unref (self->pending_frames);
  hp_unwinder_free (self->unwinder);
  hp_symbolizer_free (self->symbolizer);
  g_free (self);
}

static Process *
get_process (HpProcessor *self,
             guint32      pid)
{
  Process *p = g_hash_table_lookup (self->processes, GUINT_TO_POINTER (pid));

  if (p == NULL)
    {
      p = g_new0 (Process, 1);
      p->pid = pid;
      p->space = hp_address_space_new ();
      g_hash_table_insert (self->processes, GUINT_TO_POINTER (pid), p);
    }
  return p;
}

static void
set_thread_name (HpProcessor *self,
                 guint32      pid,
                 guint32      tid,
                 const char  *name)
{
  g_hash_table_insert (self->thread_names, GUINT_TO_POINTER (tid), g_strdup (name));
  g_hash_table_add (self->known_threads, GUINT_TO_POINTER (tid));
  hp_capture_writer_set_thread (self->writer, (gint32) tid, (gint32) pid, name);
  if (pid == tid)
    hp_capture_writer_set_process (self->writer, (gint32) pid, name);
}

/* Names of the functions where a complete user stack starts. */
static gboolean
is_thread_start (const char *name)
{
  static const char * const starts[] = {
    "_start", "__libc_start_main", "__libc_start_call_main", "main",
    "clone", "clone3", "__clone", "__clone3", "start_thread", "thread_start",
  };

  if (name == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (starts); i++)
    if (strcmp (name, starts[i]) == 0)
      return TRUE;
  return FALSE;
}

static gint64
intern_module (HpProcessor *self,
               HpModule    *module)
{
  gpointer id;

  if (g_hash_table_lookup_extended (self->module_ids, module, NULL, &id))
    return GPOINTER_TO_SIZE (id);

  id = GSIZE_TO_POINTER (hp_capture_writer_intern_module (self->writer,
                                                          hp_module_get_path (module),
                                                          hp_module_get_build_id (module),
                                                          hp_module_is_kernel (module)));
  g_hash_table_insert (self->module_ids, module, id);
  return GPOINTER_TO_SIZE (id);
}

static void
note_start_frame (HpProcessor *self,
                  gint64       frame_id,
                  const char  *function)
{
  if (!is_thread_start (function) || frame_id < 0)
    return;
  if ((guint64) frame_id >= self->start_frames->len)
    g_array_set_size (self->start_frames, (guint) frame_id + 1);
  g_array_index (self->start_frames, guint8, frame_id) = 1;
}

static gboolean
is_start_frame (HpProcessor *self,
                gint64       frame_id)
{
  return frame_id >= 0 && (guint64) frame_id < self->start_frames->len
         && g_array_index (self->start_frames, guint8, frame_id) != 0;
}

static gboolean
is_unknown_frame (HpProcessor *self,
                  gint64       frame_id)
{
  return frame_id >= 0 && (guint64) frame_id < self->unknown_frames->len
         && g_array_index (self->unknown_frames, guint8, frame_id) != 0;
}

/* Whether @module is an ELF file that `perf inject --jit` wrote for one
 * piece of code of a jitdump: "jitted-PID-N.so", one per code load. */
static gboolean
is_injected_jit_module (HpModule *module)
{
  const char *name = hp_module_get_name (module);
  guint pid, n;
  int end = 0;

  return name != NULL && sscanf (name, "jitted-%u-%u.so%n", &pid, &n, &end) == 2 && end > 0
         && name[end] == '\0';
}

static gint64 jit_function (HpProcessor          *self,
                            const HpPerfMapEntry *entry,
                            guint64               address,
                            char                **file,
                            guint                *line,
                            char                 *tier);

/* The frame of code that a perf.data made by `perf inject --jit` names in
 * its jitted-PID-N.so: the code of a jitdump, so named as the jitdump's
 * code is (V8's "JS:*fib /x.js:3:10" gives fib, its file, line and tier;
 * the JVM's methods as Java names them), under the module [jit], rather
 * than as a function of its own per compiled copy and module. */
static gint64
injected_jit_frame (HpProcessor             *self,
                    const HpResolvedAddress *resolved)
{
  const HpSymbolFrame *f = &resolved->frames[0];
  HpJitLine row = { resolved->offset, f->file != NULL ? f->file : "", f->line };
  HpPerfMapEntry entry = { resolved->offset, resolved->offset + 1, f->function, &row, f->file != NULL ? 1 : 0 };
  g_autofree char *file = NULL;
  guint line = 0;
  char tier = 0;
  gint64 function_id = jit_function (self, &entry, resolved->offset, &file, &line, &tier);

  return hp_capture_writer_intern_tier_frame (self->writer, function_id, file, line, tier, resolved->offset);
}

/* Frame ids of a resolved address, innermost first. */
static const GArray *
frames_for_resolved (HpProcessor             *self,
                     const HpResolvedAddress *resolved)
{
  GArray *ids = g_hash_table_lookup (self->resolved_frames, resolved);
  gint64 module_id;

  if (ids != NULL)
    return ids;

  if (resolved->n_frames == 1 && resolved->frames[0].function != NULL && is_injected_jit_module (resolved->module))
    {
      gint64 frame_id = injected_jit_frame (self, resolved);

      ids = g_array_sized_new (FALSE, FALSE, sizeof (gint64), 1);
      g_array_append_val (ids, frame_id);
      g_hash_table_insert (self->resolved_frames, (gpointer) resolved, ids);
      return ids;
    }

  module_id = intern_module (self, resolved->module);
  ids = g_array_sized_new (FALSE, FALSE, sizeof (gint64), resolved->n_frames);

  for (guint i = 0; i < resolved->n_frames; i++)
    {
      const HpSymbolFrame *f = &resolved->frames[i];
      g_autofree char *fallback = NULL;
      const char *name = f->function;
      gint64 function_id, frame_id;

      if (name == NULL)
        {
          /* Kept as module+0xOFFSET, never dropped or given a guessed name. */
          name = fallback = g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x",
                                             hp_module_get_name (resolved->module),
                                             resolved->function_start);
          self->stats.unresolved_frames++;
        }

      function_id = hp_capture_writer_intern_function (self->writer, name, module_id,
                                                       f->function ? f->function_file : NULL,
                                                       f->function ? f->function_line : 0);
      frame_id = hp_capture_writer_intern_frame (self->writer, function_id,
                                                 f->file, f->line, f->is_inline,
                                                 resolved->offset);
      note_start_frame (self, frame_id, f->function);
      g_array_append_val (ids, frame_id);
    }

  g_hash_table_insert (self->resolved_frames, (gpointer) resolved, ids);
  return ids;
}

/* A frame for an address in no known module (or a special mapping). */
static gint64
frame_for_name (HpProcessor *self,
                const char  *module_name,
                guint64      offset)
{
  g_autofree char *name = g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x", module_name, offset);
  gpointer id;

  if (!g_hash_table_lookup_extended (self->named_frames, name, NULL, &id))
    {
      gint64 module_id = hp_capture_writer_intern_module (self->writer, module_name, NULL, FALSE);
      gint64 function_id = hp_capture_writer_intern_function (self->writer, name, module_id, NULL, 0);

      id = GSIZE_TO_POINTER (hp_capture_writer_intern_frame (self->writer, function_id,
                                                             NULL, 0, FALSE, offset));
      g_hash_table_insert (self->named_frames, g_steal_pointer (&name), id);
      self->stats.unresolved_frames++;
    }
  return GPOINTER_TO_SIZE (id);
}

/* The root of a user stack that reaches no thread start: a function in no
 * module, so that every cut-short stack hangs under one node, visibly. */
static gint64
get_truncated_frame (HpProcessor *self)
{
  if (self->truncated_frame == 0)
    {
      gint64 function_id = hp_capture_writer_intern_function (self->writer, HP_FUNCTION_TRUNCATED, 0, NULL, 0);

      self->truncated_frame = hp_capture_writer_intern_frame (self->writer, function_id,
                                                              NULL, 0, FALSE, 0);
    }
  return self->truncated_frame;
}

static void
append_frames (HpProcessor *self,
               const GArray *ids)
{
  g_array_append_vals (self->frame_buf, ids->data, ids->len);
}

/* Run-time compiled code ----------------------------------------------------
 *
 * JIT compilers put code in anonymous executable mappings ("//anon", or
 * no mapping the kernel reported) and say what it is in a perf map file,
 * /tmp/perf-PID.map (hp-perf-map.c). The names are copied into the
 * capture, which must not depend on a temporary file that the next process
 * with the same pid overwrites.
 *
 * The map grows while the program runs, so an address it does not name
 * makes it read again (only what was appended). An address still unnamed
 * gets a frame of its own under one function per mapping, "[anon]
 * START-END", rather than a row per address; at the end the maps are read
 * once more, because the JVM writes its map only when it exits, and those
 * frames are renamed. */

static gboolean
is_anonymous_name (const char *name)
{
  return strcmp (name, "//anon") == 0 || g_str_has_prefix (name, "[anon")
         || g_str_has_prefix (name, "/memfd:") || strcmp (name, "/dev/zero") == 0
         || g_str_has_prefix (name, "/anon_hugepage") || name[0] == '\0';
}

static gboolean
is_anonymous_code (const HpMapping *map)
{
  return map->module == NULL && is_anonymous_name (map->name);
}

static HpPerfMap *
get_perf_map (HpProcessor *self,
              Process     *process)
{
  if (process->perf_map == NULL)
    {
      g_autofree char *base = g_strdup_printf ("perf-%u.map", process->pid);
      g_autofree char *chosen = NULL;

      /* The first folder that has the file; else the first, where a
       * running program may still write it. */
      for (guint i = 0; i < self->perf_map_dirs->len && chosen == NULL; i++)
        {
          g_autofree char *path = g_build_filename (g_ptr_array_index (self->perf_map_dirs, i), base, NULL);

          if (g_file_test (path, G_FILE_TEST_EXISTS))
            chosen = g_steal_pointer (&path);
        }
      if (chosen == NULL)
        chosen = g_build_filename (g_ptr_array_index (self->perf_map_dirs, 0), base, NULL);
      process->perf_map = hp_perf_map_new (chosen);
      hp_perf_map_update (process->perf_map);
    }
  return process->perf_map;
}

/* The jitdump of @process: the file it mapped (runtimes map it so that
 * perf sees where it is), else jit-PID.dump in the folders of perf maps. */
static HpJitDump *
get_jitdump (HpProcessor *self,
             Process     *process)
{
  if (process->jitdump == NULL && !process->jitdump_searched)
    {
      g_autofree char *base = g_strdup_printf ("jit-%u.dump", process->pid);
      g_autofree char *chosen = g_strdup (process->jitdump_path);

      for (guint i = 0; i < self->perf_map_dirs->len && chosen == NULL; i++)
        {
          g_autofree char *path = g_build_filename (g_ptr_array_index (self->perf_map_dirs, i), base, NULL);

          if (g_file_test (path, G_FILE_TEST_EXISTS))
            chosen = g_steal_pointer (&path);
        }
      process->jitdump_searched = TRUE;
      if (chosen != NULL)
        {
          process->jitdump = hp_jitdump_new (chosen);
          hp_jitdump_update (process->jitdump);
        }
    }
  return process->jitdump;
}

/* The entry naming @address, from the jitdump (which has line tables)
 * before the perf map, reading what either grew by when it does not name
 * the address yet. */
static const HpPerfMapEntry *
lookup_jit_name (HpProcessor *self,
                 Process     *process,
                 guint64      address)
{
  HpJitDump *dump = get_jitdump (self, process);
  HpPerfMap *map;
  const HpPerfMapEntry *entry;

  if (dump != NULL)
    {
      entry = hp_jitdump_lookup (dump, address);
      if (entry == NULL && hp_jitdump_update (dump))
        entry = hp_jitdump_lookup (dump, address);
      if (entry != NULL)
        return entry;
    }
  map = get_perf_map (self, process);
  entry = hp_perf_map_lookup (map, address);
  if (entry == NULL && hp_perf_map_update (map))
    entry = hp_perf_map_lookup (map, address);
  return entry;
}

static gint64
get_jit_module (HpProcessor *self,
                gboolean     named)
{
  gint64 *id = named ? &self->jit_module : &self->anon_module;

  if (*id == 0)
    *id = hp_capture_writer_intern_module (self->writer, named ? "[jit]" : "[anon]", NULL, FALSE);
  return *id;
}

/* Whether a line table's file name looks like a script's: a path, or a
 * URL such as node's "node:internal/x" whose scheme is ASCII letters and
 * digits. node 20's garbled bytes held a ':' too ("W\xde\x9f:"), so a
 * colon alone is not enough. */
static gboolean
looks_like_script_file (const char *file)
{
  const char *p = file;

  if (file[0] == '/')
    return TRUE;
  if (!g_ascii_isalpha (*p))
    return FALSE;
  while (g_ascii_isalnum (*p) || *p == '+' || *p == '-' || *p == '.')
    p++;
  if (*p != ':' || p[1] == '\0')
    return FALSE;
  for (p++; *p != '\0'; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      return FALSE;
  return TRUE;
}

/* The function that @entry names, and the source position of @address in
 * it: from the line table (jitdump) or else from what the name says (V8's
 * "JS:*fib /x.js:3:10"). */
static gint64
jit_function (HpProcessor          *self,
              const HpPerfMapEntry *entry,
              guint64               address,
              char                **file,
              guint                *line,
              char                 *tier)
{
  HpJitName parsed;
  const char *line_file = NULL;
  guint line_no = 0;
  gint64 id;

  hp_jit_name_parse (entry->name, &parsed);
  if (parsed.file == NULL && entry->n_lines > 0 && entry->lines[0].file[0] != '\0')
    {
      /* Declared where its first line table row is, in the first copy
       * seen: the JVM's C1, C2 and on-stack-replacement copies of a
       * method start on different lines, and are one function. */
      g_autofree char *key = g_strdup_printf ("%s\n%s", parsed.function, entry->lines[0].file);
      gpointer known = g_hash_table_lookup (self->jit_functions, key);

      parsed.file = g_strdup (entry->lines[0].file);
      parsed.line = entry->lines[0].line;
      if (known != NULL)
        id = GPOINTER_TO_SIZE (known);
      else
        {
          id = hp_capture_writer_intern_function (self->writer, parsed.function, get_jit_module (self, TRUE),
                                                  parsed.file, parsed.line);
          g_hash_table_insert (self->jit_functions, g_steal_pointer (&key), GSIZE_TO_POINTER (id));
        }
    }
  else
    id = hp_capture_writer_intern_function (self->writer, parsed.function, get_jit_module (self, TRUE),
                                            parsed.file, parsed.line);
  if (hp_perf_map_entry_get_line (entry, address, &line_file, &line_no))
    {
      /* node 20 garbles the script names of optimized code, sometimes into
       * printable bytes: where V8's name gives the file, another file must
       * look like one (a path, or node's "node:internal/x") to be used. A
       * row without a usable file is still a line of the named one. */
      if (line_file != NULL && parsed.file != NULL && strcmp (line_file, parsed.file) != 0 &&
          !looks_like_script_file (line_file))
        line_file = NULL;
      *file = g_strdup (line_file != NULL ? line_file : parsed.file);
      *line = line_file != NULL || parsed.file != NULL ? line_no : 0;
    }
  else
    {
      *file = g_steal_pointer (&parsed.file);
      *line = parsed.line;
    }
  *tier = parsed.tier;
  hp_jit_name_clear (&parsed);
  return id;
}

/* Addresses outside every mapping come from frame-pointer chains walked
 * through code that keeps none (an interpreter's C stack): stack data and
 * tagged values, whose halves g_int64_hash XORs into few distinct
 * hashes. In a frame-pointer perf.data of lua that made a sixth of the
 * import a probe along colliding entries; a full 64-bit mix spreads them. */
static guint
address_hash (gconstpointer key)
{
  guint64 x = *(const guint64 *) key;

  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  x ^= x >> 33;
  return (guint) x;
}

static gint64
resolve_jit (HpProcessor     *self,
             Process         *process,
             const HpMapping *map,
             guint64          address)
{
  const HpPerfMapEntry *entry;
  gpointer cached;
  gint64 frame_id;

  if (process->jit_frames == NULL)
    process->jit_frames = g_hash_table_new_full (address_hash, g_int64_equal, g_free, NULL);
  if (g_hash_table_lookup_extended (process->jit_frames, &address, NULL, &cached))
    return GPOINTER_TO_SIZE (cached);

  entry = lookup_jit_name (self, process, address);
  if (entry != NULL)
    {
      g_autofree char *file = NULL;
      guint line = 0;
      char tier = 0;
      gint64 function_id = jit_function (self, entry, address, &file, &line, &tier);

      frame_id = hp_capture_writer_intern_tier_frame (self->writer, function_id, file, line, tier, address);
    }
  else if (map != NULL)
    {
      g_autofree char *name = g_strdup_printf ("[anon] 0x%" G_GINT64_MODIFIER "x-0x%" G_GINT64_MODIFIER "x",
                                               map->start, map->end);
      gint64 function_id = hp_capture_writer_intern_function (self->writer, name, get_jit_module (self, FALSE),
                                                              NULL, 0);
      PendingFrame pending = { process->pid, address, 0 };

      pending.frame_id = frame_id = hp_capture_writer_add_frame (self->writer, function_id, address);
      g_array_append_val (self->pending_frames, pending);
    }
  else
    {
      frame_id = frame_for_name (self, "[unknown]", address);
      if (frame_id >= 0)
        {
          if ((guint64) frame_id >= self->unknown_frames->len)
            g_array_set_size (self->unknown_frames, (guint) frame_id + 1);
          g_array_index (self->unknown_frames, guint8, frame_id) = 1;
        }
    }

  g_hash_table_insert (process->jit_frames, g_memdup2 (&address, sizeof address), GSIZE_TO_POINTER (frame_id));
  return frame_id;
}

/* Names the frames that no map named while they were sampled, from the
 * maps as the programs left them. */
static void
forget_jitdump_search (gpointer key,
                       gpointer value,
                       gpointer user_data)
{
  Process *process = value;

  if (process->jitdump == NULL)
    process->jitdump_searched = FALSE;
}

static void
resolve_pending_jit_frames (HpProcessor *self)
{
  /* A runtime may have written its jitdump after we last looked. */
  if (self->pending_frames->len > 0)
    g_hash_table_foreach (self->processes, forget_jitdump_search, NULL);
  for (guint i = 0; i < self->pending_frames->len; i++)
    {
      const PendingFrame *pending = &g_array_index (self->pending_frames, PendingFrame, i);
      Process *process = g_hash_table_lookup (self->processes, GUINT_TO_POINTER (pending->pid));
      const HpPerfMapEntry *entry;
      g_autofree char *file = NULL;
      guint line = 0;
      char tier = 0;
      gint64 function_id;

      if (process == NULL || (entry = lookup_jit_name (self, process, pending->address)) == NULL)
        {
          self->stats.unresolved_frames++;
          continue;
        }
      function_id = jit_function (self, entry, pending->address, &file, &line, &tier);
      hp_capture_writer_update_frame (self->writer, pending->frame_id, function_id, file, line, tier);
    }
  g_array_set_size (self->pending_frames, 0);
}

static void
resolve_user (HpProcessor *self,
              Process     *process,
              guint64      address)
{
  const HpMapping *map = hp_address_space_lookup (process->space, address);
  guint64 offset;

  self->resolved_jit = map != NULL && is_anonymous_code (map);
  if (map == NULL || is_anonymous_code (map))
    {
      gint64 id = resolve_jit (self, process, map, address);

      g_array_append_val (self->frame_buf, id);
      return;
    }

  offset = address - map->start + map->pgoff;
  if (map->module != NULL)
    append_frames (self, frames_for_resolved (self, hp_symbolizer_lookup (self->symbolizer, map->module, offset)));
  else
    {
      g_autofree char *base = g_path_get_basename (map->name);
      gint64 id = frame_for_name (self, map->name[0] == '/' ? base : map->name, offset);

      g_array_append_val (self->frame_buf, id);
    }
}

static void
resolve_kernel (HpProcessor *self,
                guint64      address)
{
  append_frames (self, frames_for_resolved (self, hp_symbolizer_lookup_kernel (self->symbolizer, address)));
}

/* The call chain of a sample with registers and a stack copy: the kernel's
 * part of its chain, then the user frames unwound from the copy. Falls back
 * to the kernel's user chain, or the sampled ip, when nothing unwinds. */
static const guint64 *
unwound_chain (HpProcessor        *self,
               const HpPerfRecord *rec,
               Process            *process,
               guint64            *n_chain,
               HpUnwindStatus     *status)
{
  HpUnwindSample sample = {
    .pid = rec->pid,
    .tid = rec->tid,
    .abi = rec->sample.abi,
    .regs_mask = self->current_info->sample_regs_user,
    .regs = rec->sample.regs,
    .n_regs = rec->sample.n_regs,
    .stack = rec->sample.stack,
    .stack_size = rec->sample.stack_size,
  };
  guint64 user_at = rec->sample.n_ips;
  guint64 marker;

  for (guint64 i = 0; i < rec->sample.n_ips; i++)
    if (rec->sample.ips[i] == (guint64) PERF_CONTEXT_USER)
      {
        user_at = i;
        break;
      }

  g_array_set_size (self->chain_buf, 0);
  g_array_append_vals (self->chain_buf, rec->sample.ips, user_at);

  g_array_set_size (self->pc_buf, 0);
  *status = hp_unwinder_unwind (self->unwinder, process->space, process->generation, &sample, self->pc_buf);
  if (self->pc_buf->len > 0)
    {
      marker = HP_CONTEXT_USER_UNWOUND;
      g_array_append_val (self->chain_buf, marker);
      g_array_append_vals (self->chain_buf, self->pc_buf->data, self->pc_buf->len);
    }
  else if (user_at < rec->sample.n_ips)
    g_array_append_vals (self->chain_buf, rec->sample.ips + user_at, rec->sample.n_ips - user_at);
  else if ((rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_USER)
    {
      marker = PERF_CONTEXT_USER;
      g_array_append_val (self->chain_buf, marker);
      g_array_append_val (self->chain_buf, rec->sample.ip);
    }

  *n_chain = self->chain_buf->len;
  return (const guint64 *) (gconstpointer) self->chain_buf->data;
}

/* Whether the frames that resolve_user() appended to frame_buf from
 * @before on are past the end of a frame-pointer chain (see
 * resolve_stack()): a return address in no mapping of a process whose
 * mappings are known, nor in its JIT maps; or, once a start function was
 * on the chain as a caller (*@past_start), a frame of another function. */
static gboolean
fp_chain_ends_at (HpProcessor *self,
                  Process     *process,
                  guint        before,
                  gboolean     return_address,
                  gboolean    *past_start)
{
  const gint64 *frames = (const gint64 *) (gconstpointer) self->frame_buf->data;
  guint n_mappings = 0;
  gboolean start = FALSE;

  if (return_address && self->frame_buf->len == before + 1 && is_unknown_frame (self, frames[before]))
    {
      hp_address_space_get_mappings (process->space, &n_mappings);
      if (n_mappings > 0)
        return TRUE;
    }
  for (guint i = before; i < self->frame_buf->len; i++)
    {
      if (*past_start && !is_start_frame (self, frames[i]))
        return TRUE;
      start = start || is_start_frame (self, frames[i]);
    }
  /* Only a start function that called the frames inside it ends the
   * chain: one sampled itself (clone3 in the thread that calls
   * pthread_create or posix_spawn) has its callers above it. */
  *past_start = *past_start || (start && return_address);
  return FALSE;
}

/* Interns the stack of frame_buf (leaf first) root first. A new chain
 * mostly shares its outer frames with the one before it (the same program
 * under a new leaf), so those nodes are taken from the last stack interned
 * rather than looked up again one (parent, frame) pair at a time. */
static gint64
intern_frames (HpProcessor *self)
{
  const gint64 *frames = (const gint64 *) (gconstpointer) self->frame_buf->data;
  guint n = self->frame_buf->len;
  guint common = 0;
  gint64 parent;

  while (common < n && common < self->last_frames->len
         && g_array_index (self->last_frames, gint64, common) == frames[n - 1 - common])
    common++;
  parent = common > 0 ? g_array_index (self->last_nodes, gint64, common - 1) : 0;

  g_array_set_size (self->last_frames, n);
  g_array_set_size (self->last_nodes, n);
  for (guint i = common; i < n; i++)
    {
      gint64 frame_id = frames[n - 1 - i];

      parent = hp_capture_writer_intern_stack (self->writer, parent, frame_id);
      g_array_index (self->last_frames, gint64, i) = frame_id;
      g_array_index (self->last_nodes, gint64, i) = parent;
    }
  return parent;
}

static const StackInfo *
resolve_stack (HpProcessor        *self,
               const HpPerfRecord *rec,
               Process            *process)
{
  const guint64 *ips = rec->sample.ips;
  guint64 n_ips = rec->sample.n_ips;
  guint64 single[2];
  ChainKey lookup;
  StackInfo *info;
  gboolean in_kernel;
  gboolean adjusted = FALSE;
  gboolean first_in_context = TRUE;
  gboolean has_user = FALSE;
  gboolean outer_jit = FALSE;
  gboolean complete = FALSE;
  gboolean past_start = FALSE;
  gint64 parent = 0;
  HpUnwindStatus status = HP_UNWIND_NO_REGS;
  guint8 copy_ended;

  if (rec->sample.n_regs > 0 && self->current_info != NULL)
    ips = unwound_chain (self, rec, process, &n_ips, &status);
  copy_ended = status == HP_UNWIND_COPY_ENDED;

  if (n_ips == 0)
    {
      /* No call chain asked for (or none available): the sampled ip alone. */
      single[0] = (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL
                  ? PERF_CONTEXT_KERNEL : PERF_CONTEXT_USER;
      single[1] = rec->sample.ip;
      ips = single;
      n_ips = 2;
    }

  lookup.pid = rec->pid;
  lookup.generation = process->generation;
  lookup.copy_ended = copy_ended;
  lookup.n_ips = n_ips;
  lookup.ips = ips;
  lookup.hash = chain_hash (&lookup);
  info = g_hash_table_lookup (self->stacks, &lookup);
  if (info != NULL)
    return info;

  /* The chain is leaf first; PERF_CONTEXT_* markers say whose frames follow.
   * After the first address of a context come return addresses, which point
   * after the call: resolve address - 1 so the call's own line (and inline
   * chain) is found, not the next statement's. */
  g_array_set_size (self->frame_buf, 0);
  in_kernel = (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
  for (guint64 i = 0; i < n_ips; i++)
    {
      guint64 ip = ips[i];
      gboolean return_address;

      if (ip >= (guint64) PERF_CONTEXT_MAX)
        {
          in_kernel = ip == (guint64) PERF_CONTEXT_KERNEL;
          adjusted = ip == HP_CONTEXT_USER_UNWOUND;
          first_in_context = TRUE;
          if (ip != (guint64) PERF_CONTEXT_KERNEL && ip != (guint64) PERF_CONTEXT_USER
              && ip != HP_CONTEXT_USER_UNWOUND)
            break; /* guest or hypervisor frames: not ours */
          continue;
        }

      return_address = !first_in_context;
      if (return_address && !adjusted && ip > 0)
        ip--;
      first_in_context = FALSE;

      if (in_kernel)
        resolve_kernel (self, ip);
      else
        {
          guint before = self->frame_buf->len;

          resolve_user (self, process, ip);
          /* A frame-pointer chain is walked by the kernel until a read
           * fails, past where the program starts when the code that
           * called main keeps no frame pointer (a static glibc's
           * __libc_start_main): what follows is data read as frames. It
           * ends at a return address in no mapping, and, once a start
           * function is on it, at the first frame that is no start
           * function itself (start_thread → clone3 are both). The
           * unwinder's chains end where the CFI does. */
          if (!adjusted && fp_chain_ends_at (self, process, before, return_address, &past_start))
            {
              g_array_set_size (self->frame_buf, before);
              break;
            }
          has_user = TRUE;
          outer_jit = self->resolved_jit;
        }
    }

  /* A stack is complete when a thread start is on it; a user stack that is
   * not hangs under "[truncated]". Intern root first. */
  for (guint i = 0; i < self->frame_buf->len && !complete; i++)
    complete = is_start_frame (self, g_array_index (self->frame_buf, gint64, i));
  if (has_user && !complete)
    {
      gint64 root = get_truncated_frame (self);

      g_array_append_val (self->frame_buf, root);
    }
  parent = intern_frames (self);

  info = g_new0 (StackInfo, 1);
  info->stack_id = parent;
  info->has_user = has_user;
  info->truncated = has_user && !complete;
  info->copy_ended = info->truncated && copy_ended;
  /* Cut at code without CFI whose frame-pointer chain ended: a runtime
   * that keeps frame pointers in its JIT code (node
   * --interpreted-frames-native-stack, java -XX:+PreserveFramePointer)
   * goes through. */
  info->at_jit = info->truncated && outer_jit;
  g_hash_table_insert (self->stacks, chain_key_copy (&lookup), info);
  return info;
}

static void
process_sample (HpProcessor        *self,
                const HpPerfRecord *rec)
{
  const EventMap *map = g_hash_table_lookup (self->event_ids, &rec->id);
  const StackInfo *stack;
  Process *process;

  if (rec->time < self->start_time)
    return;
  process = get_process (self, rec->pid);
  if (!g_hash_table_contains (self->known_threads, GUINT_TO_POINTER (rec->tid)))
    {
      const char *name = g_hash_table_lookup (self->thread_names, GUINT_TO_POINTER (rec->pid));
      g_autofree char *fallback = g_strdup_printf ("[%u]", rec->tid);

      set_thread_name (self, rec->pid, rec->tid, name ? name : fallback);
    }

  stack = resolve_stack (self, rec, process);
  if (stack->stack_id == 0)
    return;
  if (stack->truncated)
    self->stats.truncated++;
  else if (stack->has_user)
    self->stats.complete++;
  if (stack->copy_ended)
    self->stats.truncated_copy++;
  if (stack->at_jit)
    self->stats.truncated_at_jit++;

  if (map != NULL && map->off_cpu)
    {
      /* written when the thread comes back, weighted by its time away */
      OffCpu *since = g_new (OffCpu, 1);

      since->stack_id = stack->stack_id;
      since->time = rec->time;
      since->cpu = rec->cpu;
      since->event_id = map->event_id;
      g_hash_table_insert (self->off_cpu_since, GUINT_TO_POINTER (rec->tid), since);
      return;
    }
  hp_capture_writer_add_event_sample (self->writer, map ? map->event_id : 1,
                                      rec->time, (gint32) rec->tid, (gint32) rec->cpu, stack->stack_id,
                                      rec->sample.period ? rec->sample.period
                                      : map != NULL && map->period > 0 ? map->period : 1);
  self->stats.samples++;
}

/* A thread comes back on a CPU: its time away is an off-CPU sample where
 * it left. PERF_RECORD_SWITCH is about the task it is recorded for;
 * PERF_RECORD_SWITCH_CPU_WIDE (system-wide) carries the same in its
 * sample_id. Switches out are the sched_switch samples themselves. */
static void
process_switch (HpProcessor        *self,
                const HpPerfRecord *rec)
{
  OffCpu *since;

  if (rec->misc & PERF_RECORD_MISC_SWITCH_OUT)
    return;
  since = g_hash_table_lookup (self->off_cpu_since, GUINT_TO_POINTER (rec->tid));
  if (since == NULL || !rec->has_time)
    return;
  if (rec->time > since->time)
    {
      hp_capture_writer_add_event_sample (self->writer, since->event_id, since->time,
                                          (gint32) rec->tid, (gint32) since->cpu,
                                          since->stack_id, rec->time - since->time);
      self->stats.samples++;
    }
  g_hash_table_remove (self->off_cpu_since, GUINT_TO_POINTER (rec->tid));
}

void
hp_processor_map_event (HpProcessor *self,
                        guint64      perf_id,
                        gint64       event_id,
                        gboolean     off_cpu,
                        guint64      period)
{
  EventMap *map = g_new (EventMap, 1);

  g_return_if_fail (self != NULL);

  map->event_id = event_id;
  map->off_cpu = off_cpu;
  map->period = period;
  g_hash_table_insert (self->event_ids, g_memdup2 (&perf_id, sizeof perf_id), map);
}

static void
process_mmap (HpProcessor        *self,
              const HpPerfRecord *rec)
{
  const char *filename = rec->mmap.filename;
  HpModule *module = NULL;
  Process *process;

  if (rec->pid == (guint32) -1)
    return; /* the kernel's own maps: kallsyms covers them */
  if (rec->type == PERF_RECORD_MMAP2 && !(rec->mmap.prot & PROT_EXEC))
    return;

  process = get_process (self, rec->pid);
  if (hp_jitdump_is_path (filename))
    {
      /* Not code: the runtime maps its jitdump so that profilers know
       * where it is. */
      if (process->jitdump == NULL && g_strcmp0 (process->jitdump_path, filename) != 0)
        {
          /* Code compiled before the runtime opened its jitdump may have
           * made us look for one already: look again, at this file. */
          g_free (process->jitdump_path);
          process->jitdump_path = g_strdup (filename);
          process->jitdump_searched = FALSE;
        }
      return;
    }
  if (filename[0] == '/' && !is_anonymous_name (filename))
    module = hp_symbolizer_get_module (self->symbolizer, filename,
                                       rec->mmap.build_id_size ? rec->mmap.build_id : NULL,
                                       rec->mmap.build_id_size);
  else if (strcmp (filename, "[vdso]") == 0)
    module = hp_symbolizer_get_vdso_module (self->symbolizer, rec->pid, rec->mmap.addr, rec->mmap.len,
                                            rec->mmap.build_id_size ? rec->mmap.build_id : NULL,
                                            rec->mmap.build_id_size);
  hp_address_space_add (process->space, rec->mmap.addr, rec->mmap.len, rec->mmap.pgoff,
                        filename, module);
  process->generation++;
}

void
hp_processor_process (HpProcessor        *self,
                      const HpPerfRecord *rec)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (rec != NULL);

  switch (rec->type)
    {
    case PERF_RECORD_SAMPLE:
      process_sample (self, rec);
      break;

    case PERF_RECORD_MMAP:
    case PERF_RECORD_MMAP2:
      process_mmap (self, rec);
      break;

    case PERF_RECORD_COMM:
      if (rec->comm.exec)
        {
          Process *process = get_process (self, rec->pid);

          hp_address_space_clear (process->space);
          process->generation++;
          hp_unwinder_forget_process (self->unwinder, rec->pid);
        }
      set_thread_name (self, rec->pid, rec->tid, rec->comm.comm);
      break;

    case PERF_RECORD_FORK:
      {
        const char *parent_name = g_hash_table_lookup (self->thread_names, GUINT_TO_POINTER (rec->fork.ptid));

        if (rec->pid != rec->fork.ppid)
          {
            Process *parent = get_process (self, rec->fork.ppid);
            Process *child = get_process (self, rec->pid);

            hp_address_space_free (child->space);
            child->space = hp_address_space_copy (parent->space);
            child->generation++;
          }
        if (parent_name != NULL)
          {
            g_autofree char *name = g_strdup (parent_name);

            set_thread_name (self, rec->pid, rec->tid, name);
          }
      }
      break;

    case PERF_RECORD_EXIT:
      if (rec->pid == rec->tid)
        hp_unwinder_forget_process (self->unwinder, rec->pid);
      break;

    case PERF_RECORD_LOST:
    case PERF_RECORD_LOST_SAMPLES:
      self->stats.lost += rec->lost.lost;
      break;

    case PERF_RECORD_THROTTLE:
      self->stats.throttled++;
      break;

    case PERF_RECORD_SWITCH:
    case PERF_RECORD_SWITCH_CPU_WIDE:
      process_switch (self, rec);
      break;

    default:
      break;
    }
}

static void
push (HpProcessor           *self,
      const HpPerfEventInfo *info,
      const guint8          *data,
      gsize                  size,
      gboolean               copy,
      GByteArray            *holder)
{
  HpPerfRecord rec;
  Queued q;
  g_autoptr(GError) error = NULL;

  if (!hp_perf_record_decode (info, data, size, &rec, &error))
    {
      self->stats.bad_records++;
      g_debug ("skipping record: %s", error->message);
      return;
    }

  /* Records without a time (no sample_id_all) are processed in arrival order. */
  q.time = rec.has_time ? rec.time : self->round_max_time;
  q.seq = self->seq++;
  q.info = info;
  q.size = rec.size;
  q.owned = copy;
  q.bytes = copy ? g_memdup2 (data, rec.size) : data;
  q.holder = holder != NULL ? g_byte_array_ref (holder) : NULL;
  g_array_append_val (self->queue, q);
  self->round_max_time = MAX (self->round_max_time, q.time);
}

void
hp_processor_push (HpProcessor           *self,
                   const HpPerfEventInfo *info,
                   const guint8          *data,
                   gsize                  size)
{
  g_return_if_fail (self != NULL);

  push (self, info, data, size, TRUE, NULL);
}

void
hp_processor_push_lasting (HpProcessor           *self,
                           const HpPerfEventInfo *info,
                           const guint8          *data,
                           gsize                  size)
{
  g_return_if_fail (self != NULL);

  push (self, info, data, size, FALSE, NULL);
}

void
hp_processor_push_held (HpProcessor           *self,
                        const HpPerfEventInfo *info,
                        const guint8          *data,
                        gsize                  size,
                        GByteArray            *holder)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (holder != NULL);
  g_return_if_fail (data >= holder->data && data + size <= holder->data + holder->len);

  push (self, info, data, size, FALSE, holder);
}

static int
compare_queued (gconstpointer a,
                gconstpointer b)
{
  const Queued *qa = a, *qb = b;

  if (qa->time != qb->time)
    return qa->time < qb->time ? -1 : 1;
  return qa->seq < qb->seq ? -1 : (qa->seq > qb->seq);
}

static void
process_queued_up_to (HpProcessor *self,
                      guint64      limit)
{
  guint n = 0;

  g_array_sort (self->queue, compare_queued);
  while (n < self->queue->len && g_array_index (self->queue, Queued, n).time <= limit)
    {
      Queued *q = &g_array_index (self->queue, Queued, n);
      HpPerfRecord rec;

      if (hp_perf_record_decode (q->info, q->bytes, q->size, &rec, NULL))
        {
          /* The register layout of a sample is the event's sample_regs_user. */
          self->current_info = q->info;
          hp_processor_process (self, &rec);
          self->current_info = NULL;
        }
      n++;
    }
  if (n > 0)
    g_array_remove_range (self->queue, 0, n);
}

void
hp_processor_finish_round (HpProcessor *self)
{
  g_return_if_fail (self != NULL);

  process_queued_up_to (self, self->flush_limit);
  self->flush_limit = self->round_max_time;
}

void
hp_processor_flush (HpProcessor *self)
{
  g_return_if_fail (self != NULL);

  process_queued_up_to (self, G_MAXUINT64);
}

HpSymbolizer *
hp_processor_get_symbolizer (HpProcessor *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->symbolizer;
}

void
hp_processor_get_stats (HpProcessor      *self,
                        HpProcessorStats *stats)
{
  g_return_if_fail (self != NULL);

  *stats = self->stats;
}

/* What was wrong with the maps that were read, for the overview and the
 * report header: one sentence per file, appended to @notes. */
static void
append_jit_warnings (HpProcessor *self,
                     GString     *notes)
{
  GHashTableIter iter;
  Process *process;

  g_hash_table_iter_init (&iter, self->processes);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &process))
    {
      char *warning[2];

      /* A record the runtime was still writing when the file was last
       * read is whole by now, unless the file really ends in it: read
       * what was added before judging it. */
      if (process->jitdump != NULL)
        hp_jitdump_update (process->jitdump);
      warning[0] = process->perf_map ? hp_perf_map_get_warning (process->perf_map) : NULL;
      warning[1] = process->jitdump ? hp_jitdump_get_warning (process->jitdump) : NULL;
      for (guint i = 0; i < G_N_ELEMENTS (warning); i++)
        {
          if (warning[i] == NULL)
            continue;
          g_message ("%s", warning[i]);
          if (notes->len > 0)
            g_string_append_c (notes, '\n');
          g_string_append (notes, warning[i]);
          g_free (warning[i]);
        }
    }
}

void
hp_processor_add_perf_map_dir (HpProcessor *self,
                               const char  *dir)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (dir != NULL);

  /* Before the default /tmp: maps kept beside a perf.data are its own. */
  g_ptr_array_insert (self->perf_map_dirs, (gint) self->perf_map_dirs->len - 1, g_strdup (dir));
}

void
hp_processor_write_stats (HpProcessor *self)
{
  g_autoptr(GString) notes = NULL;
  const GPtrArray *symbolizer_notes;

  g_return_if_fail (self != NULL);

  notes = g_string_new (NULL);
  resolve_pending_jit_frames (self);
  hp_capture_writer_set_metadata_int (self->writer, HP_META_LOST_SAMPLES, (gint64) self->stats.lost);
  hp_capture_writer_set_metadata_int (self->writer, HP_META_THROTTLE_EVENTS, (gint64) self->stats.throttled);
  hp_capture_writer_set_metadata_int (self->writer, HP_META_TRUNCATED_STACKS, (gint64) self->stats.truncated);
  hp_capture_writer_set_metadata_int (self->writer, HP_META_COMPLETE_STACKS, (gint64) self->stats.complete);
  hp_capture_writer_set_metadata_int (self->writer, HP_META_TRUNCATED_STACK_COPY, (gint64) self->stats.truncated_copy);
  hp_capture_writer_set_metadata_int (self->writer, HP_META_TRUNCATED_AT_JIT, (gint64) self->stats.truncated_at_jit);
  hp_capture_writer_set_metadata_int (self->writer, HP_META_UNRESOLVED_FRAMES, (gint64) self->stats.unresolved_frames);

  /* One key for every sentence about missing symbols, whoever found it. */
  symbolizer_notes = hp_symbolizer_get_notes (self->symbolizer);
  for (guint i = 0; i < symbolizer_notes->len; i++)
    g_string_append_printf (notes, "%s%s", notes->len > 0 ? "\n" : "",
                            (const char *) g_ptr_array_index (symbolizer_notes, i));
  append_jit_warnings (self, notes);
  if (notes->len > 0)
    hp_capture_writer_set_metadata (self->writer, HP_META_SYMBOL_NOTES, notes->str);
}

void
hp_processor_set_start_time (HpProcessor *self,
                             guint64      time)
{
  g_return_if_fail (self != NULL);

  self->start_time = time;
}

void
hp_processor_set_live (HpProcessor *self,
                       gboolean     live)
{
  g_return_if_fail (self != NULL);

  hp_symbolizer_set_live (self->symbolizer, live);
}
