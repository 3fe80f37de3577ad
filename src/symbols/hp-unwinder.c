/* hp-unwinder.c - DWARF (CFI) unwinding of copied user stacks with libdw
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This file owns the libdwfl sessions that unwind samples recorded with
 * PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER: the kernel copied the
 * user registers and the top of the user stack at the sample, and the call
 * frame information (.eh_frame) of the mapped ELF files says, for every pc,
 * where the caller's registers were saved. libdwfl runs that program
 * (dwfl_getthread_frames); this file feeds it:
 *
 *   modules    one Dwfl per process, its modules reported with
 *              dwfl_report_module at the addresses where the process mapped
 *              them. The ELF itself is handed over lazily by find_elf, only
 *              when an unwind reaches the module, as a new reference to the
 *              one Elf we opened for that file (elf_begin on an existing
 *              descriptor only counts a reference), so a file is opened
 *              once per recording however many processes and address-space
 *              changes there are, and re-reporting an unchanged module keeps
 *              the CFI libdwfl already parsed for it.
 *   registers  set_initial_registers maps perf's register order to DWARF's.
 *   memory     memory_read serves the stack copy, and read-only segments of
 *              the mapped files for the rare CFI expression that reads code
 *              or constants. Everything else is unreadable: the unwind stops
 *              there and the stack is reported as cut short.
 *
 * Rules by pc. libdwfl evaluates the CFI afresh for every frame of every
 * sample: it finds the FDE, runs its instructions up to the pc and builds
 * each register's DWARF expression, which was half of the recorder's own
 * CPU on a CPU-bound program. A program's samples keep landing on the same
 * few thousand pcs, so unwind_by_rules() asks libdw once per pc (keyed by
 * the ELF file and the pc's address in it, so every process running the
 * same binary shares them) what the rules are, keeps them when each is one
 * of the forms GCC and LLVM emit (the CFA a register plus an offset; a
 * register undefined, unchanged, saved at CFA + n, equal to CFA + n or to
 * another register), and applies them itself, step for step as libdwfl's
 * handle_cfi() would: the same registers set or unset, the same reads,
 * the same end. Anything else (an FDE of a signal frame, a CFA or register
 * given by an expression, a pc without CFI or outside every module, where
 * libdwfl would fall back to the frame pointer) sends the whole sample to
 * libdwfl, as before. With HOTPATH_CHECK_CACHES=1 in the environment, every
 * sample the rules unwind is unwound by libdwfl too and the two compared:
 * a difference is a warning, and the counts are said at the end (the
 * tests run so; see HACKING.md).
 *
 * Files are read with ELF_C_READ (pread on demand) rather than mmap: a
 * library rewritten in place during a recording must give a short stack,
 * not a SIGBUS in the recorder.
 *
 * An HpUnwinder is not thread-safe: the processing thread owns it.
 */
#define G_LOG_DOMAIN "hp-unwind"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <dwarf.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "symbols/hp-file-locator.h"
#include "symbols/hp-unwinder.h"

/* A stack of 64 KiB holds at most 8192 return addresses; this bound only
 * stops a cycle that garbage registers could make. */
#define MAX_FRAMES 8192

/* How far above the sampled SP a failed read still counts as "beyond the
 * stack copy" rather than as a garbage address: thread stacks are 8 MiB by
 * default, and no frame of a sane program is larger. */
#define ABOVE_COPY_LIMIT (8 * 1024 * 1024)

/* Distinct pcs whose rules are kept: about 150 bytes each with the hash
 * table's. Past that, new pcs are unwound by libdwfl. */
#define MAX_RULES (128 * 1024)

#if defined(__x86_64__)
# define HOST_MACHINE EM_X86_64
/* DWARF register n of x86-64 (rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp,
 * r8-r15, rip: the psABI's order) is perf's register dwarf_to_perf[n]
 * (enum perf_event_x86_regs: AX, BX, CX, DX, SI, DI, BP, SP, IP, FLAGS, CS,
 * SS, DS, ES, FS, GS, R8-R15). */
static const guint8 dwarf_to_perf[] = {
  0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8,
};
# define PERF_REG_SP 7
# define PERF_REG_IP 8
# define SAMPLE_ABI PERF_SAMPLE_REGS_ABI_64
/* AX..IP and R8..R15: every register the CFI may name. FLAGS and the
 * segment registers never appear in it and would cost 56 bytes a sample. */
# define SAMPLE_REGS_USER G_GUINT64_CONSTANT (0xff01ff)
#else
# define SAMPLE_REGS_USER 0
#endif

/* libdwfl's frame state on x86-64: DWARF registers 0-16, rip last
 * (ebl_frame_nregs). */
#define N_DWARF_REGS 17

typedef struct
{
  guint64 offset;
  guint64 filesz;
  guint64 vaddr;
  guint32 flags;   /* PF_* */
} Segment;

/* One ELF file as the unwinder uses it, opened once. */
typedef struct
{
  char    *name;
  int      fd;
  Elf     *elf;         /* NULL: not usable (missing, not ELF, other build) */
  guint64  low_vaddr;   /* where libdwfl starts the module: first PT_LOAD, aligned */
  guint64  high_vaddr;  /* end of the last PT_LOAD in memory */
  GArray  *segments;    /* Segment, PT_LOAD only */
} ElfFile;

/* How one register of the caller's frame is found (see the top). */
typedef enum
{
  REG_UNSET,      /* libdw gave no rule libdwfl could use: left unset */
  REG_UNDEFINED,  /* no value (for the return address: the outermost frame) */
  REG_SAME,       /* the callee's value, if it has one */
  REG_AT_CFA,     /* read at CFA + offset */
  REG_VAL_CFA,    /* CFA + offset */
  REG_REGISTER,   /* the callee's value of register offset */
} RegRule;

/* The CFI of one pc, as unwind_by_rules() applies it. */
typedef struct
{
  gboolean usable;            /* FALSE: libdwfl unwinds through this pc */
  guint8   cfa_reg;
  guint8   ra;                /* the return address register */
  gint32   cfa_offset;
  guint8   how[N_DWARF_REGS]; /* RegRule */
  gint32   offset[N_DWARF_REGS];
} UnwindRule;

typedef struct
{
  gconstpointer file;  /* ElfFile */
  guint64       vaddr; /* the pc in the file's addresses */
} RuleKey;

struct _HpUnwinder;

/* The libdwfl session of one process, and the sample being unwound in it. */
typedef struct
{
  struct _HpUnwinder   *unwinder;
  Dwfl                 *dwfl;
  guint32               pid;
  guint                 generation;
  gboolean              reported;
  gboolean              attached;

  const HpUnwindSample *sample;
  guint64               sp;
  guint                 failed_reads;
  gboolean              above_copy;   /* a read failed just above the copy */
} UnwindProcess;

struct _HpUnwinder
{
  GHashTable *processes;  /* pid -> UnwindProcess */
  GHashTable *files;      /* HpModule* -> ElfFile */
  GArray     *candidates; /* Candidate, reused by report_modules */
  GHashTable *rules;      /* RuleKey* -> UnwindRule* */
  GArray     *check_pcs;  /* HOTPATH_CHECK_CACHES: libdwfl's frames */
  gboolean    check;
  guint64     n_by_rules;
  guint64     n_by_libdwfl;
  guint64     n_mismatches;
};

typedef struct
{
  guint64  low;
  guint64  high;
  ElfFile *file;
} Candidate;

typedef struct
{
  UnwindProcess *process;
  GArray        *pcs;
  guint          n;
  guint          failed_reads;  /* of the process, when the last frame came */
  gboolean       too_deep;
} FrameWalk;

guint64
hp_unwinder_get_sample_regs_user (void)
{
  return SAMPLE_REGS_USER;
}

/* ELF files --------------------------------------------------------------- */

static void
elf_file_free (ElfFile *file)
{
  if (file == NULL)
    return;
  g_clear_pointer (&file->elf, elf_end);
  if (file->fd >= 0)
    close (file->fd);
  g_clear_pointer (&file->segments, g_array_unref);
  g_free (file->name);
  g_free (file);
}

/* Reads the load segments; FALSE when the file cannot be unwound here. */
static gboolean
elf_file_index (ElfFile    *file,
                const char *expected_build_id)
{
  GElf_Ehdr ehdr_mem, *ehdr;
  gboolean have_low = FALSE;
  size_t phnum;

  if (elf_kind (file->elf) != ELF_K_ELF)
    return FALSE;
  ehdr = gelf_getehdr (file->elf, &ehdr_mem);
  if (ehdr == NULL || (ehdr->e_type != ET_EXEC && ehdr->e_type != ET_DYN))
    return FALSE;
#ifdef HOST_MACHINE
  if (ehdr->e_machine != HOST_MACHINE)
    return FALSE;
#endif

  if (expected_build_id != NULL)
    {
      const void *id = NULL;
      ssize_t len = dwelf_elf_gnu_build_id (file->elf, &id);
      g_autofree char *hex = len > 0 ? hp_build_id_to_hex (id, len) : NULL;

      /* A file replaced since it was mapped: its CFI describes other code,
       * and an unwind through it would invent callers. */
      if (g_strcmp0 (hex, expected_build_id) != 0)
        return FALSE;
    }

  if (elf_getphdrnum (file->elf, &phnum) != 0)
    return FALSE;
  for (size_t i = 0; i < phnum; i++)
    {
      GElf_Phdr phdr_mem, *phdr = gelf_getphdr (file->elf, i, &phdr_mem);
      Segment seg;

      if (phdr == NULL || phdr->p_type != PT_LOAD)
        continue;
      seg.offset = phdr->p_offset;
      seg.filesz = phdr->p_filesz;
      seg.vaddr = phdr->p_vaddr;
      seg.flags = phdr->p_flags;
      g_array_append_val (file->segments, seg);

      /* libdwfl computes the module's bias from the first PT_LOAD, aligned
       * down the same way (open_elf in dwfl_module_getdwarf.c). */
      if (!have_low)
        {
          file->low_vaddr = phdr->p_align > 1 ? phdr->p_vaddr & -phdr->p_align : phdr->p_vaddr;
          have_low = TRUE;
        }
      file->high_vaddr = MAX (file->high_vaddr, phdr->p_vaddr + phdr->p_memsz);
    }
  return have_low && file->high_vaddr > file->low_vaddr;
}

static ElfFile *
elf_file_new (const char *name)
{
  ElfFile *file = g_new0 (ElfFile, 1);

  file->name = g_strdup (name);
  file->fd = -1;
  file->segments = g_array_new (FALSE, FALSE, sizeof (Segment));
  return file;
}

static ElfFile *
elf_file_open (const char *path,
               const char *expected_build_id)
{
  ElfFile *file = elf_file_new (path);

  /* Pseudo-files ("//anon", "/dev/zero", "/memfd:x (deleted)") either fail
   * here or are not ELF. O_NONBLOCK: never wait on a FIFO someone mapped. */
  file->fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (file->fd < 0)
    {
      g_debug ("%s: cannot open for unwinding: %s", path, g_strerror (errno));
      return file;
    }
  file->elf = elf_begin (file->fd, ELF_C_READ, NULL);
  if (file->elf != NULL && !elf_file_index (file, expected_build_id))
    {
      g_debug ("%s: not usable for unwinding", path);
      g_clear_pointer (&file->elf, elf_end);
    }
  return file;
}

static ElfFile *
get_file (HpUnwinder      *self,
          const HpMapping *mapping)
{
  ElfFile *file;

  /* [vdso] has a module too: the symbolizer keeps its image in a file
   * (hp_symbolizer_get_vdso_module). */
  if (mapping->module == NULL)
    return NULL;

  if (hp_module_is_kernel (mapping->module))
    return NULL;

  file = g_hash_table_lookup (self->files, mapping->module);
  if (file == NULL)
    {
      /* The symbolizer's search (hp-file-locator.c): a file gone from its
       * path or rebuilt since (a perf.data recorded earlier or elsewhere)
       * is found by build id in the debug directories and perf's cache,
       * and a recorded path under the sysroot of an import. Separate
       * .debug files are not among them: their .eh_frame has no
       * contents. */
      const char *build_id = hp_module_get_build_id (mapping->module);
      g_autoptr(GPtrArray) candidates = hp_module_find_code_files (mapping->module);

      for (guint i = 0; i < candidates->len && (file == NULL || file->elf == NULL); i++)
        {
          elf_file_free (file);
          file = elf_file_open (g_ptr_array_index (candidates, i), build_id);
        }
      if (file == NULL)
        file = elf_file_new (hp_module_get_path (mapping->module));
      g_hash_table_insert (self->files, mapping->module, file);
    }
  return file;
}

/* The load bias of @file as mapped by @mapping: the segment that holds the
 * mapped file offset says which virtual address the mapping's start is. */
static gboolean
mapping_bias (const ElfFile   *file,
              const HpMapping *mapping,
              guint64         *bias)
{
  const Segment *best = NULL;

  for (guint i = 0; i < file->segments->len; i++)
    {
      const Segment *seg = &g_array_index (file->segments, Segment, i);
      guint64 page_offset = seg->offset & ~G_GUINT64_CONSTANT (0xfff);

      if (mapping->pgoff < page_offset || mapping->pgoff >= seg->offset + MAX (seg->filesz, 1))
        continue;
      /* Segments can share a file page; the mappings we see are the
       * executable ones. */
      if (best == NULL || (!(best->flags & PF_X) && (seg->flags & PF_X)))
        best = seg;
    }
  if (best == NULL)
    return FALSE;

  *bias = mapping->start - (mapping->pgoff - best->offset + best->vaddr);
  return TRUE;
}

/* libdwfl callbacks --------------------------------------------------------- */

static int
find_elf (Dwfl_Module  *mod,
          void        **userdata,
          const char   *modname,
          Dwarf_Addr    base,
          char        **file_name,
          Elf         **elfp)
{
  ElfFile *file = *userdata;

  /* A new reference to our Elf: libdwfl's elf_end drops only that. */
  *elfp = file != NULL && file->elf != NULL ? elf_begin (-1, ELF_C_READ, file->elf) : NULL;
  return -1;
}

/* CFI comes from .eh_frame (and .debug_frame of the file itself). Opening
 * separate debug files per process only to find a .debug_frame is not
 * worth it: compilers emit .eh_frame on every distribution we know. */
static int
find_no_debuginfo (Dwfl_Module  *mod,
                   void        **userdata,
                   const char   *modname,
                   Dwarf_Addr    base,
                   const char   *file_name,
                   const char   *debuglink_file,
                   GElf_Word     debuglink_crc,
                   char        **debuginfo_file_name)
{
  return -1;
}

static const Dwfl_Callbacks dwfl_callbacks = {
  .find_elf = find_elf,
  .find_debuginfo = find_no_debuginfo,
  .section_address = dwfl_offline_section_address,
};

/* dwfl_getthread_frames goes through get_thread; there is no thread list. */
static pid_t
next_thread (Dwfl   *dwfl,
             void   *dwfl_arg,
             void  **thread_argp)
{
  return 0;
}

static bool
get_thread (Dwfl   *dwfl,
            pid_t   tid,
            void   *dwfl_arg,
            void  **thread_argp)
{
  *thread_argp = dwfl_arg;
  return true;
}

static gboolean
read_from_file (UnwindProcess *p,
                Dwarf_Addr     address,
                Dwarf_Word    *result)
{
  Dwfl_Module *mod = dwfl_addrmodule (p->dwfl, address);
  void **userdata = NULL;
  Dwarf_Addr start = 0;
  ElfFile *file;
  guint64 vaddr;

  if (mod == NULL || dwfl_module_info (mod, &userdata, &start, NULL, NULL, NULL, NULL, NULL) == NULL)
    return FALSE;
  file = userdata != NULL ? *userdata : NULL;
  if (file == NULL || file->elf == NULL)
    return FALSE;

  vaddr = address - start + file->low_vaddr;
  for (guint i = 0; i < file->segments->len; i++)
    {
      const Segment *seg = &g_array_index (file->segments, Segment, i);
      guint64 offset;

      if (vaddr < seg->vaddr || vaddr - seg->vaddr >= seg->filesz
          || seg->filesz - (vaddr - seg->vaddr) < sizeof *result)
        continue;
      /* Writable data may have changed since the program started. */
      if (seg->flags & PF_W)
        return FALSE;
      offset = seg->offset + (vaddr - seg->vaddr);
      return pread (file->fd, result, sizeof *result, offset) == sizeof *result;
    }
  return FALSE;
}

static bool
memory_read (Dwfl       *dwfl,
             Dwarf_Addr  address,
             Dwarf_Word *result,
             void       *dwfl_arg)
{
  UnwindProcess *p = dwfl_arg;
  const HpUnwindSample *sample = p->sample;

  if (sample->stack != NULL && address >= p->sp
      && sample->stack_size >= sizeof *result
      && address - p->sp <= sample->stack_size - sizeof *result)
    {
      memcpy (result, sample->stack + (address - p->sp), sizeof *result);
      return true;
    }
  if (read_from_file (p, address, result))
    return true;
  p->failed_reads++;
  /* Frames lie above the sampled SP; a read a little above the copy is a
   * frame the copy was too small to hold (a zero-size copy holds none:
   * the kernel could copy nothing). libdwfl may go on after it with its
   * frame-pointer fallback and garbage, so any such read counts. */
  if (sample->stack != NULL && sample->stack_size > 0
      && address >= p->sp + sample->stack_size
      && address - p->sp < ABOVE_COPY_LIMIT)
    p->above_copy = TRUE;
  return false;
}

/* The value of perf register @perf_reg in the sample, if it was sampled. */
static gboolean
sample_reg (const HpUnwindSample *sample,
            guint                 perf_reg,
            guint64              *value)
{
  guint index;

  if (perf_reg >= 64 || !(sample->regs_mask & (G_GUINT64_CONSTANT (1) << perf_reg)))
    return FALSE;
  index = __builtin_popcountll (sample->regs_mask & ((G_GUINT64_CONSTANT (1) << perf_reg) - 1));
  if (index >= sample->n_regs)
    return FALSE;
  *value = sample->regs[index];
  return TRUE;
}

static bool
set_initial_registers (Dwfl_Thread *thread,
                       void        *thread_arg)
{
#ifdef HOST_MACHINE
  UnwindProcess *p = thread_arg;

  for (guint n = 0; n < G_N_ELEMENTS (dwarf_to_perf); n++)
    {
      guint64 value;

      /* Registers the event did not sample stay undefined: CFI that needs
       * one stops the unwind there. */
      if (sample_reg (p->sample, dwarf_to_perf[n], &value)
          && !dwfl_thread_state_registers (thread, n, 1, &value))
        return false;
    }
  return true;
#else
  return false;
#endif
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
  .next_thread = next_thread,
  .get_thread = get_thread,
  .memory_read = memory_read,
  .set_initial_registers = set_initial_registers,
};

/* Rules by pc (see the top) ------------------------------------------------ */

static guint
rule_key_hash (gconstpointer data)
{
  const RuleKey *key = data;

  return g_direct_hash (key->file) ^ (guint) (key->vaddr ^ (key->vaddr >> 32));
}

static gboolean
rule_key_equal (gconstpointer a,
                gconstpointer b)
{
  const RuleKey *ka = a, *kb = b;

  return ka->file == kb->file && ka->vaddr == kb->vaddr;
}

/* @ops as "CFA + n" (DW_OP_call_frame_cfa, then DW_OP_plus_uconst n or
 * nothing), followed by DW_OP_stack_value (*@value) or not. */
static gboolean
ops_cfa_plus (const Dwarf_Op *ops,
              size_t          nops,
              gint64         *offset,
              gboolean       *value)
{
  *offset = 0;
  *value = FALSE;
  if (nops == 0 || ops[0].atom != DW_OP_call_frame_cfa)
    return FALSE;
  ops++, nops--;
  if (nops > 0 && ops[0].atom == DW_OP_plus_uconst)
    {
      *offset = (gint64) ops[0].number;
      ops++, nops--;
    }
  if (nops > 0 && ops[0].atom == DW_OP_stack_value)
    {
      *value = TRUE;
      ops++, nops--;
    }
  return nops == 0;
}

/* The rules of @frame, or rule->usable FALSE where they are not of the
 * forms unwind_by_rules() applies. Mirrors what libdwfl's handle_cfi()
 * makes of dwarf_frame_register()'s answers. */
static void
rule_from_frame (Dwarf_Frame *frame,
                 UnwindRule  *rule)
{
  Dwarf_Op *cfa_ops = NULL;
  size_t cfa_nops = 0;
  Dwarf_Addr start, end;
  gint64 offset;
  bool signal = false;
  int ra = dwarf_frame_info (frame, &start, &end, &signal);

  rule->usable = FALSE;
  /* a signal frame changes which pc the next lookup uses */
  if (signal || ra < 0 || ra >= N_DWARF_REGS)
    return;
  rule->ra = ra;
  if (dwarf_frame_cfa (frame, &cfa_ops, &cfa_nops) != 0 || cfa_nops != 1)
    return;
  if (cfa_ops[0].atom == DW_OP_bregx && cfa_ops[0].number < N_DWARF_REGS)
    {
      rule->cfa_reg = cfa_ops[0].number;
      offset = (gint64) cfa_ops[0].number2;
    }
  else if (cfa_ops[0].atom >= DW_OP_breg0 && cfa_ops[0].atom <= DW_OP_breg31
           && cfa_ops[0].atom - DW_OP_breg0 < N_DWARF_REGS)
    {
      rule->cfa_reg = cfa_ops[0].atom - DW_OP_breg0;
      offset = (gint64) cfa_ops[0].number;
    }
  else
    return;
  if (offset < G_MININT32 || offset > G_MAXINT32)
    return;
  rule->cfa_offset = (gint32) offset;

  for (guint regno = 0; regno < N_DWARF_REGS; regno++)
    {
      Dwarf_Op ops_mem[3], *ops = NULL;
      size_t nops = 0;
      gboolean value;

      offset = 0;
      if (dwarf_frame_register (frame, regno, ops_mem, &ops, &nops) != 0)
        rule->how[regno] = REG_UNSET;
      else if (nops == 0 && ops == ops_mem)
        rule->how[regno] = REG_UNDEFINED;
      else if (nops == 0 && ops == NULL)
        rule->how[regno] = REG_SAME;
      else if (nops == 0)
        rule->how[regno] = REG_UNSET;
      else if (ops_cfa_plus (ops, nops, &offset, &value))
        rule->how[regno] = value ? REG_VAL_CFA : REG_AT_CFA;
      else if (nops == 1 && ops[0].atom == DW_OP_regx && ops[0].number < N_DWARF_REGS)
        {
          rule->how[regno] = REG_REGISTER;
          offset = (gint64) ops[0].number;
        }
      else
        return;
      if (offset < G_MININT32 || offset > G_MAXINT32)
        return;
      rule->offset[regno] = (gint32) offset;
    }
  rule->usable = TRUE;
}

/* The rules at @pc (already one byte back for a return address) in the
 * process, looked up once per file and address; NULL when libdwfl must
 * unwind there. */
static const UnwindRule *
get_rule (HpUnwinder    *self,
          UnwindProcess *p,
          Dwarf_Addr     pc)
{
  Dwfl_Module *mod = dwfl_addrmodule (p->dwfl, pc);
  void **userdata = NULL;
  Dwarf_CFI *cfi;
  Dwarf_Addr bias = 0;
  RuleKey key;
  UnwindRule *rule;
  Dwarf_Frame *frame = NULL;

  if (mod == NULL || dwfl_module_info (mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL) == NULL
      || userdata == NULL || *userdata == NULL)
    return NULL;
  cfi = dwfl_module_eh_cfi (mod, &bias);
  if (cfi == NULL)
    return NULL;
  key.file = *userdata;
  key.vaddr = pc - bias;
  rule = g_hash_table_lookup (self->rules, &key);
  if (rule == NULL)
    {
      if (g_hash_table_size (self->rules) >= MAX_RULES)
        return NULL;
      rule = g_new0 (UnwindRule, 1);
      /* No FDE in .eh_frame: libdwfl tries .debug_frame, then the frame
       * pointer. */
      if (dwarf_cfi_addrframe (cfi, key.vaddr, &frame) == 0)
        rule_from_frame (frame, rule);
      free (frame);
      g_hash_table_insert (self->rules, g_memdup2 (&key, sizeof key), rule);
    }
  return rule->usable ? rule : NULL;
}

/* Unwinds @sample by the rules of its pcs into @pcs, as libdwfl would (see
 * the top). FALSE, with @pcs as it was, when some frame needs libdwfl. */
static gboolean
unwind_by_rules (HpUnwinder           *self,
                 UnwindProcess        *p,
                 const HpUnwindSample *sample,
                 GArray               *pcs,
                 HpUnwindStatus       *status)
{
#ifdef HOST_MACHINE
  guint64 regs[N_DWARF_REGS], caller[N_DWARF_REGS];
  guint32 set = 0, caller_set;
  guint first = pcs->len;
  guint64 pc;
  guint n = 0;

  for (guint regno = 0; regno < N_DWARF_REGS; regno++)
    if (sample_reg (sample, dwarf_to_perf[regno], &regs[regno]))
      set |= 1u << regno;
  if (!(set & (1u << 16)))
    return FALSE;
  pc = regs[16];

  for (;;)
    {
      /* libdwfl looks a return address up one byte back, in the call */
      Dwarf_Addr at = n == 0 ? pc : pc - 1;
      const UnwindRule *rule = get_rule (self, p, at);
      guint failed_before;
      guint64 cfa = 0;
      gboolean have_cfa, pc_undefined = FALSE;

      if (rule == NULL)
        {
          g_array_set_size (pcs, first);
          p->failed_reads = 0;
          p->above_copy = FALSE;
          return FALSE;
        }
      g_array_append_val (pcs, at);
      n++;

      failed_before = p->failed_reads;
      have_cfa = (set & (1u << rule->cfa_reg)) != 0;
      if (have_cfa)
        cfa = regs[rule->cfa_reg] + (guint64) rule->cfa_offset;
      caller_set = 0;
      for (guint regno = 0; regno < N_DWARF_REGS; regno++)
        {
          guint64 value;

          switch ((RegRule) rule->how[regno])
            {
            case REG_UNSET:
              continue;
            case REG_UNDEFINED:
              if (regno == rule->ra)
                pc_undefined = TRUE;
              continue;
            case REG_SAME:
              if (!(set & (1u << regno)))
                continue;
              value = regs[regno];
              break;
            case REG_AT_CFA:
              if (!have_cfa || !memory_read (p->dwfl, cfa + (guint64) rule->offset[regno], &value, p))
                continue;
              break;
            case REG_VAL_CFA:
              if (!have_cfa)
                continue;
              value = cfa + (guint64) rule->offset[regno];
              break;
            case REG_REGISTER:
              if (!(set & (1u << rule->offset[regno])))
                continue;
              value = regs[rule->offset[regno]];
              break;
            default:
              g_assert_not_reached ();
            }
          caller[regno] = value;
          caller_set |= 1u << regno;
        }
      /* libdwfl had unwound this frame too before the walk was cut */
      if (n >= MAX_FRAMES)
        {
          *status = p->above_copy ? HP_UNWIND_COPY_ENDED : HP_UNWIND_STOPPED;
          return TRUE;
        }

      /* the caller's pc: its return address, unless undefined or 0 */
      if (!pc_undefined && (caller_set & (1u << rule->ra)) && caller[rule->ra] != 0)
        {
          pc = caller[rule->ra];
          memcpy (regs, caller, sizeof regs);
          set = caller_set;
          continue;
        }
      /* The outermost frame, cleanly only if its caller's registers were
       * all read (see hp_unwinder_unwind). */
      if (p->failed_reads == failed_before)
        *status = HP_UNWIND_END;
      else
        *status = p->above_copy ? HP_UNWIND_COPY_ENDED : HP_UNWIND_STOPPED;
      return TRUE;
    }
#else
  return FALSE;
#endif
}

/* Processes ----------------------------------------------------------------- */

static void
unwind_process_free (UnwindProcess *p)
{
  g_clear_pointer (&p->dwfl, dwfl_end);
  g_free (p);
}

static int
compare_candidates (gconstpointer a,
                    gconstpointer b)
{
  const Candidate *ca = a, *cb = b;

  if (ca->low != cb->low)
    return ca->low < cb->low ? -1 : 1;
  return 0;
}

/* Reports every mapped ELF file of @space to the process's Dwfl. Modules
 * that are still mapped at the same place are kept by libdwfl with what it
 * parsed of them; the others are dropped. */
static void
report_modules (HpUnwinder     *self,
                UnwindProcess  *p,
                HpAddressSpace *space)
{
  const HpMapping *mappings;
  guint n_mappings;
  guint64 last_high = 0;
  const Candidate *last = NULL;

  g_array_set_size (self->candidates, 0);
  mappings = hp_address_space_get_mappings (space, &n_mappings);
  for (guint i = 0; i < n_mappings; i++)
    {
      ElfFile *file = get_file (self, &mappings[i]);
      Candidate c;
      guint64 bias;

      if (file == NULL || file->elf == NULL || !mapping_bias (file, &mappings[i], &bias))
        continue;
      c.low = bias + file->low_vaddr;
      c.high = bias + file->high_vaddr;
      c.file = file;
      if (c.high > c.low)
        g_array_append_val (self->candidates, c);
    }
  g_array_sort (self->candidates, compare_candidates);

  dwfl_report_begin (p->dwfl);
  for (guint i = 0; i < self->candidates->len; i++)
    {
      const Candidate *c = &g_array_index (self->candidates, Candidate, i);
      Dwfl_Module *mod;
      void **userdata = NULL;

      /* Several executable mappings of one file give one module; a file
       * whose range overlaps the previous one's (a mapping replaced in
       * part) would make address lookups ambiguous. */
      if (last != NULL && c->low < last_high)
        continue;

      mod = dwfl_report_module (p->dwfl, c->file->name, c->low, c->high);
      if (mod == NULL)
        continue;
      if (dwfl_module_info (mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL) != NULL
          && userdata != NULL)
        *userdata = c->file;
      last = c;
      last_high = c->high;
    }
  dwfl_report_end (p->dwfl, NULL, NULL);
  p->reported = TRUE;
}

static UnwindProcess *
get_process (HpUnwinder     *self,
             guint32         pid,
             HpAddressSpace *space,
             guint           generation)
{
  UnwindProcess *p = g_hash_table_lookup (self->processes, GUINT_TO_POINTER (pid));

  if (p == NULL)
    {
      p = g_new0 (UnwindProcess, 1);
      p->unwinder = self;
      p->pid = pid;
      p->dwfl = dwfl_begin (&dwfl_callbacks);
      g_hash_table_insert (self->processes, GUINT_TO_POINTER (pid), p);
    }
  if (p->dwfl == NULL)
    return NULL;

  if (!p->reported || p->generation != generation)
    {
      report_modules (self, p, space);
      p->generation = generation;
    }

  /* The architecture comes from the first module libdwfl can open, so
   * attaching waits until the process has one. */
  if (!p->attached)
    p->attached = dwfl_attach_state (p->dwfl, NULL, pid, &thread_callbacks, p);
  return p->attached ? p : NULL;
}

static int
frame_callback (Dwfl_Frame *state,
                void       *arg)
{
  FrameWalk *walk = arg;
  Dwarf_Addr pc;
  bool activation = false;

  /* Before dwfl_frame_pc: asking whether this frame is an activation
   * already unwinds to its caller, and reads what that needs. */
  walk->failed_reads = walk->process->failed_reads;
  if (!dwfl_frame_pc (state, &pc, &activation))
    return DWARF_CB_ABORT;
  /* A return address points after its call; the call is one byte back. */
  if (!activation && pc > 0)
    pc--;
  g_array_append_val (walk->pcs, pc);
  if (++walk->n >= MAX_FRAMES)
    {
      walk->too_deep = TRUE;
      return DWARF_CB_ABORT;
    }
  return DWARF_CB_OK;
}

/* Unwinds the sample set up in @p with libdwfl into @pcs. */
static HpUnwindStatus
unwind_by_libdwfl (UnwindProcess        *p,
                   const HpUnwindSample *sample,
                   GArray               *pcs)
{
  FrameWalk walk = { p, pcs, 0, 0, FALSE };
  guint64 ip = 0;
  int ret;

  ret = dwfl_getthread_frames (p->dwfl, sample->tid > 0 ? (pid_t) sample->tid : (pid_t) sample->pid,
                               frame_callback, &walk);
  if (walk.n == 0)
    {
      sample_reg (sample, PERF_REG_IP, &ip);
      g_array_append_val (pcs, ip);
      return HP_UNWIND_STOPPED;
    }
  /* libdwfl ends a walk cleanly (0) also when the return address could
   * not be read: only a walk whose last step read everything it needed
   * reached a frame without a caller. */
  if (ret == 0 && !walk.too_deep && p->failed_reads == walk.failed_reads)
    return HP_UNWIND_END;
  return p->above_copy ? HP_UNWIND_COPY_ENDED : HP_UNWIND_STOPPED;
}

/* HOTPATH_CHECK_CACHES: unwinds the sample again with libdwfl and says
 * where the rules' frames or status differ from its. */
static void
check_rules (HpUnwinder           *self,
             UnwindProcess        *p,
             const HpUnwindSample *sample,
             const GArray         *pcs,
             guint                 first,
             HpUnwindStatus        status)
{
  HpUnwindStatus expected;

  g_array_set_size (self->check_pcs, 0);
  p->failed_reads = 0;
  p->above_copy = FALSE;
  expected = unwind_by_libdwfl (p, sample, self->check_pcs);
  if (expected == status && pcs->len - first == self->check_pcs->len
      && memcmp (&g_array_index (pcs, guint64, first), self->check_pcs->data,
                 self->check_pcs->len * sizeof (guint64)) == 0)
    return;
  self->n_mismatches++;
  g_warning ("pid %u: unwound by rules to %u frames (status %d), by libdwfl to %u (status %d)",
             sample->pid, pcs->len - first, status, self->check_pcs->len, expected);
  for (guint i = 0; i < MAX (pcs->len - first, self->check_pcs->len); i++)
    g_warning ("  frame %u: %#" G_GINT64_MODIFIER "x %#" G_GINT64_MODIFIER "x", i,
               i + first < pcs->len ? g_array_index (pcs, guint64, first + i) : 0,
               i < self->check_pcs->len ? g_array_index (self->check_pcs, guint64, i) : 0);
}

HpUnwinder *
hp_unwinder_new (void)
{
  HpUnwinder *self = g_new0 (HpUnwinder, 1);

  elf_version (EV_CURRENT);
  self->processes = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) unwind_process_free);
  self->files = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) elf_file_free);
  self->candidates = g_array_new (FALSE, FALSE, sizeof (Candidate));
  self->rules = g_hash_table_new_full (rule_key_hash, rule_key_equal, g_free, g_free);
  self->check_pcs = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->check = g_strcmp0 (g_getenv ("HOTPATH_CHECK_CACHES"), "1") == 0;
  return self;
}

void
hp_unwinder_free (HpUnwinder *self)
{
  if (self == NULL)
    return;
  if (self->check)
    g_message ("%" G_GUINT64_FORMAT " samples unwound by the rules of their pcs, %" G_GUINT64_FORMAT
               " by libdwfl; %" G_GUINT64_FORMAT " differed from libdwfl's unwinding",
               self->n_by_rules, self->n_by_libdwfl, self->n_mismatches);
  /* The sessions hold references to the files' Elf handles: end them first. */
  g_hash_table_destroy (self->processes);
  g_hash_table_destroy (self->rules);
  g_hash_table_destroy (self->files);
  g_array_unref (self->candidates);
  g_array_unref (self->check_pcs);
  g_free (self);
}

void
hp_unwinder_forget_process (HpUnwinder *self,
                            guint32     pid)
{
  g_return_if_fail (self != NULL);

  g_hash_table_remove (self->processes, GUINT_TO_POINTER (pid));
}

HpUnwindStatus
hp_unwinder_unwind (HpUnwinder           *self,
                    HpAddressSpace       *space,
                    guint                 generation,
                    const HpUnwindSample *sample,
                    GArray               *pcs)
{
  HpUnwindStatus status;
  UnwindProcess *p;
  guint first = pcs->len;  /* the caller's array may hold frames already */
  guint64 sp, ip;

  g_return_val_if_fail (self != NULL, HP_UNWIND_NO_REGS);
  g_return_val_if_fail (space != NULL, HP_UNWIND_NO_REGS);
  g_return_val_if_fail (sample != NULL, HP_UNWIND_NO_REGS);
  g_return_val_if_fail (pcs != NULL, HP_UNWIND_NO_REGS);

#ifdef HOST_MACHINE
  if (sample->abi != SAMPLE_ABI
      || !sample_reg (sample, PERF_REG_SP, &sp)
      || !sample_reg (sample, PERF_REG_IP, &ip))
    return HP_UNWIND_NO_REGS;
#else
  return HP_UNWIND_NO_REGS;
#endif

  p = get_process (self, sample->pid, space, generation);
  if (p == NULL)
    {
      /* Nothing to unwind with, but the registers still name the leaf. */
      g_array_append_val (pcs, ip);
      return HP_UNWIND_STOPPED;
    }

  p->sample = sample;
  p->sp = sp;
  p->failed_reads = 0;
  p->above_copy = FALSE;
  if (unwind_by_rules (self, p, sample, pcs, &status))
    {
      self->n_by_rules++;
      if (self->check)
        check_rules (self, p, sample, pcs, first, status);
    }
  else
    {
      self->n_by_libdwfl++;
      status = unwind_by_libdwfl (p, sample, pcs);
    }
  p->sample = NULL;
  return status;
}
