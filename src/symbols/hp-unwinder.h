/* hp-unwinder.h - DWARF (CFI) unwinding of copied user stacks with libdw
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "symbols/hp-address-space.h"

G_BEGIN_DECLS

typedef enum {
  HP_UNWIND_END,        /* the CFI says the outermost frame has no caller */
  HP_UNWIND_STOPPED,    /* cut short: no CFI, unmapped pc, unreadable memory, ... */
  HP_UNWIND_COPY_ENDED, /* cut short where the caller's frame lay above the stack
                         * copy: a bigger copy would have gone further */
  HP_UNWIND_NO_REGS,    /* no usable registers (other ABI, missing SP or IP): nothing unwound */
} HpUnwindStatus;

/* A copied user stack and the user registers of one sample, as perf gives
 * them (PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER). */
typedef struct {
  guint32        pid;
  guint32        tid;
  guint64        abi;         /* PERF_SAMPLE_REGS_ABI_* */
  guint64        regs_mask;   /* the event's sample_regs_user */
  const guint64 *regs;        /* one value per bit of regs_mask, lowest bit first */
  guint          n_regs;
  const guint8  *stack;       /* copy of the stack from the sampled SP up; may be NULL */
  gsize          stack_size;
} HpUnwindSample;

typedef struct _HpUnwinder HpUnwinder;

/* The sample_regs_user mask to ask perf for so that this machine's stacks
 * can be unwound; 0 when DWARF unwinding is not supported on this
 * architecture. */
guint64         hp_unwinder_get_sample_regs_user (void);

HpUnwinder     *hp_unwinder_new             (void);
void            hp_unwinder_free            (HpUnwinder           *self);

/* Unwinds @sample through the mappings of @space and appends the user
 * frames' code addresses to @pcs (guint64), innermost first. Return
 * addresses are already moved back into their call instruction (minus 1),
 * so each address resolves to the line and inline chain of the call; the
 * first frame and frames interrupted by a signal are left as they are.
 *
 * @generation identifies the state of @space: the unwinder keeps one libdw
 * session per process and updates it when the generation changes (mmap,
 * exec). ELF files are opened once per HpModule, never per sample.
 * Garbage registers, a zero-size stack copy or a missing file give a short
 * stack and HP_UNWIND_STOPPED, never a crash. */
HpUnwindStatus  hp_unwinder_unwind          (HpUnwinder           *self,
                                             HpAddressSpace       *space,
                                             guint                 generation,
                                             const HpUnwindSample *sample,
                                             GArray               *pcs);

/* Drops the libdw session of @pid (the process exited). */
void            hp_unwinder_forget_process  (HpUnwinder           *self,
                                             guint32               pid);

G_END_DECLS
