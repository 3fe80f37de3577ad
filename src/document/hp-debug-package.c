/* hp-debug-package.c - the Debian packages whose debugging symbols would name unsymbolized code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * "94 % of the samples are in code without symbols" is only useful with
 * what to do about it: on Debian, install the package's -dbgsym twin.
 * dpkg-query -S names the package that ships a mapped file. The report
 * and the window's overview ask here, so they name the same packages.
 * dpkg-query takes tens of milliseconds: the window asks from the worker
 * that builds a profile, and answers are cached per path, so a filter
 * change does not ask again.
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

static char *
query_package (const char *path)
{
  g_autofree char *out = NULL;
  const char *argv[] = { "dpkg-query", "-S", path, NULL };
  int status;
  char *colon;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, NULL) ||
      !g_spawn_check_wait_status (status, NULL) || out == NULL)
    {
      /* merged /usr: dpkg knows /lib/x/libfoo.so where the loader mapped
       * /usr/lib/x/libfoo.so */
      if (g_str_has_prefix (path, "/usr/lib/"))
        return query_package (path + strlen ("/usr"));
      return NULL;
    }
  /* "liblzma5:amd64: /usr/lib/x86_64-linux-gnu/liblzma.so.5.4.1"; a
   * diversion or several packages ("a, b: /path") name no one package */
  colon = strchr (out, ':');
  if (colon == NULL)
    return NULL;
  *colon = '\0';
  return strpbrk (out, " \n,") == NULL ? g_strdup (out) : NULL;
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
  char *package;

  /* a capture's path is text from a file: only absolute paths, and never
   * one dpkg-query could read as an option */
  if (path == NULL || path[0] != '/')
    return NULL;

  if (cached_package (path, &package))
    return package;

  package = query_package (path);
  g_mutex_lock (&cache_lock);
  if (cache == NULL)
    cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_replace (cache, g_strdup (path), g_strdup (package ? package : ""));
  g_mutex_unlock (&cache_lock);
  return package;
}

char *
hp_debug_packages_for (const HpCaptureData *data,
                       GArray              *unsymbolized,
                       guint64              n_samples)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint n_modules = hp_unsymbolized_main_modules (unsymbolized, n_samples);

  g_return_val_if_fail (data != NULL, NULL);

  for (guint i = 0; i < n_modules; i++)
    {
      const HpUnsymbolized *u = &g_array_index (unsymbolized, HpUnsymbolized, i);
      g_autofree char *package = NULL;
      char *name;

      for (guint m = 1; m < data->modules->len; m++)
        {
          const HpCaptureModule *module = &g_array_index (data->modules, HpCaptureModule, m);

          if (g_strcmp0 (module->name, u->module) == 0 && !module->is_kernel)
            {
              package = hp_debian_package_of (module->path);
              break;
            }
        }
      if (package == NULL)
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
