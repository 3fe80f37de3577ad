/* hp-debug-package.c - the Debian packages whose debugging symbols would name unsymbolized code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * "94 % of the samples are in code without symbols" is only useful with
 * what to do about it: on Debian, install the package's -dbgsym twin.
 * dpkg's file lists name the package that ships a mapped file (as
 * dpkg-query -S does, for a tenth of its cost). The report and the
 * window's overview ask here, so they name the same packages. The lists
 * are read once for all the modules named, the window asks from a worker,
 * and answers are cached per path, so a filter change does not ask again.
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

/* Whether @path may be looked up: a capture's path is text from a file,
 * so only an absolute path on one line (a line of dpkg's lists). */
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

/* Whether @path is a whole line of @list, a package's file list. */
static gboolean
list_has_line (const char *list,
               gsize       len,
               const char *path)
{
  gsize path_len = strlen (path);
  const char *at = list, *end = list + len;

  while (at < end && (at = memmem (at, (gsize) (end - at), path, path_len)) != NULL)
    {
      if ((at == list || at[-1] == '\n') && (at + path_len == end || at[path_len] == '\n'))
        return TRUE;
      at++;
    }
  return FALSE;
}

typedef struct {
  const char *path;
  char       *package;    /* the one package whose list has it */
  gboolean    ambiguous;  /* in the lists of several packages */
} Owner;

static void
note_owner (Owner      *owner,
            const char *package)
{
  if (owner->ambiguous || g_strcmp0 (owner->package, package) == 0)
    return;
  if (owner->package != NULL)
    {
      g_clear_pointer (&owner->package, g_free);
      owner->ambiguous = TRUE;
      return;
    }
  owner->package = g_strdup (package);
}

/* Looks every path of @owners up in dpkg's file lists
 * ($DPKG_ADMINDIR/info/PACKAGE[:ARCH].list, one path a line, which
 * dpkg-query -S reads too). Asking dpkg-query cost 0.3 s of CPU, as it
 * also parses the whole status file and hashes every file of every
 * package; reading the lists for a few paths costs a tenth of that. */
static void
find_owners (Owner *owners,
             guint  n_owners)
{
  const char *admin = g_getenv ("DPKG_ADMINDIR");
  g_autofree char *info = g_build_filename (admin != NULL && admin[0] != '\0' ? admin : "/var/lib/dpkg",
                                            "info", NULL);
  g_autoptr(GDir) dir = g_dir_open (info, 0, NULL);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = NULL;
      g_autofree char *list = NULL;
      g_autofree char *package = NULL;
      gsize len;
      char *colon;

      if (!g_str_has_suffix (name, ".list") || strlen (name) == strlen (".list"))
        continue;
      file = g_build_filename (info, name, NULL);
      if (!g_file_get_contents (file, &list, &len, NULL))
        continue;
      package = g_strndup (name, strlen (name) - strlen (".list"));
      colon = strchr (package, ':');
      if (colon != NULL)
        *colon = '\0';  /* the architecture */
      for (guint i = 0; i < n_owners; i++)
        if (list_has_line (list, len, owners[i].path))
          note_owner (&owners[i], package);
    }
}

/* Looks up every path of @paths that was not looked up yet (answers are
 * cached per path), with its merged-/usr twin, in one pass over dpkg's
 * lists. */
static void
query_packages (const char * const *paths)
{
  g_autoptr(GPtrArray) asked = g_ptr_array_new ();
  g_autoptr(GArray) owners = g_array_new (FALSE, TRUE, sizeof (Owner));

  g_mutex_lock (&cache_lock);
  if (cache == NULL)
    cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; paths[i] != NULL; i++)
    if (is_queryable (paths[i]) && !g_hash_table_contains (cache, paths[i])
        && !g_ptr_array_find_with_equal_func (asked, paths[i], g_str_equal, NULL))
      {
        Owner owner = { paths[i], NULL, FALSE };

        g_ptr_array_add (asked, (gpointer) paths[i]);
        g_array_append_val (owners, owner);
        owner.path = unmerged_path (paths[i]) != NULL ? unmerged_path (paths[i]) : paths[i];
        g_array_append_val (owners, owner);
      }
  g_mutex_unlock (&cache_lock);
  if (asked->len == 0)
    return;

  find_owners ((Owner *) (gpointer) owners->data, owners->len);

  g_mutex_lock (&cache_lock);
  for (guint i = 0; i < asked->len; i++)
    {
      Owner *own = &g_array_index (owners, Owner, 2 * i);
      Owner *twin = &g_array_index (owners, Owner, 2 * i + 1);
      const char *package = own->package != NULL || own->ambiguous ? own->package : twin->package;

      g_hash_table_replace (cache, g_strdup (g_ptr_array_index (asked, i)), g_strdup (package ? package : ""));
    }
  g_mutex_unlock (&cache_lock);
  for (guint i = 0; i < owners->len; i++)
    g_free (g_array_index (owners, Owner, i).package);
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

      /* code compiled at run time: no package holds its names */
      for (guint m = 1; !u->jit && m < data->modules->len; m++)
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
