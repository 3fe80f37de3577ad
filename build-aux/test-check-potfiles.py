#!/usr/bin/env python3
# test-check-potfiles.py CHECKER - check-potfiles.py on made-up trees: a file
# under src/cli whose only translatable strings are _() calls, or only
# plurals (g_dngettext, ngettext), must be reported when POTFILES.in lacks
# it, and accepted once listed; a word like "gettext" in a comment is not a
# string to translate.
#
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import subprocess
import sys
import tempfile

SOURCES = {
    'src/cli/hp-cli-plain.c': 'void f (void) { hp_cli_error ("%s", _("give one capture file")); }\n',
    'src/cli/hp-cli-plural.c': ('void f (guint n) { printf (g_dngettext (GETTEXT_PACKAGE,\n'
                                '  "%u sample", "%u samples", n), n); }\n'),
    'src/cli/hp-cli-ngettext.c': 'void f (int n) { printf (ngettext ("%d path", "%d paths", n), n); }\n',
    'src/cli/hp-cli-options.c': 'static GOptionEntry e[] = { { "limit", 0, 0, 0, NULL, N_("Show N"), NULL } };\n',
}
NOT_TRANSLATED = {
    # only names the function in a comment; and a function whose name ends in _
    'src/cli/hp-cli.h': '/* "1 sample": a count as a sentence says it (ngettext) */\nint x = hp_(\"a\");\n',
}


def run(checker, root):
    p = subprocess.run([sys.executable, checker, root], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def make_tree(root, listed):
    for rel, text in {**SOURCES, **NOT_TRANSLATED}.items():
        os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
        with open(os.path.join(root, rel), 'w') as f:
            f.write(text)
    os.makedirs(os.path.join(root, 'po'), exist_ok=True)
    with open(os.path.join(root, 'po', 'POTFILES.in'), 'w') as f:
        f.write('# translatable files\n' + ''.join(p + '\n' for p in sorted(listed)))


def main():
    checker = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as root:
        make_tree(root, [])
        rc, out = run(checker, root)
        if rc == 0:
            failures.append('an empty POTFILES.in passed:\n' + out)
        for rel in SOURCES:
            if f'{rel} has translatable strings but is missing' not in out:
                failures.append(f'{rel} is not reported missing:\n{out}')
        for rel in NOT_TRANSLATED:
            if rel in out:
                failures.append(f'{rel} is taken for a translatable file:\n{out}')
    with tempfile.TemporaryDirectory() as root:
        make_tree(root, SOURCES)
        rc, out = run(checker, root)
        if rc != 0:
            failures.append('the complete POTFILES.in failed:\n' + out)
    for f in failures:
        print(f)
    print('ok' if not failures else f'{len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
