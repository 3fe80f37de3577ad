/* hp-name-match.h - finding functions by the names people type
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "analysis/hp-profile.h"

G_BEGIN_DECLS

/* Which rule found the functions, in the order they are tried. */
typedef enum {
  HP_NAME_MATCH_NONE,
  HP_NAME_MATCH_EXACT,      /* the name as the capture holds it */
  HP_NAME_MATCH_ALIAS,      /* memcpy: __memmove_avx_unaligned_erms, __GI_memcpy, ... */
  HP_NAME_MATCH_NO_PARAMS,  /* ns::Foo::bar for ns::Foo::bar(int) const, or Foo::bar */
  HP_NAME_MATCH_GLOB,       /* a pattern with * ? */
  HP_NAME_MATCH_SUBSTRING,  /* part of the name, ignoring case */
} HpNameMatch;

/* The sampled functions that @query names, by the first rule that finds
 * any, as function ids (gint64) by total samples, descending; @how
 * receives the rule. Empty when none. */
GArray      *hp_profile_match_functions  (HpProfile   *profile,
                                          const char  *query,
                                          HpNameMatch *how);
/* Up to @max names of sampled functions that look like @query (edit
 * distance, ignoring case), closest first: what to suggest when nothing
 * matched. */
GPtrArray   *hp_profile_suggest_functions (HpProfile  *profile,
                                           const char *query,
                                           guint       max);
/* @name without its C++ parameter list and qualifiers:
 * "ns::f<int>(char const*) const" gives "ns::f<int>". */
char        *hp_name_strip_parameters    (const char  *name);

/* TRUE for a name that is only an address: "liblzma.so.5+0x1f2e0", what
 * a frame without a symbol is called, or "0x401000" (a pprof location
 * without lines). */
gboolean     hp_name_is_address          (const char  *name);

/* TRUE for the name of code compiled at run time that no perf map or
 * jitdump named: "[anon] 0x7f…-0x7f…", one per anonymous mapping
 * (hp-processor.c). It is code without symbols as much as an address. */
gboolean     hp_name_is_unnamed_jit      (const char  *name);

typedef struct {
  const char *module;   /* base name, owned by the profile */
  guint64     samples;  /* self samples in its code without symbols */
  gboolean    jit;      /* unnamed code compiled at run time ("[anon]") */
} HpUnsymbolized;

/* Samples whose leaf is in code without symbols (HpUnsymbolized per
 * module, most first); @total receives their sum. */
GArray      *hp_profile_get_unsymbolized (HpProfile   *profile,
                                          guint64     *total);

G_END_DECLS
