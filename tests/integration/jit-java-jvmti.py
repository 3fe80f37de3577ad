#!/usr/bin/env python3
# jit-java-jvmti.py - Java methods named from perf's JVMTI agent's jitdump (issue 18)
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# perf's JVMTI agent, libperf-jvmti.so, is not in Debian 12's linux-perf;
# build-aux/build-perf-jvmti.sh builds it from the kernel sources of
# linux-source-6.1 (once: it is kept in the build folder). Run under
#
#   java -XX:+PreserveFramePointer -agentpath:libperf-jvmti.so
#
# the JVM writes jit-PID.dump (JITDUMPDIR/.debug/jit/java-jit-*/): every
# method it compiles, named by its descriptor, with a line table.
# tests/workloads/JitHot.java spends its time in hotOnce and hotTwice,
# which does twice hotOnce's loop iterations.
#
#  1. Recorded live by Hotpath, which finds the jitdump by the mapping the
#     agent makes of it: both methods are named as the JVM's own map names
#     them ("long JitHot.hotTwice(long)"), one row each in [jit], hotTwice
#     above hotOnce, in JitHot.java, and the line table puts their samples
#     on lines of their own bodies. The capture records the folder the
#     program ran in, where the window looks for that relative file.
#  2. Against perf, on the same run: `perf record -k 1` of the program,
#     `perf inject --jit` + `perf report` (perf's own way to read a
#     jitdump) and `hotpath-cli import` of the same perf.data must give
#     each method the same share of the samples within 2 pp. Skipped
#     without perf.
#
# Usage: jit-java-jvmti.py --hotpath-cli PATH --source JitHot.java
#                          --build-agent build-perf-jvmti.sh --agent-dir DIR
#                          [--perf PATH] [--rounds N]
# Exit status 0 on success, 1 on a mismatch, 2 when a tool fails, 77
# (skip) when there is no JDK, no kernel sources or sampling is not allowed.

import argparse
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

SKIP = 77
METHODS = ('hotOnce', 'hotTwice')
TOLERANCE_PP = 2.0
PERF_LINE = re.compile(r'^\s*([0-9.]+)%\s+(\d+)\s+\[([.kgu])\]\s+(.+?)\s*$')


def fail(message, status=1):
    sys.stderr.write('jit-java-jvmti: %s\n' % message)
    sys.exit(status)


def run(cmd, cwd, env=None):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env)
    if proc.returncode != 0:
        fail('%s failed (exit %d):\n%s' % (' '.join(cmd), proc.returncode,
                                           proc.stderr.decode(errors='replace')), 2)
    return proc.stdout.decode(errors='replace')


def method_lines(source, method):
    """The lines of @method's body in @source: from its declaration to
    the closing brace at its indentation."""
    lines = open(source).read().splitlines()
    for i, text in enumerate(lines):
        if re.search(r'\b%s\(long n\)' % method, text):
            indent = len(text) - len(text.lstrip())
            for j in range(i + 1, len(lines)):
                if lines[j].strip() == '}' and len(lines[j]) - len(lines[j].lstrip()) == indent:
                    return range(i + 1, j + 2)
    fail('%s is not declared in %s' % (method, source), 2)


def hotpath_methods(cli, capture, cwd):
    report = json.loads(run([cli, 'report', capture, '--format', 'json', '--limit', '0'], cwd))
    rows = {m: [f for f in report['functions'] if 'JitHot.%s(' % m in f['name']] for m in METHODS}
    return rows, report['samples']


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--hotpath-cli', required=True)
    parser.add_argument('--source', required=True)
    parser.add_argument('--build-agent', required=True)
    parser.add_argument('--agent-dir', required=True)
    parser.add_argument('--perf')
    parser.add_argument('--rounds', default='30')
    args = parser.parse_args()

    java, javac = shutil.which('java'), shutil.which('javac')
    if java is None or javac is None:
        print('no JDK (java, javac) installed')
        return SKIP
    built = subprocess.run(['sh', args.build_agent, args.agent_dir],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if built.returncode == SKIP:
        print(built.stderr.decode(errors='replace').strip())
        return SKIP
    if built.returncode != 0:
        fail('building libperf-jvmti.so failed:\n%s' % built.stderr.decode(errors='replace'), 2)
    agent = built.stdout.decode().strip()

    tmpdir = tempfile.mkdtemp(prefix='hotpath-jit-jvmti-')
    env = dict(os.environ, JITDUMPDIR=tmpdir)
    program = [java, '-XX:+PreserveFramePointer', '-agentpath:' + agent,
               '-cp', tmpdir, 'JitHot', args.rounds]
    failures = []
    try:
        args.hotpath_cli = os.path.abspath(args.hotpath_cli)
        source = os.path.abspath(args.source)
        run([javac, '-d', tmpdir, source], tmpdir)

        # 1. recorded live
        capture = os.path.join(tmpdir, 'live.hotpath')
        proc = subprocess.run([args.hotpath_cli, 'record', '-o', capture, '--'] + program,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmpdir, env=env)
        err = proc.stderr.decode(errors='replace')
        if proc.returncode != 0 and 'perf_event_paranoid' in err:
            print('sampling is not allowed here')
            return SKIP
        if proc.returncode != 0:
            fail('record failed (exit %d):\n%s' % (proc.returncode, err), 2)
        if 'jvmti: jitdump in' not in err:
            failures.append('the agent wrote no jitdump: %s' % err)
        rows, total = hotpath_methods(args.hotpath_cli, capture, tmpdir)
        shares = {}
        for method in METHODS:
            if len(rows[method]) != 1:
                failures.append('live: %s has %d rows (%s), want one'
                                % (method, len(rows[method]), [r['name'] for r in rows[method]]))
                continue
            row = rows[method][0]
            shares[method] = 100.0 * row['self'] / max(total, 1)
            print('live: %-28s %-6s %-12s line %-3d %6.2f%%'
                  % (row['name'], row['module'], row['file'], row['line'], shares[method]))
            if row['name'] != 'long JitHot.%s(long)' % method:
                failures.append('live: %s is named %r, not as the JVM names it' % (method, row['name']))
            if row['module'] != '[jit]' or row['file'] != 'JitHot.java':
                failures.append('live: %s in %s of %s; want JitHot.java of [jit]'
                                % (method, row['file'], row['module']))
        if len(shares) == 2 and (shares['hotOnce'] < 10 or shares['hotTwice'] <= shares['hotOnce']):
            failures.append('live: hotOnce %.2f%%, hotTwice %.2f%%: want hotTwice above hotOnce above 10%%'
                            % (shares['hotOnce'], shares['hotTwice']))
        # the line table, per frame: each method's samples on its own lines
        db = sqlite3.connect('file:%s?mode=ro' % capture, uri=True)
        # the agent names files relative to the class path: the window
        # looks for them in the folder the program ran in
        cwd = db.execute("SELECT value FROM metadata WHERE key = 'working_directory'").fetchone()
        if cwd is None or os.path.realpath(cwd[0]) != os.path.realpath(tmpdir):
            failures.append('live: working_directory %s, want %s' % (cwd, tmpdir))
        for method in METHODS:
            body = method_lines(source, method)
            lines = db.execute(
                "SELECT f.file, f.line, count(*) FROM samples s JOIN stacks st ON st.id = s.stack_id "
                "JOIN frames f ON f.id = st.frame_id JOIN functions fn ON fn.id = f.function_id "
                "WHERE fn.name = ? GROUP BY 1, 2", ('long JitHot.%s(long)' % method,)).fetchall()
            print('live: %s lines (body %d-%d): %s' % (method, body[0], body[-1],
                                                       ', '.join('%s:%d %d' % l for l in lines)))
            on_body = sum(n for f, line, n in lines if f == 'JitHot.java' and line in body)
            if on_body < 0.9 * sum(n for _, _, n in lines):
                failures.append('live: of %s\'s samples only %d are on its lines %d-%d'
                                % (method, on_body, body[0], body[-1]))
        db.close()

        # 2. the same run, read by perf inject --jit and by Hotpath
        if args.perf and subprocess.run([args.perf, 'record', '-q', '-o', os.devnull, '--', 'true'],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE).returncode == 0:
            data = os.path.join(tmpdir, 'perf.data')
            injected = os.path.join(tmpdir, 'perf.jit.data')
            # -k 1: the agent stamps its records with CLOCK_MONOTONIC
            run([args.perf, 'record', '-q', '-k', '1', '-g', '-F', '999', '-o', data, '--'] + program,
                tmpdir, env)
            run([args.perf, 'inject', '--jit', '-i', data, '-o', injected], tmpdir, env)
            out = run([args.perf, 'report', '-i', injected, '--no-children', '--sort', 'sym', '--stdio',
                       '-n', '--percent-limit', '0', '-g', 'none'], tmpdir, env)
            perf, perf_total = {m: 0 for m in METHODS}, 0
            for line in out.splitlines():
                m = PERF_LINE.match(line)
                if line.startswith('#') or not m:
                    continue
                perf_total += int(m.group(2))
                for method in METHODS:
                    if 'JitHot.%s(' % method in m.group(4):
                        perf[method] += int(m.group(2))
            imported = os.path.join(tmpdir, 'imported.hotpath')
            run([args.hotpath_cli, 'import', data, '-o', imported], tmpdir, env)
            rows, total = hotpath_methods(args.hotpath_cli, imported, tmpdir)
            print('%-10s %12s %12s' % ('method', 'perf inject', 'hotpath'))
            if perf_total != total:
                failures.append('sample counts differ: perf %d, hotpath %d' % (perf_total, total))
            for method in METHODS:
                p = 100.0 * perf[method] / max(perf_total, 1)
                h = 100.0 * sum(r['self'] for r in rows[method]) / max(total, 1)
                print('%-10s %11.2f%% %11.2f%%' % (method, p, h))
                if p < 10:
                    failures.append('perf gives %s only %.2f%%: the workload did not run as meant' % (method, p))
                if abs(p - h) > TOLERANCE_PP:
                    failures.append('%s: perf %.2f%%, hotpath %.2f%% (more than %.1f pp apart)'
                                    % (method, p, h, TOLERANCE_PP))
                if len(rows[method]) != 1:
                    failures.append('import: %s has %d rows' % (method, len(rows[method])))
        else:
            print('perf cannot sample here: no comparison with perf inject --jit')
        for failure in failures:
            print('FAIL: %s' % failure)
        return 1 if failures else 0
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
