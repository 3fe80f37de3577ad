#!/usr/bin/env python3
# compare-perf-dwarf.py - Hotpath's DWARF unwinding against perf's, self and total
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Issue 3 requires that for a program built -O2 -g without frame pointers
# that no test of ours tuned for, the top-10 functions by self samples and
# by total samples of `hotpath-cli record --call-graph dwarf` + `report`
# match those of `perf record --call-graph dwarf` + `perf report
# --no-children` / `--children`, each share within the sampling error.
# Total shares are what prove the unwinding: a stack cut short loses its
# callers' totals.
#
# Both tools sample the same run (issue 10), so a busy machine slows the
# run for both and only sampling error is left between them. Neither can
# simply wrap the other: perf wrapping hotpath-cli unwinds the program
# badly (its maps of the process keep those of hotpath-cli, which forked
# it; 92 % of its stacks reached __libc_start_call_main), and Hotpath
# wrapping perf measures perf's work too and cannot be read with
# `hotpath-cli report`. So Hotpath records
#   hotpath-cli record -- env LD_PRELOAD=gate-preload.so HOTPATH_TEST_GATE=FIFO PROGRAM
# whose preloaded constructor holds the program before main until it reads
# a line from FIFO (gate-preload.c), and perf attaches to that process by
# pid (`perf record -p PID`, started with its events disabled and enabled
# through --control, which acknowledges when they are on). Only then does
# the test open the gate. The gate is inside the program's own image: a
# shell that waited and then exec'd the program left perf's unwinding
# stopped at __libc_start_call_main in 3 runs of 5. Shares are read with
# `hotpath-cli report` and `perf report` on everything each tool recorded;
# Hotpath's also hold the program's start (env, the dynamic loader), about
# 0.3 % of its samples. --separate runs the two tools one after the other
# instead. perf marks functions it found inlined with " (inlined)"; the
# name is compared without it.
#
# The tolerance of each share is 3 sigma of the difference of two binomial
# shares plus a floor (compare-perf-common.py); --tolerance fixes it.
#
# Usage: compare-perf-dwarf.py [--hotpath-cli PATH] [--perf PATH] [--top N]
#                              [--tolerance PP] [--stack-size BYTES]
#                              [--gate-preload SO | --separate] [--keep DIR]
#                              -- PROGRAM [ARG...]
# Exit status: 0 when both top-N sets match and every share is within its
# tolerance, 1 on a mismatch, 2 when a tool fails.

import argparse
import errno
import importlib.util
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SELF_LINE = re.compile(r'^\s*([0-9.]+)%\s+(\d+)\s+\[([.kgu])\]\s+(.+?)\s*$')
CHILDREN_LINE = re.compile(r'^\s*([0-9.]+)%\s+([0-9.]+)%\s+\[([.kgu])\]\s+(.+?)\s*$')
EVENT_LINE = re.compile(r"^# Samples: .* of event '([^':]+)")
INLINED = ' (inlined)'
# How long the set-up steps may take on a loaded machine.
TIMEOUT = 60


def load_script(name):
    spec = importlib.util.spec_from_file_location(name.replace('-', '_'),
                                                  os.path.join(HERE, name + '.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


common = load_script('compare-perf-common')


def fail(message):
    sys.stderr.write('compare-perf-dwarf: %s\n' % message)
    sys.exit(2)


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


def perf_report(perf, data, children):
    """Self shares by sample count (and the number of samples), or total
    shares as perf computes them (--children, by period: one period per
    sample at a fixed frequency, within a few parts in a thousand)."""
    cmd = [perf, 'report', '-i', data, '--stdio', '--sort', 'sym',
           '--percent-limit', '0', '-g', 'none',
           '--children' if children else '--no-children']
    if not children:
        cmd += ['-n']
    shares, counts, event = {}, {}, None
    for line in run(cmd).splitlines():
        m = EVENT_LINE.match(line)
        if m:
            event = m.group(1)
        if line.startswith('#'):
            continue
        if children:
            m = CHILDREN_LINE.match(line)
            if m:
                # perf lists a function inlined at several call sites once
                # per site (__libc_start_main_impl twice, 71.8 % + 28.1 %):
                # each sample has one of them on its stack, so they add up.
                name = clean(m.group(4))
                shares[name] = shares.get(name, 0.0) + float(m.group(1))
        else:
            m = SELF_LINE.match(line)
            if m:
                name = clean(m.group(4))
                counts[name] = counts.get(name, 0) + int(m.group(2))
    if children:
        return shares, None, event
    n = sum(counts.values())
    if n == 0:
        fail('perf recorded no samples')
    return {name: 100.0 * c / n for name, c in counts.items()}, n, event


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


def top(shares, n):
    return [name for name, _ in sorted(shares.items(),
                                       key=lambda kv: (-kv[1], kv[0]))[:n]]


def compare(title, perf, hotpath, n, tolerance):
    """Prints one table; returns the failures and the largest difference
    as a fraction of its tolerance."""
    perf_top = top(perf, n)
    hotpath_top = top(hotpath, n)
    names = perf_top + [x for x in hotpath_top if x not in perf_top]
    failures = []
    worst = 0.0
    print('%-36s %9s %9s %7s %7s' % ('function (%s)' % title, 'perf %', 'hotpath %', 'diff', 'tol'))
    for name in names:
        p = perf.get(name, 0.0)
        h = hotpath.get(name, 0.0)
        tol = tolerance(p, h)
        worst = max(worst, abs(p - h) / tol)
        notes = []
        # A function within its tolerance of the last place may swap ranks
        # there by sampling error alone.
        for label, ranking, table in (('perf', perf_top, perf), ('hotpath', hotpath_top, hotpath)):
            if name not in ranking:
                last = table.get(ranking[-1], 0.0) if ranking else 0.0
                if last - table.get(name, 0.0) <= tol and abs(p - h) <= tol:
                    notes.append('rank %d boundary in %s (%.2f %% there)' % (n, label, last))
                else:
                    notes.append('not in %s top %d' % (label, n))
                    failures.append('%s %s' % (title, name))
        if abs(p - h) > tol:
            notes.append('differs by more than %.2f pp' % tol)
            failures.append('%s %s' % (title, name))
        print('%-36s %9.2f %9.2f %+7.2f %7.2f  %s' % (name[:36], p, h, h - p, tol, '; '.join(notes)))
    return list(dict.fromkeys(failures)), worst


def open_fifo_for_writing(path, proc, what):
    """The write end of the FIFO @path once its reader has it open; fails
    when @proc, which should open it, exits first or takes too long."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            return os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            if e.errno != errno.ENXIO:
                raise
        if proc.poll() is not None:
            fail('%s exited (status %d) before it was ready' % (what, proc.returncode))
        if time.monotonic() > deadline:
            fail('%s not ready after %d s' % (what, TIMEOUT))
        time.sleep(0.01)


def read_line_from_fifo(path, proc, what):
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    deadline = time.monotonic() + TIMEOUT
    line = b''
    try:
        # perf 6.1 writes "ack\n\0".
        while b'\n' not in line:
            if time.monotonic() > deadline:
                fail('no answer from %s after %d s' % (what, TIMEOUT))
            select.select([fd], [], [], 0.1)
            try:
                chunk = os.read(fd, 64)
            except BlockingIOError:
                continue
            if not chunk:
                # No writer yet, or it closed: wait unless it is gone.
                if proc.poll() is not None:
                    fail('%s exited (status %d)' % (what, proc.returncode))
                time.sleep(0.01)
            line += chunk
    finally:
        os.close(fd)
    return line.split(b'\n')[0].decode(errors='replace').strip()


def gated_child(parent, exe, what):
    """The pid of the child of @parent once it runs @exe (and so waits at
    the gate, or is about to)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if parent.poll() is not None:
            fail('%s exited (status %d) before it started the program' % (what, parent.returncode))
        for entry in os.listdir('/proc'):
            if not entry.isdigit():
                continue
            try:
                with open('/proc/%s/stat' % entry) as f:
                    stat = f.read()
                # pid (comm) state ppid ...: comm may hold spaces and parens.
                ppid = int(stat[stat.rindex(')') + 2:].split()[1])
                if ppid == parent.pid and os.readlink('/proc/%s/exe' % entry) == exe:
                    return int(entry)
            except (OSError, ValueError, IndexError):
                continue
        time.sleep(0.01)
    fail('%s did not start %s within %d s' % (what, exe, TIMEOUT))


def record_same_run(args, hotpath_cmd, perf_cmd, tmpdir):
    """Hotpath starts the program held at a gate, perf attaches to it by
    pid, then the gate opens: both sample the same run from main on."""
    gate = os.path.join(tmpdir, 'gate')
    ctl = os.path.join(tmpdir, 'perf-ctl')
    ack = os.path.join(tmpdir, 'perf-ack')
    for fifo in (gate, ctl, ack):
        os.mkfifo(fifo)
    program = shutil.which(args.program[0])
    if program is None:
        fail('%s not found' % args.program[0])
    # env execs the program before perf attaches; after that the process
    # runs one image only.
    hotpath = subprocess.Popen(hotpath_cmd + ['env', 'LD_PRELOAD=' + os.path.abspath(args.gate_preload),
                                              'HOTPATH_TEST_GATE=' + gate, program] + args.program[1:],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    perf = None
    try:
        pid = gated_child(hotpath, os.path.realpath(program), 'hotpath-cli record')
        perf = subprocess.Popen(perf_cmd + ['-D', '-1', '--control', 'fifo:%s,%s' % (ctl, ack),
                                            '-p', str(pid)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ctl_fd = open_fifo_for_writing(ctl, perf, 'perf record')
        try:
            os.write(ctl_fd, b'enable\n')
            answer = read_line_from_fifo(ack, perf, 'perf record')
        finally:
            os.close(ctl_fd)
        if answer != 'ack':
            fail('perf record answered %r to enable' % answer)
        gate_fd = open_fifo_for_writing(gate, hotpath, 'hotpath-cli record')
        os.write(gate_fd, b'go\n')
        os.close(gate_fd)

        out, err = hotpath.communicate()
        if hotpath.returncode != 0:
            fail('hotpath-cli record failed (exit %d):\n%s' % (hotpath.returncode, err))
        # perf record -p ends when the process it follows has exited.
        try:
            perf_out, perf_err = perf.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            perf.send_signal(signal.SIGINT)
            perf_out, perf_err = perf.communicate()
        if perf.returncode != 0:
            fail('perf record -p %d failed (exit %d):\n%s' % (pid, perf.returncode, perf_err))
    finally:
        for proc in (hotpath, perf):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--hotpath-cli', default='hotpath-cli')
    parser.add_argument('--perf', default='perf')
    parser.add_argument('--top', type=int, default=10)
    parser.add_argument('--tolerance', type=float, default=None,
                        help='a fixed tolerance in pp instead of the sampling error')
    parser.add_argument('--freq', type=int, default=999)
    parser.add_argument('--stack-size', type=int, default=8192)
    parser.add_argument('--separate', action='store_true',
                        help='record with each tool in its own run')
    parser.add_argument('--gate-preload', metavar='SO',
                        help='gate-preload.so (built in tests/integration), '
                             'which holds the program until perf is attached')
    parser.add_argument('--keep', metavar='DIR',
                        help='copy perf.data and the capture into DIR')
    parser.add_argument('program', nargs='+')
    args = parser.parse_args()

    for tool in (args.hotpath_cli, args.perf):
        if shutil.which(tool) is None:
            fail('%s not found' % tool)

    call_graph = 'dwarf,%d' % args.stack_size
    with tempfile.TemporaryDirectory(prefix='hotpath-compare-dwarf-') as tmpdir:
        data = os.path.join(tmpdir, 'perf.data')
        capture = os.path.join(tmpdir, 'program.hotpath')
        hotpath_cmd = [args.hotpath_cli, 'record', '-F', str(args.freq),
                       '--call-graph', call_graph, '-o', capture, '--']
        # No -e: perf picks the event Hotpath picks, cycles where the
        # machine counts them and cpu-clock where it does not.
        perf_cmd = [args.perf, 'record', '-q', '-F', str(args.freq),
                    '--call-graph', call_graph, '-o', data]
        if not args.separate and args.gate_preload is None:
            fail('give --gate-preload (or --separate for two runs)')
        if args.separate:
            run(perf_cmd + ['--'] + args.program)
            run(hotpath_cmd + args.program)
        else:
            record_same_run(args, hotpath_cmd, perf_cmd, tmpdir)
        hp_self, hp_total, report = hotpath_report(args.hotpath_cli, capture)
        # Self shares like perf's --sort sym, which names the function code
        # was inlined into (generate_text for next_random, 0.6 pp): Hotpath's
        # with inlined frames folded into their callers, as compare-perf.py.
        hp_self = common.folded_self_shares(args.hotpath_cli, capture)
        perf_self, n_perf, perf_event = perf_report(args.perf, data, False)
        perf_total, _, _ = perf_report(args.perf, data, True)
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            shutil.copy(data, args.keep)
            shutil.copy(capture, args.keep)
    n_hotpath = report['samples']

    def tolerance(p, h):
        if args.tolerance is not None:
            return args.tolerance
        return common.share_tolerance(p, h, n_perf, n_hotpath)

    print('program: %s (%s)' % (' '.join(args.program),
                                'two runs' if args.separate else 'one run, sampled by both'))
    print('perf:    %d samples of %s' % (n_perf, perf_event or '?'))
    print('hotpath: %d samples of %s, %d lost, %d truncated stacks, call graph %s'
          % (n_hotpath, report.get('event', '?'), report.get('lost', 0),
             report.get('truncated', 0), call_graph))
    failures, worst_self = compare('self', perf_self, hp_self, args.top, tolerance)
    print()
    more, worst_total = compare('total', perf_total, hp_total, args.top, tolerance)
    failures += more
    print('largest difference: %.2f of its tolerance (self), %.2f (total)'
          % (worst_self, worst_total))

    if failures:
        print('MISMATCH: %s' % ', '.join(failures))
        return 1
    print('OK: same top %d by self and by total, each within its tolerance' % args.top)
    return 0


if __name__ == '__main__':
    sys.exit(main())
