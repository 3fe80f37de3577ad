/* hp-disassembly.c - a sampled function's machine code with its samples per source line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * When a function's source is not on this machine, the source pane shows
 * its machine code instead, so that it is never empty. The disassembler
 * is binutils' objdump, run as a child process: a well-kept tool that
 * knows every instruction set and reads DWARF line tables (-l) with the
 * chain of inlined calls (--inlines), and whose crash or hang on a hostile
 * file cannot take the window with it. It runs under a deadline, its
 * output is cut at MAX_OUTPUT, and only the function's own address range
 * is asked for.
 *
 * The file: the module's recorded path, or a copy found by build id (the
 * same search the symbolizer makes, hp-file-locator). A file whose build
 * id is not the recorded one was rebuilt since the recording: its code
 * says nothing about the samples, and the error says so.
 *
 * The function: the capture names it by demangled name and keeps, per
 * frame, the file offset of the first address seen at each of its source
 * lines. That offset, made an address through the program headers, lies
 * inside the function, and the ELF symbol table (.symtab, else .dynsym,
 * of the file or of its separate debug file) gives the symbol around it
 * and so the range to disassemble. Stripped code without a debug file has
 * no symbol: the .eh_frame FDE around it, which unwinding needs and strip
 * keeps, gives the range, as it gave the name module+0xSTART.
 *
 * The samples: a capture keeps a frame per source line, not a count per
 * instruction (schema.sql, frames), so costs are per line. objdump -l
 * --inlines names, before the instructions of each location, the line and
 * the lines it was inlined at; the outermost of those is the function's
 * own line, the one its frames count inlined code at
 * (hp_source_annotation_new), so each run of instructions is headed by
 * that line with its self and total samples, the numbers the source pane
 * would show beside it. The address each sampled line was first seen at
 * is marked.
 */

#define G_LOG_DOMAIN "hp-document"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <gio/gunixinputstream.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>

#include "analysis/hp-profile.h"
#include "analysis/hp-symbol-name.h"
#include "document/hp-disassembly.h"
#include "perf/hp-regular-file.h"
#include "symbols/hp-file-locator.h"
#include "symbols/hp-symbolizer.h"

/* objdump's output kept, at most: a function of 100 000 instructions */
#define MAX_OUTPUT (8 * 1024 * 1024)
/* the largest function disassembled; larger symbols are bad data */
#define MAX_FUNCTION_SIZE (4 * 1024 * 1024)

G_DEFINE_QUARK (hp-disassembly-error-quark, hp_disassembly_error)

const char *
hp_disassembly_get_objdump (void)
{
  const char *env = g_getenv ("HOTPATH_OBJDUMP");

  return env != NULL && *env != '\0' ? env : "objdump";
}

void
hp_disassembly_free (HpDisassembly *self)
{
  if (self == NULL)
    return;
  g_free (self->text);
  g_clear_pointer (&self->rows, hp_source_annotation_free);
  g_free (self->binary);
  g_free (self->module_path);
  g_free (self->symbol);
  g_free (self);
}

/* The ELF file ------------------------------------------------------- */

static char *
elf_build_id (Elf *elf)
{
  const void *id = NULL;
  ssize_t len = dwelf_elf_gnu_build_id (elf, &id);

  return len > 0 ? hp_build_id_to_hex (id, (gsize) len) : NULL;
}

/* The address of file offset @offset, through the loadable segments */
static gboolean
offset_to_address (Elf     *elf,
                   guint64  offset,
                   guint64 *address)
{
  size_t n = 0;

  if (elf_getphdrnum (elf, &n) != 0)
    return FALSE;
  for (size_t i = 0; i < n; i++)
    {
      GElf_Phdr mem, *ph = gelf_getphdr (elf, (int) i, &mem);

      if (ph != NULL && ph->p_type == PT_LOAD && (ph->p_flags & PF_X) &&
          offset >= ph->p_offset && offset - ph->p_offset < ph->p_filesz)
        {
          *address = offset - ph->p_offset + ph->p_vaddr;
          return TRUE;
        }
    }
  return FALSE;
}

/* The function symbol of @elf that covers @address: its range and name */
static gboolean
find_symbol (Elf      *elf,
             guint64   address,
             guint64  *start,
             guint64  *end,
             char    **name)
{
  for (guint pass = 0; pass < 2; pass++)
    {
      Elf_Scn *scn = NULL;

      while ((scn = elf_nextscn (elf, scn)) != NULL)
        {
          GElf_Shdr shdr;
          Elf_Data *data;
          gsize n;

          if (gelf_getshdr (scn, &shdr) == NULL ||
              shdr.sh_type != (pass == 0 ? SHT_SYMTAB : SHT_DYNSYM) ||
              shdr.sh_entsize == 0 || (data = elf_getdata (scn, NULL)) == NULL)
            continue;
          n = data->d_size / shdr.sh_entsize;
          for (gsize i = 0; i < n; i++)
            {
              GElf_Sym sym;
              const char *s;

              if (gelf_getsym (data, (int) i, &sym) == NULL || GELF_ST_TYPE (sym.st_info) != STT_FUNC ||
                  sym.st_shndx == SHN_UNDEF || sym.st_size == 0 ||
                  address < sym.st_value || address - sym.st_value >= sym.st_size)
                continue;
              s = elf_strptr (elf, shdr.sh_link, sym.st_name);
              *start = sym.st_value;
              *end = sym.st_value + MIN (sym.st_size, (guint64) MAX_FUNCTION_SIZE);
              *name = g_strdup (s != NULL ? s : "");
              return TRUE;
            }
        }
    }
  return FALSE;
}

/* objdump names a versioned dynamic symbol with its version, "foo@@Base"
 * or "memcpy@GLIBC_2.2.5": the function is "foo". Cut at the '@' of a
 * version, a word of letters, digits, '_' and '.' that ends the name. */
static void
strip_symbol_version (char *name)
{
  char *at = strrchr (name, '@');

  if (at == NULL || at == name || at[1] == '\0')
    return;
  for (const char *c = at + 1; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '_' && *c != '.')
      return;
  if (at - 1 > name && at[-1] == '@')
    at--;
  *at = '\0';
}

typedef struct {
  int  fd;
  Elf *elf;
} ElfFile;

static void
elf_file_close (ElfFile *f)
{
  if (f->elf != NULL)
    elf_end (f->elf);
  if (f->fd >= 0)
    close (f->fd);
  f->elf = NULL;
  f->fd = -1;
}

static gboolean
elf_file_open (ElfFile    *f,
               const char *path)
{
  f->elf = NULL;
  /* the path comes from the capture: a FIFO there would block the
   * thread for ever, a device would be read as code */
  f->fd = hp_regular_file_open (path, NULL);
  if (f->fd < 0)
    return FALSE;
  elf_version (EV_CURRENT);
  f->elf = elf_begin (f->fd, ELF_C_READ_MMAP, NULL);
  if (f->elf == NULL || elf_kind (f->elf) != ELF_K_ELF)
    {
      elf_file_close (f);
      return FALSE;
    }
  return TRUE;
}

/* objdump ------------------------------------------------------------ */

static gboolean
drain (int      fd,
       GString *into,
       gsize    max)
{
  char buf[16384];
  ssize_t n = read (fd, buf, sizeof buf);

  if (n < 0)
    return errno == EINTR || errno == EAGAIN;
  if (n == 0)
    return FALSE;
  if (into->len < max)
    g_string_append_len (into, buf, MIN ((gsize) n, max - into->len));
  return TRUE;
}

/* Runs @argv and returns its output; stops it after @timeout_ms, at
 * @cancellable, or once it wrote MAX_OUTPUT. */
static char *
run_objdump (const char * const *argv,
             guint               timeout_ms,
             GCancellable       *cancellable,
             GError            **error)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) err = g_string_new (NULL);
  g_autoptr(GError) local = NULL;
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  GPollFD cancel_fd = { -1, 0, 0 };
  int out_fd, err_fd;
  gboolean out_open = TRUE, err_open = TRUE, timed_out = FALSE, cancelled = FALSE;
  gboolean with_cancel;

  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C", TRUE);
  proc = g_subprocess_launcher_spawnv (launcher, argv, &local);
  if (proc == NULL)
    {
      g_set_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_FAILED,
                   _("Cannot run %s, which disassembles (install binutils): %s"), argv[0], local->message);
      return NULL;
    }
  out_fd = g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (g_subprocess_get_stdout_pipe (proc)));
  err_fd = g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (g_subprocess_get_stderr_pipe (proc)));
  with_cancel = cancellable != NULL && g_cancellable_make_pollfd (cancellable, &cancel_fd);

  while ((out_open || err_open) && out->len <= MAX_OUTPUT)
    {
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
      GPollFD fds[3];
      guint n = 0, out_i = G_MAXUINT, err_i = G_MAXUINT;

      if (left <= 0)
        {
          timed_out = TRUE;
          break;
        }
      if (g_cancellable_is_cancelled (cancellable))
        {
          cancelled = TRUE;
          break;
        }
      if (out_open)
        {
          out_i = n;
          fds[n++] = (GPollFD) { .fd = out_fd, .events = G_IO_IN | G_IO_HUP | G_IO_ERR };
        }
      if (err_open)
        {
          err_i = n;
          fds[n++] = (GPollFD) { .fd = err_fd, .events = G_IO_IN | G_IO_HUP | G_IO_ERR };
        }
      if (with_cancel)
        fds[n++] = (GPollFD) { .fd = cancel_fd.fd, .events = G_IO_IN };
      if (g_poll (fds, n, (gint) MIN (left, G_MAXINT)) < 0 && errno != EINTR)
        break;
      if (out_i != G_MAXUINT && fds[out_i].revents != 0)
        out_open = drain (out_fd, out, MAX_OUTPUT + 1);
      if (err_i != G_MAXUINT && fds[err_i].revents != 0)
        err_open = drain (err_fd, err, 4096);
    }
  if (with_cancel)
    g_cancellable_release_fd (cancellable);
  if (out_open || err_open)
    g_subprocess_force_exit (proc);
  g_subprocess_wait (proc, NULL, NULL);

  if (cancelled)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
      return NULL;
    }
  if (timed_out)
    {
      g_set_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_FAILED,
                   _("%s took longer than %u s and was stopped"), argv[0], (timeout_ms + 999) / 1000);
      return NULL;
    }
  if (!g_subprocess_get_if_exited (proc) || g_subprocess_get_exit_status (proc) != 0)
    {
      g_autofree char *why = g_utf8_make_valid (g_strstrip (err->str), -1);

      g_set_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_FAILED,
                   _("%s failed: %s"), argv[0], *why ? why : _("no message"));
      return NULL;
    }
  if (out->len > MAX_OUTPUT)
    {
      /* keep whole lines */
      char *nl = memrchr (out->str, '\n', MAX_OUTPUT);

      g_string_truncate (out, nl != NULL ? (gsize) (nl - out->str) + 1 : 0);
    }
  return g_utf8_make_valid (out->str, (gssize) out->len);
}

/* Parsing ------------------------------------------------------------ */

/* "PATH:LINE" or "PATH:LINE (discriminator N)": the line, 0 if not one */
static guint
parse_location (const char  *text,
                char       **file)
{
  g_autofree char *copy = g_strdup (text);
  char *paren = strstr (copy, " (");
  char *colon, *end = NULL;
  guint64 line;

  if (paren != NULL)
    *paren = '\0';
  colon = strrchr (copy, ':');
  if (colon == NULL || colon == copy || colon[1] == '\0')
    return 0;
  line = g_ascii_strtoull (colon + 1, &end, 10);
  if (end == colon + 1 || *end != '\0' || line == 0 || line > G_MAXUINT)
    return 0;
  *colon = '\0';
  *file = g_strdup (copy);
  return (guint) line;
}

static gboolean
same_file (const char *a,
           const char *b)
{
  const char *ba, *bb;

  if (a == NULL || b == NULL)
    return TRUE;  /* nothing to tell them apart by */
  if (g_strcmp0 (a, b) == 0)
    return TRUE;
  ba = strrchr (a, '/');
  bb = strrchr (b, '/');
  return g_strcmp0 (ba ? ba + 1 : a, bb ? bb + 1 : b) == 0;
}

typedef struct {
  GString                  *text;
  GArray                   *rows;        /* HpSourceLine by row */
  const HpSourceAnnotation *lines;
  GHashTable               *hot;         /* addresses: GSIZE_TO_POINTER */
  guint                     n_rows;
  guint                     n_instructions;
  /* the location of the instructions that follow: the function's own
   * line, and the function inlined there (NULL: none) */
  char                     *file;
  guint                     line;
  char                     *inlined;
  char                     *named;       /* the last "name():" */
  gboolean                  changed;
  /* what the last header row named */
  char                     *shown_file;
  guint                     shown_line;
  char                     *shown_inlined;
} Parse;

static void
parse_clear (Parse *p)
{
  g_free (p->file);
  g_free (p->inlined);
  g_free (p->named);
  g_free (p->shown_file);
  g_free (p->shown_inlined);
}

static const HpSourceLine *
line_samples (const HpSourceAnnotation *lines,
              const char               *file,
              guint                     line)
{
  if (lines == NULL || line == 0 || !same_file (lines->file, file))
    return NULL;
  for (guint i = 0; i < lines->lines->len; i++)
    {
      const HpSourceLine *l = &g_array_index (lines->lines, HpSourceLine, i);

      if (l->line == line)
        return l;
    }
  return NULL;
}

static void
add_header (Parse *p)
{
  const HpSourceLine *samples = line_samples (p->lines, p->file, p->line);
  g_autofree char *base = p->file ? g_path_get_basename (p->file) : NULL;

  p->n_rows++;
  if (base != NULL)
    g_string_append_printf (p->text, "%s:%u", base, p->line);
  else
    g_string_append (p->text, _("(no line information)"));
  if (p->inlined != NULL)
    /* Translators: after "file.c:12", the function inlined at that line */
    g_string_append_printf (p->text, _("  (inlined %s)"), p->inlined);
  g_string_append_c (p->text, '\n');
  if (samples != NULL)
    {
      HpSourceLine row = *samples;

      row.line = p->n_rows;
      g_array_append_val (p->rows, row);
    }
  g_free (p->shown_file);
  p->shown_file = g_strdup (p->file);
  p->shown_line = p->line;
  g_free (p->shown_inlined);
  p->shown_inlined = g_strdup (p->inlined);
}

static void
set_location (Parse      *p,
              char       *file,
              guint       line,
              const char *inlined)
{
  g_free (p->file);
  p->file = file;
  p->line = line;
  g_free (p->inlined);
  p->inlined = g_strdup (inlined);
  p->changed = TRUE;
}

/* One line of objdump -d -l --inlines output. Before the instructions of
 * a location it prints "name():" when the function changes, the location
 * "PATH:LINE", and for inlined code "inlined by PATH:LINE (caller)" for
 * each call outwards; the last of those is the sampled function's line. */
static void
parse_line (Parse      *p,
            const char *line)
{
  const char *tab;
  char *file = NULL;
  guint n;

  if (g_str_has_prefix (line, "inlined by "))
    {
      n = parse_location (line + strlen ("inlined by "), &file);
      if (n > 0)
        set_location (p, file, n, p->named != NULL ? p->named : "?");
      return;
    }
  if (line[0] == ' ' && (tab = strchr (line, '\t')) != NULL)
    {
      /* "    11e0:\tmov ..." */
      char *end = NULL;
      guint64 address = g_ascii_strtoull (line, &end, 16);

      if (end == line || *end != ':')
        return;
      if (p->n_instructions == 0 ||
          (p->changed && (p->line != p->shown_line || !same_file (p->file, p->shown_file) ||
                          g_strcmp0 (p->inlined, p->shown_inlined) != 0)))
        add_header (p);
      p->changed = FALSE;
      p->n_rows++;
      p->n_instructions++;
      g_string_append_printf (p->text, "%s %8" G_GINT64_MODIFIER "x  %s\n",
                              g_hash_table_contains (p->hot, GSIZE_TO_POINTER (address)) ? "▸" : " ",
                              address, tab + 1);
      return;
    }
  if (g_str_has_suffix (line, ">:"))
    return;  /* "00000000000011e0 <hot_loop>:", the symbol */
  if (g_str_has_suffix (line, "():"))
    {
      g_free (p->named);
      p->named = g_strndup (line, strlen (line) - 3);
      return;
    }
  n = parse_location (line, &file);
  if (n > 0)
    set_location (p, file, n, NULL);
}

char *
hp_disassembly_get_heading (const HpDisassembly *self,
                            guint                max_chars,
                            char               **tooltip)
{
  g_autofree char *module = hp_symbol_name_sanitize (self->module_path, -1, max_chars);
  g_autofree char *symbol = hp_symbol_name_sanitize (self->symbol, -1, max_chars);
  /* Translators: the machine code of a symbol in a file */
  char *heading = g_strdup_printf (_("Machine code of %s in %s"), symbol, module);

  if (tooltip == NULL)
    return heading;
  /* a copy found by build id (perf's cache) is what was read: said, but
   * the module is named by its own path */
  if (g_strcmp0 (self->binary, self->module_path) != 0)
    {
      g_autofree char *binary = hp_symbol_name_sanitize (self->binary, -1, max_chars);

      /* Translators: the heading, then the file whose code was shown */
      *tooltip = g_strdup_printf (_("%s\nRead from a copy with the same build id: %s"), heading, binary);
    }
  else
    *tooltip = g_strdup (heading);
  return heading;
}

/* The function -------------------------------------------------------- */

HpDisassembly *
hp_disassembly_new (HpProfile          *profile,
                    gint64              function_id,
                    const char * const *search_dirs,
                    guint               timeout_ms,
                    GCancellable       *cancellable,
                    GError            **error)
{
  const HpCaptureData *data;
  const HpCaptureFunction *function;
  const HpCaptureModule *module;
  g_autoptr(HpFileLocator) locator = hp_file_locator_new ();
  g_autoptr(GPtrArray) candidates = NULL;
  g_autoptr(GPtrArray) debug_files = NULL;
  g_autoptr(HpDisassembly) self = NULL;
  g_autoptr(GHashTable) hot = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autofree char *other_build_id = NULL;
  g_autofree char *other_path = NULL;
  g_autofree char *output = NULL;
  g_autofree char *start_arg = NULL;
  g_autofree char *stop_arg = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(HpSourceAnnotation) annotation = NULL;
  ElfFile code = { -1, NULL };
  guint64 address = 0, fde_start = 0, fde_end = 0;
  gboolean have_symbol = FALSE, have_fde = FALSE, unnamed = FALSE;
  Parse p = { 0 };

  g_return_val_if_fail (profile != NULL, NULL);

  data = hp_profile_get_data (profile);
  if (function_id <= 0 || (guint64) function_id >= data->functions->len)
    {
      g_set_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_NO_CODE, _("No such function"));
      return NULL;
    }
  function = &g_array_index (data->functions, HpCaptureFunction, function_id);
  module = function->module_id > 0 && (guint64) function->module_id < data->modules->len
           ? &g_array_index (data->modules, HpCaptureModule, function->module_id) : NULL;
  if (module == NULL || module->path == NULL || module->path[0] != '/' || module->is_kernel)
    {
      g_set_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_NO_CODE,
                   module != NULL && module->is_kernel
                   ? _("Kernel code is not disassembled here (perf annotate can, with /proc/kcore).")
                   : _("Its code is not in a file (%s): compiled at run time, or of an unknown module."),
                   module != NULL && module->name != NULL ? module->name : _("no module"));
      return NULL;
    }

  /* the addresses the function's lines were first seen at */
  for (guint i = 1; i < data->frames->len; i++)
    {
      const HpCaptureFrame *f = &g_array_index (data->frames, HpCaptureFrame, i);

      if (f->function_id == function_id && !f->is_inline)
        g_array_append_val (offsets, f->offset);
    }
  if (offsets->len == 0)
    {
      g_set_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_NO_SYMBOL,
                   _("The capture holds no address of %s."), function->name);
      return NULL;
    }

  for (guint i = 0; search_dirs != NULL && search_dirs[i] != NULL; i++)
    hp_file_locator_add_debug_dir (locator, search_dirs[i]);
  candidates = hp_file_locator_find (locator, module->path, module->build_id, HP_FILE_LOCATE_CODE);
  for (guint i = 0; i < candidates->len; i++)
    {
      const char *path = g_ptr_array_index (candidates, i);
      g_autofree char *id = NULL;

      if (!elf_file_open (&code, path))
        continue;
      id = elf_build_id (code.elf);
      if (module->build_id == NULL || g_strcmp0 (id, module->build_id) == 0)
        {
          self = g_new0 (HpDisassembly, 1);
          self->binary = g_strdup (path);
          self->module_path = g_strdup (module->path);
          self->verified = module->build_id != NULL;
          break;
        }
      if (other_path == NULL)
        {
          other_path = g_strdup (path);
          other_build_id = g_steal_pointer (&id);
        }
      elf_file_close (&code);
    }
  if (self == NULL)
    {
      if (other_path != NULL)
        g_set_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_CHANGED,
                     _("%s has changed since the recording (build id %s, the recorded one is %s): "
                       "it was rebuilt or updated, so its code is not the code that was sampled."),
                     other_path, other_build_id ? other_build_id : _("none"), module->build_id);
      else if (module->build_id != NULL)
        /* Translators: a file's path, then the build id a copy of it would have */
        g_set_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_NOT_FOUND,
                     _("%s is not on this machine, nor a copy with build id %s."), module->path,
                     module->build_id);
      else
        g_set_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_NOT_FOUND,
                     _("%s is not on this machine."), module->path);
      return NULL;
    }

  for (guint i = 0; i < offsets->len; i++)
    {
      guint64 a;

      if (offset_to_address (code.elf, g_array_index (offsets, guint64, i), &a))
        {
          g_hash_table_add (hot, GSIZE_TO_POINTER (a));
          if (!have_symbol)
            {
              address = a;
              have_symbol = find_symbol (code.elf, a, &self->start, &self->end, &self->symbol);
              if (!have_symbol && !have_fde)
                have_fde = hp_elf_fde_bounds (code.elf, a, &fde_start, &fde_end);
            }
        }
    }
  elf_file_close (&code);
  if (!have_symbol && address != 0 && module->build_id != NULL)
    {
      /* a stripped file: the symbols are in its separate debug file */
      debug_files = hp_file_locator_find (locator, module->path, module->build_id, HP_FILE_LOCATE_DEBUG_INFO);
      for (guint i = 0; i < debug_files->len && !have_symbol; i++)
        if (elf_file_open (&code, g_ptr_array_index (debug_files, i)))
          {
            have_symbol = find_symbol (code.elf, address, &self->start, &self->end, &self->symbol);
            elf_file_close (&code);
          }
    }
  if (!have_symbol && have_fde && fde_end - fde_start <= MAX_FUNCTION_SIZE)
    {
      /* stripped, no debug file: the function's bounds from its unwind
       * table, the ones that name it module+0xSTART */
      self->start = fde_start;
      self->end = fde_end;
      self->symbol = g_strdup (function->name);
      unnamed = TRUE;
      have_symbol = TRUE;
    }
  if (!have_symbol)
    {
      g_set_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_NO_SYMBOL,
                   _("No function symbol of %s covers the addresses sampled in %s."), self->binary, function->name);
      return NULL;
    }

  start_arg = g_strdup_printf ("--start-address=0x%" G_GINT64_MODIFIER "x", self->start);
  stop_arg = g_strdup_printf ("--stop-address=0x%" G_GINT64_MODIFIER "x", self->end);
  {
    const char *argv[] = {
      hp_disassembly_get_objdump (), "--disassemble", "--line-numbers", "--inlines",
      "--no-show-raw-insn", "--demangle", "--wide", start_arg, stop_arg, self->binary, NULL
    };

    output = run_objdump (argv, timeout_ms, cancellable, error);
  }
  if (output == NULL)
    return NULL;

  p.text = g_string_new (NULL);
  p.rows = g_array_new (FALSE, FALSE, sizeof (HpSourceLine));
  p.lines = annotation = hp_source_annotation_new (profile, function_id);
  p.hot = hot;
  lines = g_strsplit (output, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    parse_line (&p, lines[i]);
  parse_clear (&p);

  self->n_instructions = p.n_instructions;
  self->rows = g_new0 (HpSourceAnnotation, 1);
  self->rows->lines = p.rows;
  {
    const HpSourceLine *best = NULL;

    /* the first row of the line with the most total samples (ties: self) */
    for (guint i = 0; i < p.rows->len; i++)
      {
        const HpSourceLine *l = &g_array_index (p.rows, HpSourceLine, i);

        if (best == NULL || l->total > best->total || (l->total == best->total && l->self > best->self))
          best = l;
      }
    self->rows->hottest_line = best != NULL ? best->line : 0;
  }
  self->rows->self = annotation->self;
  self->rows->total = annotation->total;
  self->rows->file = g_strdup (self->binary);
  self->length = p.text->len;
  self->text = g_string_free (p.text, FALSE);

  if (self->n_instructions == 0)
    {
      g_set_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_FAILED,
                   _("%s printed no instructions for %s in %s."), hp_disassembly_get_objdump (),
                   self->symbol, self->binary);
      return NULL;
    }
  /* objdump --demangle names the symbol in its header line; in stripped
   * code that is the nearest dynamic symbol or a section ("<.text+0x...>"),
   * which is not this function's name */
  if (!unnamed)
    {
      g_autofree char *shown = NULL;

      for (guint i = 0; lines[i] != NULL && shown == NULL; i++)
        if (g_str_has_suffix (lines[i], ">:"))
          {
            const char *lt = strchr (lines[i], '<');

            if (lt != NULL)
              shown = g_strndup (lt + 1, strlen (lt + 1) - 2);
          }
      if (shown != NULL)
        {
          strip_symbol_version (shown);
          g_free (self->symbol);
          self->symbol = g_steal_pointer (&shown);
        }
    }
  return g_steal_pointer (&self);
}
