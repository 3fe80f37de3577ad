#!/usr/bin/env python3
# check-po-formats.py SOURCE_ROOT XGETTEXT MSGMERGE MSGFMT -- XGETTEXT_ARGS...
# extracts the strings of po/POTFILES.in into a scratch template, as
# `ninja hotpath-pot` does, and fails
# - when xgettext takes prose for a printf format: "95 % interval" or
#   "PCT% of" hold "% i" and "% o", a space flag no format of ours uses.
#   Such a msgid is flagged c-format, and a translation that writes the
#   percent sign differently ("95-%-Intervall") no longer compiles, or
#   compiles by chance. Put /* xgettext:no-c-format */ before the string.
# - when a translation, merged with today's sources (not with the flags
#   it was last merged with), fails `msgfmt --check`: a format's
#   directives must be the same in the translation.
# Untranslated strings do not fail: a new string is English until a
# translator gets to it.
#
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import re
import subprocess
import sys
import tempfile

# A directive with the space flag: "% i", "% o", "% d" (and "% .1f").
PROSE = re.compile(r'(?<!%)(?:%%)*%( +)[-+#0]*[0-9]*(?:\.[0-9]*)?[diouxXeEfgGcs]')


def entries(pot):
    """(flags, msgid, references) of each entry of a .pot file."""
    with open(pot, encoding='utf-8') as f:
        text = f.read()
    for block in text.split('\n\n'):
        flags, refs, msgid, in_id = [], [], [], False
        for line in block.split('\n'):
            if line.startswith('#,'):
                flags += [x.strip() for x in line[2:].split(',')]
            elif line.startswith('#:'):
                refs += line[2:].split()
            elif line.startswith('msgid '):
                in_id = True
                msgid.append(line[6:])
            elif line.startswith('"') and in_id:
                msgid.append(line)
            else:
                in_id = False
        if msgid:
            yield flags, ''.join(s[1:-1] for s in msgid), refs


def main():
    args = sys.argv[1:]
    split = args.index('--')
    root, xgettext, msgmerge, msgfmt = args[:split]
    extra = args[split + 1:]
    po = os.path.join(root, 'po')
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        pot = os.path.join(tmp, 'hotpath.pot')
        subprocess.run([xgettext, '--package-name=hotpath', '-f', os.path.join(po, 'POTFILES.in'),
                        '-D', root, '-k_', '-o', pot] + extra, check=True)
        for flags, msgid, refs in entries(pot):
            if 'c-format' in flags and PROSE.search(msgid):
                errors.append(f'{" ".join(refs)}: "{msgid}" reads as a printf format (the "%" followed by a space); '
                              'put /* xgettext:no-c-format */ before it, or write "%%" if it is a format')
        with open(os.path.join(po, 'LINGUAS'), encoding='utf-8') as f:
            langs = [w for line in f if not line.startswith('#') for w in line.split()]
        for lang in langs:
            merged = os.path.join(tmp, lang + '.po')
            subprocess.run([msgmerge, '--quiet', '--no-fuzzy-matching', '-o', merged,
                            os.path.join(po, lang + '.po'), pot], check=True)
            p = subprocess.run([msgfmt, '--check', '--statistics', '-o', os.devnull, merged],
                               capture_output=True, text=True)
            print(f'po/{lang}.po merged with the sources: {p.stderr.strip()}')
            if p.returncode != 0:
                errors.append(f'po/{lang}.po, merged with the sources, fails msgfmt --check:\n'
                              + p.stderr.replace(merged, f'po/{lang}.po (merged)'))
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
