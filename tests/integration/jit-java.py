#!/usr/bin/env python3
# jit-java.py - Java methods named from the JVM's perf map (issue 18)
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# tests/workloads/JitHot.java spends its time in two methods, hotTwice
# doing twice the loop iterations of hotOnce. Recorded live by Hotpath
# under
#
#   java -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit
#        -XX:+PreserveFramePointer
#
# the JVM writes /tmp/perf-PID.map only when it exits, after every sample
# was taken: the names come from reading the map once more at the end.
# Both methods must be named, each one row (module [jit]), hotTwice above
# hotOnce, and a stack must run from the JVM's JavaMain through its own
# frames (JavaCalls::call_helper, the interpreter running JitHot.main) to
# hotTwice: the JIT code has no CFI, so the unwinder goes on through it
# with frame pointers.
#
# Usage: jit-java.py --hotpath-cli PATH --source JitHot.java [--rounds N]
# Exit status 0 on success, 1 on a mismatch, 2 when a tool fails, 77
# (skip) when there is no JDK or sampling is not allowed.

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

SKIP = 77
JAVA_FLAGS = ['-XX:+UnlockDiagnosticVMOptions', '-XX:+DumpPerfMapAtExit',
              '-XX:+PreserveFramePointer']


def fail(message, status=1):
    sys.stderr.write('jit-java: %s\n' % message)
    sys.exit(status)


def run(cmd, cwd):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    if proc.returncode != 0:
        fail('%s failed (exit %d):\n%s' % (' '.join(cmd), proc.returncode,
                                           proc.stderr.decode(errors='replace')), 2)
    return proc.stdout.decode(errors='replace')


def paths_to(node, leaf_part, path=()):
    """Yields the call paths (names, root first) that end in a node whose
    name contains @leaf_part."""
    if isinstance(node, list):
        for child in node:
            yield from paths_to(child, leaf_part, path)
        return
    here = path + (node.get('name', ''),)
    if leaf_part in here[-1]:
        yield here
    for child in node.get('children', []):
        yield from paths_to(child, leaf_part, here)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--hotpath-cli', required=True)
    parser.add_argument('--source', required=True)
    parser.add_argument('--rounds', default='60')
    args = parser.parse_args()

    java, javac = shutil.which('java'), shutil.which('javac')
    if java is None or javac is None:
        print('no JDK (java, javac) installed')
        return SKIP
    tmpdir = tempfile.mkdtemp(prefix='hotpath-jit-java-')
    try:
        args.hotpath_cli = os.path.abspath(args.hotpath_cli)
        run([javac, '-d', tmpdir, os.path.abspath(args.source)], tmpdir)
        capture = os.path.join(tmpdir, 'java.hotpath')
        proc = subprocess.run([args.hotpath_cli, 'record', '-o', capture, '--', java] + JAVA_FLAGS
                              + ['-cp', tmpdir, 'JitHot', args.rounds],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmpdir)
        err = proc.stderr.decode(errors='replace')
        if proc.returncode != 0 and 'perf_event_paranoid' in err:
            print('sampling is not allowed here')
            return SKIP
        if proc.returncode != 0:
            fail('record failed (exit %d):\n%s' % (proc.returncode, err), 2)

        db = sqlite3.connect('file:%s?mode=ro' % capture, uri=True)
        for (pid,) in db.execute('SELECT pid FROM processes'):
            if os.path.exists('/tmp/perf-%d.map' % pid):
                os.unlink('/tmp/perf-%d.map' % pid)
        db.close()

        report = json.loads(run([args.hotpath_cli, 'report', capture, '--format', 'json'], tmpdir))
        total = report['samples']
        found = {}
        for f in report['functions']:
            for method in ('JitHot.hotOnce', 'JitHot.hotTwice'):
                if method in f['name']:
                    found.setdefault(method, []).append(f)
        failures = []
        shares = {}
        for method in ('JitHot.hotOnce', 'JitHot.hotTwice'):
            rows = found.get(method, [])
            if len(rows) != 1:
                failures.append('%s: %d rows (%s), want one' % (method, len(rows),
                                                              [r['name'] for r in rows]))
                continue
            row = rows[0]
            shares[method] = 100.0 * row['self'] / max(total, 1)
            print('%-16s %-40s %-6s %6.2f%%' % (method, row['name'], row['module'], shares[method]))
            if row['module'] != '[jit]':
                failures.append('%s: module %s, want [jit]' % (method, row['module']))
        if len(shares) == 2:
            if shares['JitHot.hotOnce'] < 10 or shares['JitHot.hotTwice'] <= shares['JitHot.hotOnce']:
                failures.append('shares hotOnce %.2f%%, hotTwice %.2f%%: want hotTwice above hotOnce '
                                'above 10%%' % (shares['JitHot.hotOnce'], shares['JitHot.hotTwice']))

        # java ran with -XX:+PreserveFramePointer: not to be asked for again
        for line in run([args.hotpath_cli, 'report', capture, '--limit', '1'], tmpdir).splitlines():
            if 'cut at code compiled' in line:
                print(line)
                if 'java with -XX:+PreserveFramePointer' in line and 'already' not in line:
                    failures.append('the report asks for a flag java ran with: %s' % line)
        tree = json.loads(run([args.hotpath_cli, 'report', capture, '--tree', '--format', 'json'],
                              tmpdir))['tree']
        paths = list(paths_to(tree, 'JitHot.hotTwice'))
        # JitHot.main runs once: the interpreter's frame ("Interpreter") or
        # its compiled code is between the JVM's call stub and hotTwice.
        through = [p for p in paths if 'JavaMain' in p
                   and any(n.startswith('JavaCalls::call_helper') for n in p)
                   and any(n == 'Interpreter' or 'JitHot.main' in n for n in p)]
        if through:
            print('a stack: %s' % ' > '.join(through[0]))
        else:
            failures.append('no stack runs from JavaMain through the JVM to hotTwice; paths: %s'
                            % [' > '.join(p) for p in paths[:3]])
        for failure in failures:
            print('FAIL: %s' % failure)
        return 1 if failures else 0
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
