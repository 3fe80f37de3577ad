#!/usr/bin/env python3
# embed-text.py INPUT OUTPUT SYMBOL - turns a text file into a C string constant
import sys

src, out, symbol = sys.argv[1:4]
with open(src, 'rb') as f:
    data = f.read()
with open(out, 'w') as f:
    f.write('/* generated from %s by embed-text.py; do not edit */\n' % src.split('/')[-1])
    f.write('const char %s[] =\n' % symbol)
    for line in data.decode('utf-8').splitlines(True):
        esc = line.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n')
        f.write('  "%s"\n' % esc)
    f.write(';\n')
