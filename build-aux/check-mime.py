#!/usr/bin/env python3
# check-mime.py MIME_XML - builds a scratch MIME database from our package and
# checks that GIO names captures and perf.data files by it, by name and by
# content, and leaves other SQLite databases alone.
#
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import shutil
import subprocess
import sys
import tempfile

CAPTURE = 'application/x-hotpath-capture'
PERF = 'application/x-perf-data'


def sqlite_header(application_id):
    # The first 100 bytes of a SQLite file: the magic string, then
    # PRAGMA application_id big-endian at offset 68.
    head = bytearray(100)
    head[0:16] = b'SQLite format 3\0'
    head[68:72] = application_id
    return bytes(head)


def main():
    xml = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        mime = os.path.join(tmp, 'mime')
        os.makedirs(os.path.join(mime, 'packages'))
        shutil.copy(xml, os.path.join(mime, 'packages', 'io.github.hotpath.Hotpath.xml'))
        env = dict(os.environ,
                   XDG_DATA_HOME=os.path.join(tmp, 'nothing'),
                   XDG_DATA_DIRS=tmp + ':' + os.environ.get('XDG_DATA_DIRS', '/usr/local/share:/usr/share'))
        r = subprocess.run(['update-mime-database', mime], capture_output=True, text=True, env=env)
        if r.returncode != 0 or r.stderr.strip():
            print(f'update-mime-database rejected {xml}:\n{r.stderr}')
            return 1

        files = {
            # by name: content that no magic claims
            'demo.hotpath': (bytes(range(256)) * 4, CAPTURE),
            'perf.data': (bytes(range(256)) * 4, PERF),
            # by content, under names that say nothing

            'renamed-capture': (sqlite_header(b'HPTH') + bytes(3996), CAPTURE),
            'other.sqlite-db': (sqlite_header(b'\0\0\0\0') + bytes(3996), None),
            'renamed-perf': (b'PERFILE2' + bytes(200), PERF),
        }
        for name, (content, expected) in files.items():
            path = os.path.join(tmp, name)
            with open(path, 'wb') as f:
                f.write(content)
            r = subprocess.run(['gio', 'info', '-a', 'standard::content-type', path],
                               capture_output=True, text=True, env=env)
            got = None
            for line in r.stdout.splitlines():
                if 'standard::content-type:' in line:
                    got = line.split(':', 3)[-1].strip()
            ok = got == expected if expected else got not in (CAPTURE, PERF, None)
            print(f'{"ok" if ok else "FAIL"}: {name} is {got}, expected {expected or "not ours"}')
            if not ok:
                failures.append(name)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
