#!/usr/bin/env python3
# record-multiprocess.py - what recording a serial build costs: Hotpath against perf record
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Issue 15: compiling 8 C files one gcc after another, a recorder runs the
# same binaries (gcc, cc1, as) in a new process each time. The goal is a
# total CPU (program plus recorder) of at most 1.5x the program's own, a
# wall time no longer than `perf record --call-graph dwarf`'s, and at most
# 1.1x on a single process. This benchmark (it asserts nothing) writes 8
# generated C files, then runs, RUNS times each and alternating:
#   plain     sh -c 'gcc -O2 -c 1.c; gcc -O2 -c 2.c; ...'
#   hotpath   hotpath-cli record --call-graph dwarf -o X -- the same
#   perf      perf record --call-graph dwarf -o X -- the same
# and the same three for one single-process program (--single, by default
# the oracle workload), and for `true`, a program that does nothing, whose
# extra wall and CPU time is a recording's fixed cost. It prints the median wall time and CPU time (user +
# sys of the command and all its children, os.wait4) of each, and the ratios
# to the plain run. Wall time is of the whole command, so it includes what a
# recorder does after the program exits. On a shared machine the plain runs
# alone vary by a fifth: each median comes with the range of its runs, and
# each CPU ratio with the range of the ratios of the runs taken side by side
# (run i of a recorder over run i of the plain command), so that a ratio is
# read with its noise. --runs 5 or more narrows it.
#
# --split also says where a recorder's share goes: every variant then runs
# the program under a small wrapper (in all of them, the plain one too)
# that measures the program's own CPU inside the recorder, so that the
# extra CPU splits into what the program itself takes more (the kernel's
# work at each sample, done in the program's time) and what the recorder's
# own process takes: its total, less the program, less what the wrapper
# adds (the plain variant's total less its program).
#
# Usage: record-multiprocess.py [--hotpath-cli PATH] [--runs N] [--freq HZ]
#                               [--files N] [--split] [--single PROGRAM [ARG...]]

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, '..', '..', 'build')


# Runs argv[2:], then writes to argv[1] the CPU seconds of that program
# (it and its children); exits as it did. In C, built with the gcc the
# serial build needs: a wrapper in Python took as much CPU as it measured,
# and a recorder unwound and named the interpreter's frames too.
WRAPPER = r'''
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  struct rusage usage;
  int status;
  pid_t pid;
  FILE *out;

  if (argc < 3)
    return 2;
  pid = fork ();
  if (pid == 0)
    {
      execvp (argv[2], argv + 2);
      _exit (127);
    }
  if (pid < 0 || wait4 (pid, &status, 0, &usage) != pid || (out = fopen (argv[1], "w")) == NULL)
    return 2;
  fprintf (out, "%f\n", usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
                         + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6);
  if (fclose (out) != 0)
    return 2;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}
'''


# The third workload, a program that does nothing (true): what starting and
# finishing a recording cost, whatever the program.
FIXED = 'fixed cost (true)'


def run(cmd, cwd):
    """Runs cmd; returns (wall s, CPU s of it and its children)."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    err = proc.stderr.read().decode(errors='replace')
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.stderr.write('record-multiprocess: %s failed (exit %d):\n%s\n'
                         % (' '.join(cmd), code, err[-2000:]))
        sys.exit(2)
    return wall, usage.ru_utime + usage.ru_stime


def write_sources(folder, n):
    """n C files, each some hundred functions gcc -O2 takes a while over."""
    for i in range(n):
        with open(os.path.join(folder, 'unit%d.c' % i), 'w') as f:
            f.write('#include <stdio.h>\n#include <string.h>\n')
            for j in range(150):
                f.write('''
static int table_%(i)d_%(j)d[64];
int work_%(i)d_%(j)d (int n, const char *s)
{
  int acc = 0;
  for (int k = 0; k < n; k++)
    {
      acc += table_%(i)d_%(j)d[k & 63] * (int) strlen (s + (k %% 3));
      if (acc %% 7 == %(m)d)
        acc ^= k << 3;
      else
        acc += snprintf (NULL, 0, "%%d", acc);
    }
  return acc;
}
''' % {'i': i, 'j': j, 'm': j % 7})


def main():
    parser = argparse.ArgumentParser(description='Recording a serial build, Hotpath vs perf record')
    parser.add_argument('--hotpath-cli', default=os.path.join(BUILD, 'src', 'cli', 'hotpath-cli'))
    parser.add_argument('--runs', type=int, default=3)
    parser.add_argument('--freq', default='999')
    parser.add_argument('--files', type=int, default=8)
    parser.add_argument('--split', action='store_true',
                        help="also measure the program's own CPU inside each recorder")
    parser.add_argument('--single', nargs=argparse.REMAINDER,
                        default=[os.path.join(BUILD, 'tests', 'workloads', 'oracle'), '40'])
    args = parser.parse_args()

    for tool in ('perf', 'gcc', args.hotpath_cli, args.single[0]):
        if shutil.which(tool) is None:
            sys.stderr.write('record-multiprocess: %s not found\n' % tool)
            return 2

    with tempfile.TemporaryDirectory(prefix='hotpath-multiprocess-') as tmpdir:
        write_sources(tmpdir, args.files)
        build = ['sh', '-c', '; '.join('gcc -O2 -c unit%d.c -o unit%d.o' % (i, i)
                                       for i in range(args.files))]
        capture = os.path.join(tmpdir, 'bench.hotpath')
        perf_data = os.path.join(tmpdir, 'perf.data')
        inner = os.path.join(tmpdir, 'inner-cpu')
        wrapper = os.path.join(tmpdir, 'cpu-of')
        if args.split:
            with open(wrapper + '.c', 'w') as f:
                f.write(WRAPPER)
            subprocess.run(['gcc', '-O2', '-o', wrapper, wrapper + '.c'], check=True)
        workloads = {'serial build (%d x gcc -O2)' % args.files: build,
                     'single process (%s)' % os.path.basename(args.single[0]): args.single,
                     FIXED: ['true']}
        for label, program in workloads.items():
            if args.split:
                program = [wrapper, inner] + program
            variants = {
                'plain': program,
                'hotpath': [args.hotpath_cli, 'record', '--force', '-F', args.freq,
                            '--call-graph', 'dwarf', '-o', capture, '--'] + program,
                'perf': ['perf', 'record', '-q', '-F', args.freq, '--call-graph', 'dwarf',
                         '-o', perf_data, '--'] + program,
            }
            results = {name: [] for name in variants}
            inside = {name: [] for name in variants}  # --split: the program's CPU s
            for i in range(args.runs):
                for name, cmd in variants.items():
                    results[name].append(run(cmd, tmpdir))
                    print('  %s, run %d: %-8s %7.2f s wall %7.2f s CPU'
                          % ((label, i + 1, name) + results[name][-1]), flush=True)
                    if args.split:
                        with open(inner) as f:
                            inside[name].append(float(f.read()))
            med = {name: (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))
                   for name, runs in results.items()}
            print()
            print('%s: medians of %d alternating runs, -F %s, --call-graph dwarf'
                  % (label, args.runs, args.freq))
            print('  %-10s %9s %13s %9s %13s %12s %12s %15s'
                  % ('', 'wall s', '(range)', 'CPU s', '(range)', 'wall/plain', 'CPU/plain',
                     '(pairs range)'))
            for name, runs in results.items():
                pairs = [r[1] / p[1] for r, p in zip(runs, results['plain'])]
                print('  %-10s %9.2f %13s %9.2f %13s %11.2fx %11.2fx %15s'
                      % (name, med[name][0], '%.2f-%.2f' % (min(r[0] for r in runs), max(r[0] for r in runs)),
                         med[name][1], '%.2f-%.2f' % (min(r[1] for r in runs), max(r[1] for r in runs)),
                         med[name][0] / med['plain'][0], med[name][1] / med['plain'][1],
                         '%.2f-%.2fx' % (min(pairs), max(pairs))))
            print('  hotpath / perf: wall %.2fx, CPU %.2fx'
                  % (med['hotpath'][0] / med['perf'][0], med['hotpath'][1] / med['perf'][1]))
            if label == FIXED:
                # a program that does nothing: what a recording costs
                # whatever the program, in milliseconds
                for name in ('hotpath', 'perf'):
                    print('  %-10s fixed cost %6.1f ms wall, %6.1f ms CPU'
                          % (name, (med[name][0] - med['plain'][0]) * 1e3,
                             (med[name][1] - med['plain'][1]) * 1e3))
            if args.split:
                plain_program = statistics.median(inside['plain'])
                wrapping = statistics.median(total - p for (_, total), p
                                             in zip(results['plain'], inside['plain']))
                print('  where the CPU goes (medians; the program measured inside each variant,')
                print('  the wrapper\'s own %.3f s taken off the recorders\'):' % wrapping)
                print('  %-10s %12s %14s %14s %16s'
                      % ('', 'program s', 'program/plain', 'recorder s', 'recorder/plain'))
                for name, runs in results.items():
                    if name == 'plain':
                        continue
                    program_cpu = statistics.median(inside[name])
                    own = statistics.median(total - p - wrapping for (_, total), p
                                            in zip(runs, inside[name]))
                    print('  %-10s %12.3f %13.3fx %14.3f %15.3fx'
                          % (name, program_cpu, program_cpu / plain_program, own,
                             own / plain_program))
            print()
        print('goals (issue 15): serial build CPU/plain <= 1.5x and wall <= perf\'s; '
              'single process CPU/plain <= 1.1x')
    return 0


if __name__ == '__main__':
    sys.exit(main())
