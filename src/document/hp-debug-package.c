/* hp-debug-package.c - the Debian packages whose debugging symbols would name unsymbolized code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * "94 % of the samples are in code without symbols" is only useful with
 * what to do about it: on Debian, install the package's -dbgsym twin.
 * dpkg-query -S names the package that ships a mapped file. The report
 * and the window's overview ask here, so they name the same packages.
 * dpkg-query reads dpkg's whole file list, a few tenths of a second of
 * CPU: it is asked once for all the modules named, the window asks from
 * a worker, and answers are cached per path, so a filter change does not
 * ask again.
 */

#define G_LOG_DOMAIN "hp-document"

#include "config.h"

#include <string.h>

#include "analysis/hp-name-match.h"
#include "document/hp-debug-package.h"

/* A share below this (of all samples) is not worth a package name. */
#define MIN_PERMILLE 1

guint
hp_unsymbolized_main_modules (GArray  *unsymbolized,
                              guint64  n_samples)
{
  guint n = 0;

  if (unsymbolized == NULL)
    return 0;
  while (n < unsymbolized->len && n < HP_DEBUG_PACKAGES_MAX_MODULES)
    {
      const HpUnsymbolized *u = &g_array_index (unsymbolized, HpUnsymbolized, n);

      if (n > 0 && u->samples * 1000 < n_samples * MIN_PERMILLE)
        break;
      n++;
    }
  return n;
}

static GMutex cache_lock;
static GHashTable *cache;  /* path -> package, "" for none */

/* Whether @path may be handed to dpkg-query: a capture's path is text
 * from a file, so only an absolute path (never one it could read as an
 * option) on one line (its answer is one line per path). */
static gboolean
is_queryable (const char *path)
{
  return path != NULL && path[0] == '/' && strchr (path, '\n') == NULL;
}

/* The other name of @path on a merged-/usr system: dpkg knows
 * /lib/x/libfoo.so where the loader mapped /usr/lib/x/libfoo.so, and
 * /bin/gzip (Debian 12's gzip, sed, dash, grep) where the kernel mapped
 * /usr/bin/gzip. */
static const char *
unmerged_path (const char *path)
{
  static const char *const merged[] = { "/usr/lib/", "/usr/lib64/", "/usr/bin/", "/usr/sbin/" };

  for (guint i = 0; i < G_N_ELEMENTS (merged); i++)
    if (g_str_has_prefix (path, merged[i]))
      return path + strlen ("/usr");
  return NULL;
}

/* The package in the line of dpkg-query -S's answer that names @path
 * ("liblzma5:amd64: /usr/lib/x86_64-linux-gnu/liblzma.so.5.4.1"), or
 * NULL: no such line, or a diversion or several packages ("a, b: /path")
 * that name no one package. */
static char *
package_in_answer (char * const *lines,
                   const char   *path)
{
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      gsize len = strlen (line), path_len = strlen (path);
      g_autofree char *owner = NULL;
      char *colon;

      if (len < path_len + 2 || strcmp (line + len - path_len, path) != 0
          || line[len - path_len - 2] != ':' || line[len - path_len - 1] != ' ')
        continue;
      owner = g_strndup (line, len - path_len - 2);
      colon = strchr (owner, ':');
      if (colon != NULL)
        *colon = '\0';  /* the architecture */
      return owner[0] != '\0' && strpbrk (owner, " ,") == NULL ? g_steal_pointer (&owner) : NULL;
    }
  return NULL;
}

/* Asks dpkg about every path of @paths it was not asked about yet, in one
 * dpkg-query: each run reads dpkg's whole file list, about 0.4 s of CPU
 * on a desktop's 1000 packages, so a run per module made the report of a
 * capture with three unsymbolized modules take over a second. */
static void
query_packages (const char * const *paths)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GPtrArray) asked = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;

  g_ptr_array_add (argv, (gpointer) "dpkg-query");
  g_ptr_array_add (argv, (gpointer) "-S");
  g_mutex_lock (&cache_lock);
  if (cache == NULL)
    cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; paths[i] != NULL; i++)
    if (is_queryable (paths[i]) && !g_hash_table_contains (cache, paths[i])
        && !g_ptr_array_find_with_equal_func (asked, paths[i], g_str_equal, NULL))
      {
        g_ptr_array_add (asked, (gpointer) paths[i]);
        g_ptr_array_add (argv, (gpointer) paths[i]);
        if (unmerged_path (paths[i]) != NULL)
          g_ptr_array_add (argv, (gpointer) unmerged_path (paths[i]));
      }
  g_mutex_unlock (&cache_lock);
  if (asked->len == 0)
    return;
  g_ptr_array_add (argv, NULL);

  /* dpkg-query exits 1 when one of the paths belongs to no package; the
   * lines of the others are still right */
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, NULL, NULL))
    g_clear_pointer (&out, g_free);
  lines = g_strsplit (out != NULL ? out : "", "\n", -1);

  g_mutex_lock (&cache_lock);
  for (guint i = 0; i < asked->len; i++)
    {
      const char *path = g_ptr_array_index (asked, i);
      g_autofree char *package = package_in_answer (lines, path);

      if (package == NULL && unmerged_path (path) != NULL)
        package = package_in_answer (lines, unmerged_path (path));
      g_hash_table_replace (cache, g_strdup (path), g_strdup (package ? package : ""));
    }
  g_mutex_unlock (&cache_lock);
}

/* The cached answer for @path: FALSE when dpkg was not asked yet;
 * otherwise TRUE, with @package the package or NULL when dpkg knows none
 * ("" in the cache). */
static gboolean
cached_package (const char  *path,
                char       **package)
{
  const char *cached;

  g_mutex_lock (&cache_lock);
  cached = cache != NULL ? g_hash_table_lookup (cache, path) : NULL;
  *package = cached != NULL && cached[0] != '\0' ? g_strdup (cached) : NULL;
  g_mutex_unlock (&cache_lock);
  return cached != NULL;
}

char *
hp_debian_package_of (const char *path)
{
  const char *paths[] = { path, NULL };
  char *package;

  if (!is_queryable (path))
    return NULL;
  query_packages (paths);
  cached_package (path, &package);
  return package;
}

char *
hp_debug_packages_for (const HpCaptureData *data,
                       GArray              *unsymbolized,
                       guint64              n_samples)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint n_modules = hp_unsymbolized_main_modules (unsymbolized, n_samples);
  const char *paths[HP_DEBUG_PACKAGES_MAX_MODULES + 1] = { NULL, };

  g_return_val_if_fail (data != NULL, NULL);

  for (guint i = 0; i < n_modules; i++)
    {
      const HpUnsymbolized *u = &g_array_index (unsymbolized, HpUnsymbolized, i);

      for (guint m = 1; m < data->modules->len; m++)
        {
          const HpCaptureModule *module = &g_array_index (data->modules, HpCaptureModule, m);

          if (g_strcmp0 (module->name, u->module) == 0 && !module->is_kernel)
            {
              paths[i] = module->path != NULL ? module->path : "";
              break;
            }
        }
      if (paths[i] == NULL)
        paths[i] = "";  /* keeps the list going: "" is never asked */
    }
  query_packages (paths);

  for (guint i = 0; i < n_modules; i++)
    {
      g_autofree char *package = NULL;
      char *name;

      if (!cached_package (paths[i], &package) || package == NULL)
        continue;
      name = g_strconcat (package, "-dbgsym", NULL);
      /* two modules of one package: name it once */
      if (g_ptr_array_find_with_equal_func (names, name, g_str_equal, NULL))
        g_free (name);
      else
        g_ptr_array_add (names, name);
    }
  if (names->len == 0)
    return NULL;
  g_ptr_array_add (names, NULL);
  return g_strjoinv (", ", (char **) names->pdata);
}
