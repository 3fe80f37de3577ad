/* test-common.c - helpers shared by the test suites
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What more than one suite needs and each used to copy: removing a
 * test's folder, loading a capture into a profile, and reading an ELF
 * file's symbols and build id with libelf, independently of the
 * symbolizer under test.
 */
#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <glib/gstdio.h>

#include "test-common.h"

void
hp_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  /* Read-only folders are made by tests to provoke errors. */
  if (!g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    g_chmod (path, 0755);
  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      /* A link is removed, never followed: tests link to /bin/sh and to
       * the build's own files, and a chmod through one once made /bin/sh
       * unexecutable. Files need no mode to be unlinked; their folder does. */
      if (g_file_test (child, G_FILE_TEST_IS_SYMLINK) || !g_file_test (child, G_FILE_TEST_IS_DIR))
        g_unlink (child);
      else
        hp_test_remove_tree (child);
    }
  g_rmdir (path);
}

HpProfile *
hp_test_load_profile (const char     *path,
                      HpCaptureData **data_out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = hp_capture_open (path, FALSE, &error);
  HpCaptureData *data;

  g_assert_no_error (error);
  data = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  *data_out = data;
  return hp_profile_new (data, NULL);
}

static Elf *
elf_open (const char *path,
          int        *fd)
{
  Elf *elf;

  elf_version (EV_CURRENT);
  *fd = open (path, O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (*fd, >=, 0);
  elf = elf_begin (*fd, ELF_C_READ, NULL);
  g_assert_nonnull (elf);
  return elf;
}

gboolean
hp_test_elf_function (const char *path,
                      const char *name,
                      guint64    *offset,
                      guint64    *size)
{
  gboolean found = FALSE;
  Elf_Scn *scn = NULL;
  GElf_Addr vaddr = 0;
  size_t phnum;
  Elf *elf;
  int fd;

  elf = elf_open (path, &fd);
  while (!found && (scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;
      Elf_Data *data;

      if (gelf_getshdr (scn, &shdr) == NULL || shdr.sh_type != SHT_SYMTAB)
        continue;
      data = elf_getdata (scn, NULL);
      for (size_t i = 0; data != NULL && i < shdr.sh_size / shdr.sh_entsize; i++)
        {
          GElf_Sym sym;
          const char *sym_name;

          if (gelf_getsym (data, i, &sym) == NULL || GELF_ST_TYPE (sym.st_info) != STT_FUNC)
            continue;
          sym_name = elf_strptr (elf, shdr.sh_link, sym.st_name);
          if (g_strcmp0 (sym_name, name) == 0)
            {
              vaddr = sym.st_value;
              *size = sym.st_size;
              found = TRUE;
              break;
            }
        }
    }

  /* Virtual address to file offset, through the load segment that holds it. */
  if (found)
    {
      found = FALSE;
      g_assert_cmpint (elf_getphdrnum (elf, &phnum), ==, 0);
      for (size_t i = 0; i < phnum; i++)
        {
          GElf_Phdr phdr;

          if (gelf_getphdr (elf, i, &phdr) != NULL && phdr.p_type == PT_LOAD
              && vaddr >= phdr.p_vaddr && vaddr < phdr.p_vaddr + phdr.p_filesz)
            {
              *offset = vaddr - phdr.p_vaddr + phdr.p_offset;
              found = TRUE;
              break;
            }
        }
    }

  elf_end (elf);
  close (fd);
  return found;
}

gsize
hp_test_elf_build_id (const char *path,
                      guint8      id[20])
{
  const void *bytes;
  ssize_t len;
  Elf *elf;
  int fd;

  elf = elf_open (path, &fd);
  len = dwelf_elf_gnu_build_id (elf, &bytes);
  g_assert_cmpint (len, >, 0);
  g_assert_cmpint (len, <=, 20);
  memcpy (id, bytes, len);
  elf_end (elf);
  close (fd);
  return len;
}
