/* hp-file-locator.c - where the ELF file of a recorded mapping is found
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This file owns the one search order for the files behind recorded
 * mappings, used by the symbolizer (names and lines) and through its
 * modules by the unwinder (CFI), so that a perf.data imported with
 * --sysroot and --debug-dir is symbolized and unwound from the same files.
 *
 * A recording made on another machine, or before a rebuild, names paths
 * that hold other files here or none. What identifies the recorded file is
 * its build id, and the places that keep files by build id are, in the
 * layout of elfutils and perf (.build-id/xx/rest, with xx the first byte
 * in hex):
 *
 *   --debug-dir DIR    given by the user: an extracted `perf archive`, a
 *                      folder of debug files;
 *   ~/.debug           perf's build-id cache, where .build-id/xx/rest links
 *                      to a directory that holds the copy as "elf";
 *   /usr/lib/debug     the distribution's debug packages (rest.debug, and on
 *                      some distributions rest linking to the binary), under
 *                      the sysroot when there is one.
 *
 * Only candidates are produced here; whoever opens one checks its build id,
 * so a stale or foreign file is never used.
 */
#define G_LOG_DOMAIN "hp-symbols"

#include "config.h"

#include <string.h>

#include "symbols/hp-file-locator.h"

/* Kernel versions looked at for vDSO images: more is not a machine. */
#define VDSO_MAX_KERNELS 64

struct _HpFileLocator
{
  char      *sysroot;     /* canonical; NULL: the host's root */
  GPtrArray *debug_dirs;  /* char*, canonical, in the order added */
};

HpFileLocator *
hp_file_locator_new (void)
{
  HpFileLocator *self = g_new0 (HpFileLocator, 1);

  self->debug_dirs = g_ptr_array_new_with_free_func (g_free);
  return self;
}

void
hp_file_locator_free (HpFileLocator *self)
{
  if (self == NULL)
    return;
  g_free (self->sysroot);
  g_ptr_array_unref (self->debug_dirs);
  g_free (self);
}

void
hp_file_locator_set_sysroot (HpFileLocator *self,
                             const char    *sysroot)
{
  g_return_if_fail (self != NULL);

  g_clear_pointer (&self->sysroot, g_free);
  if (sysroot != NULL && sysroot[0] != '\0' && strcmp (sysroot, "/") != 0)
    self->sysroot = g_canonicalize_filename (sysroot, NULL);
}

const char *
hp_file_locator_get_sysroot (const HpFileLocator *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->sysroot;
}

void
hp_file_locator_add_debug_dir (HpFileLocator *self,
                               const char    *dir)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (dir != NULL);

  g_ptr_array_add (self->debug_dirs, g_canonicalize_filename (dir, NULL));
}

GPtrArray *
hp_file_locator_get_build_id_dirs (const HpFileLocator *self)
{
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (self != NULL, dirs);

  for (guint i = 0; i < self->debug_dirs->len; i++)
    g_ptr_array_add (dirs, g_strdup (g_ptr_array_index (self->debug_dirs, i)));
  /* perf's cache is the user's own, on this machine: never under the sysroot. */
  g_ptr_array_add (dirs, g_build_filename (g_get_home_dir (), ".debug", NULL));
  g_ptr_array_add (dirs, g_build_filename (self->sysroot ? self->sysroot : "/", "usr/lib/debug", NULL));
  return dirs;
}

GPtrArray *
hp_file_locator_find (const HpFileLocator *self,
                      const char          *path,
                      const char          *build_id,
                      HpFileLocateFlags    flags)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (self != NULL, files);
  g_return_val_if_fail (path != NULL, files);

  if (build_id != NULL && strlen (build_id) > 2)
    {
      g_autofree char *rel = g_strdup_printf (".build-id/%.2s/%s", build_id, build_id + 2);
      g_autofree char *rel_debug = g_strconcat (rel, ".debug", NULL);
      g_autoptr(GPtrArray) dirs = hp_file_locator_get_build_id_dirs (self);

      for (guint i = 0; i < dirs->len; i++)
        {
          const char *dir = g_ptr_array_index (dirs, i);
          char *file = g_build_filename (dir, rel, NULL);

          /* perf's cache: .build-id/xx/rest -> ../../path/ID, a directory
           * holding the copy as "elf". */
          if (g_file_test (file, G_FILE_TEST_IS_DIR))
            {
              char *elf = g_build_filename (file, "elf", NULL);

              g_free (file);
              file = elf;
            }
          g_ptr_array_add (files, file);
          if (flags & HP_FILE_LOCATE_DEBUG_INFO)
            g_ptr_array_add (files, g_build_filename (dir, rel_debug, NULL));
        }
    }

  if (path[0] == '/')
    g_ptr_array_add (files, self->sysroot ? g_build_filename (self->sysroot, path, NULL) : g_strdup (path));
  return files;
}

/* The vDSO images in DIR/VERSION/vdso whose names start with "vdso" and hold
 * ".so" (vdso64.so, vdso32.so, vdsox32.so, vdso.so, vdso64.so.dbg). */
static void
add_vdso_images (GPtrArray  *files,
                 const char *modules_dir)
{
  g_autoptr(GDir) kernels = g_dir_open (modules_dir, 0, NULL);
  const char *release;
  guint n_kernels = 0;

  while (kernels != NULL && (release = g_dir_read_name (kernels)) != NULL
         && n_kernels++ < VDSO_MAX_KERNELS)
    {
      g_autofree char *vdso_dir = g_build_filename (modules_dir, release, "vdso", NULL);
      g_autoptr(GDir) images = g_dir_open (vdso_dir, 0, NULL);
      const char *name;

      while (images != NULL && (name = g_dir_read_name (images)) != NULL)
        {
          char *file;

          if (!g_str_has_prefix (name, "vdso") || strstr (name, ".so") == NULL)
            continue;
          file = g_build_filename (vdso_dir, name, NULL);
          if (g_file_test (file, G_FILE_TEST_IS_REGULAR))
            g_ptr_array_add (files, file);
          else
            g_free (file);
        }
    }
}

GPtrArray *
hp_file_locator_find_vdso_images (const HpFileLocator *self)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) dirs = NULL;
  const char *root;

  g_return_val_if_fail (self != NULL, files);

  root = self->sysroot ? self->sysroot : "/";
  dirs = hp_file_locator_get_build_id_dirs (self);
  /* Debian's linux-image-VERSION-dbg: /usr/lib/debug/lib/modules/VERSION/vdso */
  for (guint i = 0; i < dirs->len; i++)
    {
      g_autofree char *modules = g_build_filename (g_ptr_array_index (dirs, i), "lib", "modules", NULL);

      add_vdso_images (files, modules);
    }
  /* Fedora's kernel-core, and any kernel's make vdso_install:
   * /lib/modules/VERSION/vdso, and /usr/lib/modules unless /lib is a
   * link to /usr/lib (a merged /usr, as Debian 12's). */
  {
    g_autofree char *lib = g_build_filename (root, "lib", NULL);
    g_autofree char *modules = g_build_filename (lib, "modules", NULL);

    add_vdso_images (files, modules);
    if (!g_file_test (lib, G_FILE_TEST_IS_SYMLINK))
      {
        g_autofree char *usr_modules = g_build_filename (root, "usr", "lib", "modules", NULL);

        add_vdso_images (files, usr_modules);
      }
  }
  return files;
}

char *
hp_file_locator_get_debuginfo_path (const HpFileLocator *self)
{
  g_autoptr(GString) path = g_string_new ("-:.debug");

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < self->debug_dirs->len; i++)
    g_string_append_printf (path, ":%s", (const char *) g_ptr_array_index (self->debug_dirs, i));
  if (self->sysroot != NULL)
    g_string_append_printf (path, ":%s/usr/lib/debug", self->sysroot);
  g_string_append (path, ":/usr/lib/debug");
  return g_string_free (g_steal_pointer (&path), FALSE);
}

char *
hp_build_id_to_hex (const guint8 *bytes,
                    gsize         len)
{
  static const char digits[] = "0123456789abcdef";
  char *hex = g_malloc (len * 2 + 1);

  for (gsize i = 0; i < len; i++)
    {
      hex[2 * i] = digits[bytes[i] >> 4];
      hex[2 * i + 1] = digits[bytes[i] & 0xf];
    }
  hex[len * 2] = '\0';
  return hex;
}
