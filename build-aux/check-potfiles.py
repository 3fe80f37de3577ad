#!/usr/bin/env python3
# check-potfiles.py [--update] SOURCE_ROOT - fails when po/POTFILES.in is not sorted,
# names a file that does not exist, or misses a file under src/ or data/
# that holds translatable strings: _("…"), N_("…"), C_("…"), NC_("…") and the
# gettext calls (ngettext, g_dngettext, g_dpgettext2, …) in C,
# translatable="yes" in GtkBuilder files, and the desktop, metainfo, MIME
# and GSettings files, which are translated whole. po/POTFILES.skip lists
# files that match but are not to be translated. --update rewrites
# po/POTFILES.in instead: its comments, then what is listed and still exists
# plus what is found, sorted.
#
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import re
import sys

MARKERS = re.compile(rb'(?<![A-Za-z0-9_])(?:N|C|NC|Q)?_\s*\(\s*"'
                     rb'|(?<![A-Za-z0-9_])(?:g_)?d?c?n?p?gettext2?\s*\('
                     rb'|translatable\s*=\s*["\'](?:yes|true|1)["\']')
WHOLE = ('.desktop.in', '.metainfo.xml.in', '.appdata.xml.in', '.mime.xml.in', '.gschema.xml')
SCANNED = ('src', 'data')
SKIP_DIRS = {'.git', '__pycache__'}


def read_list(path):
    entries = []
    if not os.path.exists(path):
        return entries
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                entries.append(line)
    return entries


def translatable_files(root):
    found = []
    for top in SCANNED:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            for name in filenames:
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                if name.endswith(WHOLE):
                    found.append(rel)
                    continue
                if not name.endswith(('.c', '.h', '.ui', '.in')):
                    continue
                with open(path, 'rb') as f:
                    if MARKERS.search(f.read()):
                        found.append(rel)
    return sorted(found)


def update(root, potfiles, skipped):
    path = os.path.join(root, 'po', 'POTFILES.in')
    with open(path, encoding='utf-8') as f:
        comments = [line for line in f if line.startswith('#')]
    kept = {p for p in potfiles if os.path.isfile(os.path.join(root, p))}
    found = {p for p in translatable_files(root) if p not in skipped}
    with open(path, 'w', encoding='utf-8') as f:
        f.writelines(comments)
        f.writelines(p + '\n' for p in sorted(kept | found))
    print(f'po/POTFILES.in: {len(kept | found)} files')
    return 0


def main():
    args = sys.argv[1:]
    do_update = '--update' in args
    args = [a for a in args if a != '--update']
    root = args[0] if args else '.'
    potfiles = read_list(os.path.join(root, 'po', 'POTFILES.in'))
    skipped = set(read_list(os.path.join(root, 'po', 'POTFILES.skip')))
    errors = []

    if do_update:
        return update(root, potfiles, skipped)

    if potfiles != sorted(potfiles):
        errors.append('po/POTFILES.in is not sorted; sorted it reads:\n  ' + '\n  '.join(sorted(potfiles)))
    duplicates = sorted({p for p in potfiles if potfiles.count(p) > 1})
    for p in duplicates:
        errors.append(f'po/POTFILES.in lists {p} more than once')
    for p in potfiles:
        if not os.path.isfile(os.path.join(root, p)):
            errors.append(f'po/POTFILES.in lists {p}, which does not exist')
    listed = set(potfiles)
    for p in translatable_files(root):
        if p not in listed and p not in skipped:
            errors.append(f'{p} has translatable strings but is missing from po/POTFILES.in')

    for e in errors:
        print(e)
    if not errors:
        print(f'po/POTFILES.in lists all {len(potfiles)} translatable files')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
