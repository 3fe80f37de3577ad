/* hp-debug-package.h - the Debian packages whose debugging symbols would name unsymbolized code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "analysis/hp-name-match.h"
#include "store/hp-capture.h"

G_BEGIN_DECLS

/* At most this many modules are named: the ones holding most samples. */
#define HP_DEBUG_PACKAGES_MAX_MODULES 3

/* How many of the first modules of @unsymbolized (HpUnsymbolized, most
 * samples first, as hp_profile_get_unsymbolized gives them) are worth
 * naming: the first always, then those holding at least 0.1 % of
 * @n_samples, at most HP_DEBUG_PACKAGES_MAX_MODULES. The report and the
 * window's overview name these modules, and hp_debug_packages_for their
 * packages. */
guint hp_unsymbolized_main_modules (GArray  *unsymbolized,
                                    guint64  n_samples);

/* The Debian package that ships @path ("liblzma5"), or NULL when dpkg
 * does not know the file, or several packages ship it (or this is not a
 * Debian system). Reads dpkg's file lists ($DPKG_ADMINDIR, else
 * /var/lib/dpkg): never call it from a main loop. */
char *hp_debian_package_of  (const char *path);

/* "liblzma5-dbgsym, libsqlite3-0-dbgsym": the -dbgsym packages for the
 * modules hp_unsymbolized_main_modules chooses of @unsymbolized; NULL
 * when none is known. Answers are cached per path for the process, and
 * the paths not asked yet are looked up in one pass over dpkg's file
 * lists: never call it from a main loop. */
char *hp_debug_packages_for (const HpCaptureData *data,
                             GArray              *unsymbolized,
                             guint64              n_samples);

G_END_DECLS
