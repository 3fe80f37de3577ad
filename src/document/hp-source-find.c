/* hp-source-find.c - finding a recorded source file on this machine
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A capture names source files as the compiler saw them, often on another
 * machine or in a build folder since removed. The folders the user gave
 * (the window's source-paths setting) are tried with ever shorter tails
 * of the recorded path, so that a checkout anywhere is found.
 */

#define G_LOG_DOMAIN "hp-document"

#include "config.h"

#include <string.h>

#include "document/hp-source-find.h"

char *
hp_source_find_file (const char         *file,
                     const char * const *dirs,
                     GPtrArray          *looked_in)
{
  g_return_val_if_fail (file != NULL, NULL);

  if (g_path_is_absolute (file) && g_file_test (file, G_FILE_TEST_IS_REGULAR))
    return g_strdup (file);

  for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++)
    {
      const char *suffix = file;

      if (looked_in != NULL)
        g_ptr_array_add (looked_in, g_strdup (dirs[i]));
      /* FOLDER/a/b/c.c, FOLDER/b/c.c, FOLDER/c.c */
      while (suffix != NULL && *suffix != '\0')
        {
          g_autofree char *candidate = NULL;

          while (*suffix == '/')
            suffix++;
          candidate = g_build_filename (dirs[i], suffix, NULL);
          if (g_file_test (candidate, G_FILE_TEST_IS_REGULAR))
            return g_steal_pointer (&candidate);
          suffix = strchr (suffix, '/');
        }
    }
  return NULL;
}
