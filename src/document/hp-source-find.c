/* hp-source-find.c - finding a recorded source file on this machine
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A capture names source files as the compiler saw them, often on another
 * machine or in a build folder since removed. The folders the user gave
 * (the window's source-paths setting) are tried with ever shorter tails
 * of the recorded path, so that a checkout anywhere is found.
 *
 * A capture is mailed around, and what it names is read and shown: the
 * source pane, the comparison's details and Suggest (whose draft goes to
 * a summarizer command that may send it anywhere) all read a file only
 * through hp_source_find_file(). A capture that declared a function at
 * /etc/shadow, ~/.ssh/id_rsa or "../../.ssh/id_rsa" showed that file's
 * text when the function was selected; a file is now read only when its
 * real path (past links and "..") is a regular file named as source code,
 * and a name relative to a source folder stays inside it.
 */

#define G_LOG_DOMAIN "hp-document"

#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "document/hp-source-find.h"

gboolean
hp_source_is_code_name (const char *path)
{
  /* compared without regard to case: compilers take .C and .H as C++,
   * .F, .FOR and .F90 to .F08 as Fortran to preprocess, and .S as
   * assembly to preprocess (.s is assembly as it is) */
  static const char *const extensions[] = {
    "c", "h", "cc", "cp", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "tpp", "tcc",
    "txx", "inl", "inc", "def", "cppm", "ixx", "mpp", "cu", "cuh", "hip", "cl", "ispc", "m",
    "mm", "s", "asm", "rs", "go", "py", "pyx", "pxd", "pxi", "java", "kt", "kts", "scala", "js",
    "mjs", "cjs", "ts", "mts", "cts", "tsx", "jsx", "swift", "zig", "d", "f", "for", "f77",
    "f90", "f95", "f03", "f08", "cs", "fs", "rb", "php", "pl", "pm", "lua", "ml", "mli", "hs",
    "erl", "hrl", "ex", "exs", "dart", "jl", "nim", "v", "sv", "vala", "y", "yy", "l", "ll",
    "wat", "sol", "ads", "adb",
  };
  g_autofree char *base = NULL;
  const char *dot;

  g_return_val_if_fail (path != NULL, FALSE);

  base = g_path_get_basename (path);
  dot = strrchr (base, '.');
  if (dot == NULL || dot == base)
    {
      g_autofree char *dir = g_path_get_dirname (path);
      g_auto(GStrv) parts = g_strsplit (dir, G_DIR_SEPARATOR_S, -1);

      return dot == NULL && g_strv_contains ((const char *const *) parts, "include");
    }
  for (guint i = 0; i < G_N_ELEMENTS (extensions); i++)
    if (g_ascii_strcasecmp (dot + 1, extensions[i]) == 0)
      return TRUE;
  return FALSE;
}

/* Whether @candidate, with its ".." taken away (not its links: a link in
 * the user's own folder is the user's), is @folder or below it. */
static gboolean
is_inside (const char *candidate,
           const char *folder)
{
  g_autofree char *dir = g_canonicalize_filename (folder, NULL);
  g_autofree char *name = g_canonicalize_filename (candidate, NULL);
  gsize n = strlen (dir);

  if (strcmp (dir, "/") == 0)
    return TRUE;
  return strncmp (name, dir, n) == 0 && (name[n] == '\0' || name[n] == '/');
}

/* The real path of @candidate, an existing file, when it may be read;
 * else NULL, and the first refusal's reason in @refused. */
static char *
accept (const char  *candidate,
        const char  *folder,
        char       **refused)
{
  g_autofree char *real = NULL;
  g_autofree char *reason = NULL;
  GStatBuf st;

  if (folder != NULL && !is_inside (candidate, folder))
    /* Translators: a file name from the capture, then a folder */
    reason = g_strdup_printf (_("%s leads out of the source folder %s with “..”"), candidate, folder);
  else if ((real = realpath (candidate, NULL)) == NULL || g_stat (real, &st) != 0)
    return NULL;  /* gone, or not ours to look into: not there */
  else if (!S_ISREG (st.st_mode))
    reason = g_strdup_printf (_("%s is not a regular file"), real);
  else if (!hp_source_is_code_name (real))
    reason = g_strdup_printf (_("%s is not named as source code (a capture may name any file; "
                                "only files with a source-code extension such as .c, .rs or .py are read)"),
                              real);
  else
    return g_steal_pointer (&real);
  if (*refused == NULL)
    *refused = g_steal_pointer (&reason);
  return NULL;
}

/* How many components of a name are tried as tails under a folder: a
 * source tree is not deeper, and each tail costs a look at the disk */
#define MAX_COMPONENTS 256

/* Why @file is too long to be a file's name here, or NULL. A capture may
 * name anything up to 64 MiB: a name of 640 000 "a/" took 20 s to look
 * for, every tail once under each folder, each time a function was
 * selected. */
static char *
too_long (const char *file)
{
  gsize length = strlen (file);
  guint components = 0;
  g_autofree char *start = NULL;

  for (const char *p = file; *p != '\0' && components <= MAX_COMPONENTS; p++)
    if (*p != '/' && (p == file || p[-1] == '/'))
      components++;
  if (length <= PATH_MAX && components <= MAX_COMPONENTS)
    return NULL;
  /* the name itself may be megabytes: its start only */
  start = g_utf8_make_valid (file, MIN (length, 64));
  if (length > PATH_MAX)
    /* Translators: the start of a file name from the capture, its length
     * in bytes, then the longest a file name can be */
    return g_strdup_printf (_("the file name “%s…” is %zu bytes long, longer than "
                              "a file name can be (%d)"), start, length, PATH_MAX);
  /* Translators: the start of a file name from the capture, then a number */
  return g_strdup_printf (_("the file name “%s…” has more than %d folders, more than a source "
                            "tree has"), start, MAX_COMPONENTS);
}

char *
hp_source_find_file (const char         *file,
                     const char * const *dirs,
                     GPtrArray          *looked_in,
                     GCancellable       *cancellable,
                     GError            **error)
{
  g_autofree char *refused = NULL;

  g_return_val_if_fail (file != NULL, NULL);

  if ((refused = too_long (file)) != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME, refused);
      return NULL;
    }
  if (g_path_is_absolute (file) && g_file_test (file, G_FILE_TEST_EXISTS))
    {
      char *real = accept (file, NULL, &refused);

      if (real != NULL)
        return real;
    }

  for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++)
    {
      const char *suffix = file;

      if (looked_in != NULL)
        g_ptr_array_add (looked_in, g_strdup (dirs[i]));
      /* FOLDER/a/b/c.c, FOLDER/b/c.c, FOLDER/c.c: at most MAX_COMPONENTS */
      while (suffix != NULL && *suffix != '\0')
        {
          g_autofree char *candidate = NULL;

          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return NULL;
          while (*suffix == '/')
            suffix++;
          candidate = g_build_filename (dirs[i], suffix, NULL);
          if (g_file_test (candidate, G_FILE_TEST_EXISTS))
            {
              char *real = accept (candidate, dirs[i], &refused);

              if (real != NULL)
                return real;
            }
          suffix = strchr (suffix, '/');
        }
    }
  if (refused != NULL)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, refused);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s was not found"), file);
  return NULL;
}
