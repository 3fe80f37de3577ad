#!/usr/bin/env python3
# check-layers.py SOURCE_ROOT - fails when a file under src/ breaks the
# layering docs/ARCHITECTURE.md describes ("Where things live"): a folder
# includes the headers of a folder it may not use, something below ui/
# includes GTK (or GDK, GSK, Graphene, libadwaita), or anything outside
# store/ includes SQLite or calls it, so that no SQL runs in ui/, cli/ or
# the layers between. Each offence is named with its file and line.
#
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import re
import sys

# folder -> the folders of src/ whose headers it may include (its own too);
# the "may use" column of docs/ARCHITECTURE.md
MAY_USE = {
    'perf': {'perf'},
    'symbols': {'symbols', 'perf'},
    'store': {'store'},
    'analysis': {'analysis', 'store'},
    'record': {'record', 'perf', 'symbols', 'store'},
    'document': {'document', 'analysis', 'store', 'record', 'perf', 'symbols'},
    'cli': {'cli', 'document', 'analysis', 'store', 'record', 'perf', 'symbols'},
    'ui': {'ui', 'document', 'analysis', 'store', 'record'},
}
GTK_ONLY_IN = {'ui'}
SQLITE_ONLY_IN = {'store'}

LOCAL_INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z]+)/[^"]+"')
GTK_INCLUDE = re.compile(r'^\s*#\s*include\s+<(gtk|gdk|gsk|graphene|adwaita)[^>]*>')
SQLITE_INCLUDE = re.compile(r'^\s*#\s*include\s+[<"]sqlite3\.h[>"]')
SQLITE_CALL = re.compile(r'\bsqlite3_[a-z0-9_]+\s*\(')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def strip(text):
    """Comments and string literals blanked, lines kept."""
    def blank(m):
        return re.sub(r'[^\n]', ' ', m.group(0))
    return STRING.sub(blank, COMMENT.sub(blank, text))


def check_file(path, layer):
    problems = []
    with open(path, encoding='utf-8', errors='replace') as f:
        text = f.read()
    code = strip(text)
    for number, (line, code_line) in enumerate(zip(text.split('\n'), code.split('\n')), 1):
        where = '%s:%d' % (path, number)
        m = LOCAL_INCLUDE.match(line)
        if m and m.group(1) in MAY_USE and m.group(1) not in MAY_USE[layer]:
            problems.append('%s: %s/ includes %s/, which it may not use: %s'
                            % (where, layer, m.group(1), line.strip()))
        if GTK_INCLUDE.match(line) and layer not in GTK_ONLY_IN:
            problems.append('%s: %s/ is below ui/ and includes GTK: %s' % (where, layer, line.strip()))
        if layer not in SQLITE_ONLY_IN:
            if SQLITE_INCLUDE.match(line):
                problems.append('%s: only store/ talks to SQLite: %s' % (where, line.strip()))
            elif SQLITE_CALL.search(code_line):
                problems.append('%s: only store/ runs SQL: %s' % (where, line.strip()))
    return problems


def main():
    if len(sys.argv) != 2:
        print('usage: check-layers.py SOURCE_ROOT', file=sys.stderr)
        return 2
    src = os.path.join(sys.argv[1], 'src')
    problems = []
    checked = 0
    for layer in sorted(os.listdir(src)):
        folder = os.path.join(src, layer)
        if not os.path.isdir(folder):
            continue
        if layer not in MAY_USE:
            problems.append('%s: a folder docs/ARCHITECTURE.md does not place in a layer '
                            '(add it there and to MAY_USE in %s)' % (folder, sys.argv[0]))
            continue
        for dirpath, _, names in os.walk(folder):
            for name in sorted(names):
                if name.endswith(('.c', '.h')):
                    problems += check_file(os.path.join(dirpath, name), layer)
                    checked += 1
    for p in problems:
        print(p)
    if problems:
        print('%d problem(s) in %d files' % (len(problems), checked))
        return 1
    print('%d files keep to their layer' % checked)
    return 0


if __name__ == '__main__':
    sys.exit(main())
