#!/usr/bin/env python3
# jit-node.py - JavaScript functions named from node's perf map (issue 18)
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# tests/workloads/jit-hot.js spends its time in two functions, hotTwice
# doing twice the loop iterations of hotOnce. Run with --perf-basic-prof,
# node writes /tmp/perf-PID.map, which names the code V8 compiled.
#
#  1. Against perf, on the same run: `perf record -g` records node once;
#     `perf report` on that perf.data (which reads /tmp/perf-PID.map) and
#     `hotpath-cli import` of it see the very same samples, so there is no
#     sampling noise between them, and a busy machine cannot fail this.
#     perf names code per compiled object and tier ("JS:*hotTwice
#     /path/jit-hot.js:9:18", "JS:^hotTwice ..."), Hotpath per function
#     ("hotTwice"): perf's rows are summed per function name. Each of the
#     two shares of self samples must agree within 2 percentage points.
#     The map is moved beside the perf.data before the import: Hotpath
#     reads it there, as it would a map copied from another machine.
#     perf's rows per tier ("JS:*hotTwice", "JS:^hotTwice") must match
#     the tiers Hotpath reports for its one row per function, each within
#     2 pp of all samples.
#  2. Recorded live by Hotpath with --interpreted-frames-native-stack: both
#     functions named, hotTwice above hotOnce, and a stack runs from _start
#     through the JavaScript main to hotTwice: JIT code has no CFI, and the
#     unwinder goes on through it with its frame pointers. The few stacks
#     still cut at JIT code are not met with advice to give that flag.
#  3. Recorded live with --perf-prof: V8 writes jit-PID.dump, not a map;
#     both functions are named from it, in jit-hot.js, with their tiers.
#  4. perf's own way with a jitdump: `perf record -k 1` of node --perf-prof,
#     then `perf inject --jit`, which writes one jitted-PID-N.so per piece
#     of code and points the perf.data at them. Its import names each
#     function once, under [jit], in jit-hot.js, with its tiers, and its
#     shares agree with perf report on the injected file within 2 pp
#     (the import once made a function and module of every compiled copy).
#
# Usage: jit-node.py --hotpath-cli PATH --perf PATH --node PATH --script PATH
# Exit status 0 on agreement, 1 on a mismatch, 2 when a tool fails, 77
# (skip) when perf cannot sample or node is missing.

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
PERF_LINE = re.compile(r'^\s*([0-9.]+)%\s+(\d+)\s+\[([.kgu])\]\s+(.+?)\s*$')
V8_NAME = re.compile(r'^(?:JS|LazyCompile|Function):([~^+*]?)(\S*)')
TIERS = {'~': 'interpreted', '^': 'baseline', '+': 'mid-tier', '*': 'optimized'}
FUNCTIONS = ('hotOnce', 'hotTwice')
TOLERANCE_PP = 2.0
WORKDIR = None


def fail(message, status=1):
    sys.stderr.write('jit-node: %s\n' % message)
    sys.exit(status)


def run(cmd, **kwargs):
    # node leaves isolate-*-v8.log files in its working directory
    kwargs.setdefault('cwd', WORKDIR)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)
    if proc.returncode != 0:
        fail('%s failed (exit %d):\n%s' % (' '.join(cmd), proc.returncode,
                                           proc.stderr.decode(errors='replace')), 2)
    return proc.stdout.decode(errors='replace'), proc.stderr.decode(errors='replace')


def perf_shares(perf, data):
    out, _ = run([perf, 'report', '-i', data, '--no-children', '--sort', 'sym',
                  '--stdio', '-n', '--percent-limit', '0', '-g', 'none'])
    per_function, per_tier, total = {}, {}, 0
    for line in out.splitlines():
        m = PERF_LINE.match(line)
        if line.startswith('#') or not m:
            continue
        count = int(m.group(2))
        total += count
        v8 = V8_NAME.match(m.group(4))
        name = v8.group(2) if v8 else m.group(4)
        per_function[name] = per_function.get(name, 0) + count
        if v8 and v8.group(1):
            key = (name, TIERS[v8.group(1)])
            per_tier[key] = per_tier.get(key, 0) + count
    return per_function, per_tier, total


def hotpath_report(cli, capture):
    out, _ = run([cli, 'report', capture, '--format', 'json', '--limit', '0'])
    report = json.loads(out)
    return {f['name']: f for f in report['functions']}, report['samples']


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--hotpath-cli', required=True)
    parser.add_argument('--perf', required=True)
    parser.add_argument('--node', default='node')
    parser.add_argument('--script', required=True)
    parser.add_argument('--rounds', default='6')
    args = parser.parse_args()

    node = shutil.which(args.node)
    if node is None:
        print('node is not installed')
        return SKIP
    global WORKDIR
    tmpdir = WORKDIR = tempfile.mkdtemp(prefix='hotpath-jit-node-')
    args.script = os.path.abspath(args.script)
    program = [node, '--perf-basic-prof', args.script, args.rounds]
    try:
        data = os.path.join(tmpdir, 'perf.data')
        probe = subprocess.run([args.perf, 'record', '-q', '-o', os.devnull, '--', 'true'],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if probe.returncode != 0:
            print('perf cannot sample here')
            return SKIP

        # 1. the same run, read by both
        run([args.perf, 'record', '-q', '-g', '-F', '999', '-o', data, '--'] + program)
        out, _ = run([args.perf, 'report', '-i', data, '--stdio', '--sort', 'pid', '-g', 'none'])
        pids = set(re.findall(r'node:(\d+)|(\d+):node', out))
        pids = {int(a or b) for a, b in pids}
        perf, perf_tiers, perf_total = perf_shares(args.perf, data)
        for pid in pids:
            src = '/tmp/perf-%d.map' % pid
            if os.path.exists(src):
                shutil.move(src, os.path.join(tmpdir, 'perf-%d.map' % pid))
        if not any(os.path.exists(os.path.join(tmpdir, 'perf-%d.map' % p)) for p in pids):
            fail('node wrote no perf map for pids %s' % sorted(pids), 2)
        capture = os.path.join(tmpdir, 'imported.hotpath')
        run([args.hotpath_cli, 'import', data, '-o', capture])
        hotpath, hotpath_total = hotpath_report(args.hotpath_cli, capture)

        print('%-10s %12s %12s' % ('function', 'perf', 'hotpath'))
        failures = []
        if perf_total != hotpath_total:
            failures.append('sample counts differ: perf %d, hotpath %d' % (perf_total, hotpath_total))
        for name in FUNCTIONS:
            p = 100.0 * perf.get(name, 0) / max(perf_total, 1)
            h = 100.0 * (hotpath[name]['self'] if name in hotpath else 0) / max(hotpath_total, 1)
            print('%-10s %11.2f%% %11.2f%%' % (name, p, h))
            if p < 10:
                failures.append('perf gives %s only %.2f%%: the workload did not run as meant' % (name, p))
            if abs(p - h) > TOLERANCE_PP:
                failures.append('%s: perf %.2f%%, hotpath %.2f%% (more than %.1f pp apart)'
                                % (name, p, h, TOLERANCE_PP))
            elif name in hotpath:
                f = hotpath[name]
                if f.get('module') != '[jit]' or not str(f.get('file', '')).endswith('jit-hot.js'):
                    failures.append('%s: module %s, file %s; want [jit] and jit-hot.js'
                                    % (name, f.get('module'), f.get('file')))
            # perf has a row per tier ("JS:*hotTwice", "JS:^hotTwice"),
            # Hotpath one row that says how it splits over the tiers
            tiers = hotpath.get(name, {}).get('tiers', {})
            for tier in TIERS.values():
                p = 100.0 * perf_tiers.get((name, tier), 0) / max(perf_total, 1)
                h = 100.0 * tiers.get(tier, {}).get('self', 0) / max(hotpath_total, 1)
                if p or h:
                    print('  %-12s %9.2f%% %11.2f%%' % (tier, p, h))
                if abs(p - h) > TOLERANCE_PP:
                    failures.append('%s %s: perf %.2f%%, hotpath %.2f%%' % (name, tier, p, h))
            if perf.get(name) and not tiers:
                failures.append('%s: no tiers in the report' % name)

        # 2. recorded live
        live = os.path.join(tmpdir, 'live.hotpath')
        # JS frames of their own (not the interpreter's) on the stack, as
        # the README tells users to run node
        _, err = run([args.hotpath_cli, 'record', '-o', live, '--', node, '--perf-basic-prof',
                      '--interpreted-frames-native-stack', args.script, args.rounds])
        report, total = hotpath_report(args.hotpath_cli, live)
        once = report.get('hotOnce', {}).get('self', 0)
        twice = report.get('hotTwice', {}).get('self', 0)
        print('live: hotOnce %d, hotTwice %d of %d samples' % (once, twice, total))
        if once < 0.1 * total or twice <= once:
            failures.append('live: hotOnce %d, hotTwice %d of %d samples' % (once, twice, total))
        # node ran with the flag: the header must not ask for it again
        header, _ = run([args.hotpath_cli, 'report', live, '--limit', '1'])
        for line in header.splitlines():
            if 'cut at code compiled' in line:
                print('live: %s' % line)
                if 'run node with --interpreted-frames-native-stack' in line.lower():
                    failures.append('live: the report asks for a flag node ran with: %s' % line)
        tree, _ = run([args.hotpath_cli, 'report', live, '--tree', '--format', 'json'])
        tree = json.loads(tree)['tree']
        if not reaches(tree, 'hotTwice', 'main') or not reaches(tree, 'main', '_start'):
            failures.append('live: no stack runs from _start through the JS main to hotTwice')
        # 3. recorded live with --perf-prof: V8 writes a jitdump (into its
        # working folder, where Hotpath finds it by the mapping V8 makes of
        # it), with line tables
        dumped = os.path.join(tmpdir, 'jitdump.hotpath')
        run([args.hotpath_cli, 'record', '-o', dumped, '--', node, '--perf-prof',
             '--interpreted-frames-native-stack', args.script, args.rounds])
        if not any(f.startswith('jit-') and f.endswith('.dump') for f in os.listdir(tmpdir)):
            failures.append('jitdump: node --perf-prof wrote no jit-PID.dump')
        report, total = hotpath_report(args.hotpath_cli, dumped)
        for name in FUNCTIONS:
            f = report.get(name, {})
            tiers = f.get('tiers', {})
            print('jitdump: %s %d of %d samples, file %s, tiers %s'
                  % (name, f.get('self', 0), total, f.get('file'), tiers))
            if f.get('self', 0) < 0.1 * total:
                failures.append('jitdump: %s has %d of %d samples' % (name, f.get('self', 0), total))
            elif not str(f.get('file', '')).endswith('jit-hot.js') or f.get('module') != '[jit]':
                failures.append('jitdump: %s in %s of %s' % (name, f.get('file'), f.get('module')))
            elif not tiers:
                failures.append('jitdump: %s has no tiers' % name)
        # 4. perf record -k 1 + perf inject --jit, imported
        raw = os.path.join(tmpdir, 'perf-jit.data')
        injected = os.path.join(tmpdir, 'perf-jit-injected.data')
        run([args.perf, 'record', '-q', '-k', '1', '-g', '-F', '999', '-o', raw, '--', node, '--perf-prof',
             '--interpreted-frames-native-stack', args.script, args.rounds])
        run([args.perf, 'inject', '--jit', '-i', raw, '-o', injected])
        perf, _, perf_total = perf_shares(args.perf, injected)
        capture = os.path.join(tmpdir, 'injected.hotpath')
        run([args.hotpath_cli, 'import', injected, '-o', capture])
        report, total = hotpath_report(args.hotpath_cli, capture)
        copies = [n for n in report if V8_NAME.match(n)]
        if copies:
            failures.append('inject: V8 names kept whole, a row per compiled copy: %s' % copies[:4])
        for name in FUNCTIONS:
            f = report.get(name, {})
            p = 100.0 * perf.get(name, 0) / max(perf_total, 1)
            h = 100.0 * f.get('self', 0) / max(total, 1)
            print('inject: %s perf %.2f%%, hotpath %.2f%%, module %s, file %s, tiers %s'
                  % (name, p, h, f.get('module'), f.get('file'), f.get('tiers')))
            if p < 10 or abs(p - h) > TOLERANCE_PP:
                failures.append('inject: %s perf %.2f%%, hotpath %.2f%%' % (name, p, h))
            elif f.get('module') != '[jit]' or not str(f.get('file', '')).endswith('jit-hot.js'):
                failures.append('inject: %s in %s of %s' % (name, f.get('file'), f.get('module')))
            elif not f.get('tiers'):
                failures.append('inject: %s has no tiers' % name)
        # the line tables' files: node 20 garbles some, which must not show
        db = sqlite3.connect('file:%s?mode=ro' % dumped, uri=True)
        db.text_factory = bytes
        for fname, ffile in db.execute(
                "SELECT fn.name, f.file FROM frames f JOIN functions fn ON fn.id = f.function_id "
                "JOIN modules m ON m.id = fn.module_id WHERE m.path = '[jit]' AND f.file IS NOT NULL"):
            if fname.decode() in FUNCTIONS and not ffile.endswith(b'jit-hot.js'):
                failures.append('jitdump: a frame of %s is in %r' % (fname.decode(), ffile))
        db.close()
        db = sqlite3.connect('file:%s?mode=ro' % live, uri=True)
        for (pid,) in db.execute('SELECT pid FROM processes'):
            if os.path.exists('/tmp/perf-%d.map' % pid):
                os.unlink('/tmp/perf-%d.map' % pid)
        db.close()
        for failure in failures:
            print('FAIL: %s' % failure)
        return 1 if failures else 0
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def reaches(nodes, leaf, root, seen_root=False):
    """Whether a path of the tree goes through @root and then @leaf."""
    if isinstance(nodes, dict):
        nodes = [nodes]
    for node in nodes:
        here = seen_root or node.get('name') == root
        if here and node.get('name') == leaf:
            return True
        if reaches(node.get('children', []), leaf, root, here):
            return True
    return False


if __name__ == '__main__':
    sys.exit(main())
