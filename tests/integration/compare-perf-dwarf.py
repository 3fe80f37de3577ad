#!/usr/bin/env python3
# compare-perf-dwarf.py - Hotpath's DWARF unwinding against perf's, self and total
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Issue 3 requires that for a program built -O2 -g without frame pointers
# that no test of ours tuned for, the top-10 functions by self samples and
# by total samples of `hotpath-cli record --call-graph dwarf` + `report`
# match those of `perf record --call-graph dwarf` + `perf report
# --no-children` / `--children`, each share within 2 percentage points.
# Total shares are what prove the unwinding: a stack cut short loses its
# callers' totals.
#
# Both tools measure the same run of the program, so run-to-run differences
# of a shared machine do not count against the tolerance: Hotpath records
# `perf record -- PROGRAM`, which runs the program as it always does, and
# its shares are computed from the capture's tables for the program's
# threads only, the way `hotpath-cli report` computes them (self: the
# function of the innermost frame; total: every function on the stack,
# once). Nesting the other way round would handicap perf, whose maps of a
# process keep those of the parent it forked from after exec (measured:
# only 92 % of its stacks then reach __libc_start_call_main). --separate
# runs the two tools one after the other instead. perf marks functions it
# found inlined with " (inlined)"; the name is compared without it.
#
# Usage: compare-perf-dwarf.py [--hotpath-cli PATH] [--perf PATH] [--top N]
#                              [--tolerance PP] [--stack-size BYTES]
#                              [--separate] -- PROGRAM [ARG...]
# Exit status: 0 when both top-N sets match and every share is within the
# tolerance, 1 on a mismatch, 2 when a tool fails.

import argparse
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

SELF_LINE = re.compile(r'^\s*([0-9.]+)%\s+\[([.kgu])\]\s+(.+?)\s*$')
CHILDREN_LINE = re.compile(r'^\s*([0-9.]+)%\s+([0-9.]+)%\s+\[([.kgu])\]\s+(.+?)\s*$')
INLINED = ' (inlined)'


def run(cmd, **kwargs):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kwargs)
    if proc.returncode != 0:
        sys.stderr.write('compare-perf-dwarf: %s failed (exit %d):\n%s\n'
                         % (' '.join(cmd), proc.returncode, proc.stderr))
        sys.exit(2)
    return proc.stdout


def clean(name):
    return name[:-len(INLINED)] if name.endswith(INLINED) else name


def perf_report(perf, data, comm, children):
    cmd = [perf, 'report', '-i', data, '--stdio', '--sort', 'sym',
           '--percent-limit', '0', '-g', 'none', '--percentage', 'relative',
           '--children' if children else '--no-children']
    if comm:
        cmd += ['--comms', comm]
    shares = {}
    for line in run(cmd).splitlines():
        if line.startswith('#'):
            continue
        if children:
            m = CHILDREN_LINE.match(line)
            if m:
                name = clean(m.group(4))
                shares[name] = max(shares.get(name, 0.0), float(m.group(1)))
        else:
            m = SELF_LINE.match(line)
            if m:
                name = clean(m.group(3))
                shares[name] = shares.get(name, 0.0) + float(m.group(1))
    return shares


def hotpath_report(cli, capture):
    report = json.loads(run([cli, 'report', capture, '--format', 'json',
                             '--sort', 'self', '--limit', '1000000']))
    total = report['samples']
    if total <= 0:
        sys.stderr.write('compare-perf-dwarf: Hotpath recorded no samples\n')
        sys.exit(2)
    self_shares, total_shares = {}, {}
    for f in report['functions']:
        # One symbol name to perf's --sort sym, whatever the module.
        name = f['name']
        self_shares[name] = self_shares.get(name, 0.0) + 100.0 * f['self'] / total
        total_shares[name] = max(total_shares.get(name, 0.0), 100.0 * f['total'] / total)
    return self_shares, total_shares, report


def hotpath_shares_of(capture, comm):
    """Self and total shares of the threads named @comm, from the tables."""
    db = sqlite3.connect(capture)
    names = dict(db.execute('SELECT f.id, fn.name FROM frames f '
                            'JOIN functions fn ON fn.id = f.function_id'))
    nodes = {i: (p, f) for i, p, f in db.execute('SELECT id, parent_id, frame_id FROM stacks')}
    counts = db.execute('SELECT s.stack_id, count(*) FROM samples s '
                        'JOIN threads t ON t.tid = s.tid WHERE t.name = ? '
                        'GROUP BY s.stack_id', (comm,)).fetchall()
    truncated = 0
    n = sum(c for _, c in counts)
    if n == 0:
        sys.stderr.write('compare-perf-dwarf: Hotpath recorded no samples of %s\n' % comm)
        sys.exit(2)
    self_shares, total_shares = {}, {}
    for stack, c in counts:
        frames = []
        while stack:
            stack, frame = nodes[stack]
            frames.append(names[frame])
        if frames:
            self_shares[frames[0]] = self_shares.get(frames[0], 0.0) + 100.0 * c / n
        if frames and frames[-1] == '[truncated]':
            truncated += c
        for name in set(frames):
            total_shares[name] = total_shares.get(name, 0.0) + 100.0 * c / n
    lost = db.execute("SELECT value FROM metadata WHERE key = 'lost_samples'").fetchone()
    db.close()
    return self_shares, total_shares, {'samples': n, 'truncated_stacks': truncated,
                                       'lost': int(lost[0]) if lost else 0}


def top(shares, n):
    return [name for name, _ in sorted(shares.items(),
                                       key=lambda kv: (-kv[1], kv[0]))[:n]]


def compare(title, perf, hotpath, n, tolerance):
    perf_top = top(perf, n)
    hotpath_top = top(hotpath, n)
    names = perf_top + [x for x in hotpath_top if x not in perf_top]
    failures = []
    print('%-36s %9s %9s %7s' % ('function (%s)' % title, 'perf %', 'hotpath %', 'diff'))
    for name in names:
        p = perf.get(name, 0.0)
        h = hotpath.get(name, 0.0)
        notes = []
        if name not in perf_top:
            notes.append('not in perf top %d' % n)
        if name not in hotpath_top:
            notes.append('not in hotpath top %d' % n)
        if abs(p - h) > tolerance:
            notes.append('differs by more than %.1f pp' % tolerance)
        if notes:
            failures.append('%s %s' % (title, name))
        print('%-36s %9.2f %9.2f %+7.2f  %s' % (name[:36], p, h, h - p, '; '.join(notes)))
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--hotpath-cli', default='hotpath-cli')
    parser.add_argument('--perf', default='perf')
    parser.add_argument('--top', type=int, default=10)
    parser.add_argument('--tolerance', type=float, default=2.0)
    parser.add_argument('--freq', type=int, default=999)
    parser.add_argument('--stack-size', type=int, default=8192)
    parser.add_argument('--separate', action='store_true',
                        help='record with each tool in its own run')
    parser.add_argument('program', nargs='+')
    args = parser.parse_args()

    for tool in (args.hotpath_cli, args.perf):
        if shutil.which(tool) is None:
            sys.stderr.write('compare-perf-dwarf: %s not found\n' % tool)
            sys.exit(2)

    call_graph = 'dwarf,%d' % args.stack_size
    with tempfile.TemporaryDirectory(prefix='hotpath-compare-dwarf-') as tmpdir:
        data = os.path.join(tmpdir, 'perf.data')
        capture = os.path.join(tmpdir, 'program.hotpath')
        hotpath_cmd = [args.hotpath_cli, 'record', '-F', str(args.freq),
                       '--call-graph', call_graph, '-o', capture, '--'] + args.program
        perf_cmd = [args.perf, 'record', '-q', '-e', 'cpu-clock', '-F', str(args.freq),
                    '--call-graph', call_graph, '-o', data, '--']
        if args.separate:
            run(perf_cmd + args.program)
            run(hotpath_cmd)
            hp_self, hp_total, report = hotpath_report(args.hotpath_cli, capture)
        else:
            run(hotpath_cmd[:-len(args.program)] + perf_cmd + args.program)
            # The kernel keeps the first 15 bytes of the executable's name.
            comm = os.path.basename(args.program[0])[:15]
            hp_self, hp_total, report = hotpath_shares_of(capture, comm)
        perf_self = perf_report(args.perf, data, None, False)
        perf_total = perf_report(args.perf, data, None, True)

    print('program: %s' % ' '.join(args.program))
    print('hotpath: %d samples, %d lost, %d truncated stacks, call graph %s'
          % (report['samples'], report.get('lost', 0),
             report.get('truncated_stacks', report.get('truncated', 0)), call_graph))
    failures = compare('self', perf_self, hp_self, args.top, args.tolerance)
    print()
    failures += compare('total', perf_total, hp_total, args.top, args.tolerance)

    if failures:
        print('MISMATCH: %s' % ', '.join(failures))
        return 1
    print('OK: same top %d by self and by total, each within %.1f pp'
          % (args.top, args.tolerance))
    return 0


if __name__ == '__main__':
    sys.exit(main())
