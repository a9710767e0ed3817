/*
** insn_count.c: a QEMU TCG plugin counting the guest instructions executed
** between two addresses (the harness's fw_mark_begin and fw_mark_end), and
** estimating the cycles a Cortex-M4 at zero wait states takes for them
** (m4_timing.h: each instruction's cost from the TRM's tables).
**
**   qemu-system-arm ... -plugin ./insn_count.so,begin=0xADDR,end=0xADDR
** prints, when the end address executes:
**   insns N          instructions executed
**   cycles C         estimated cycles, with a pipeline refill P of 2
**   cycles_base B    the cycles without the refills
**   refills R        taken branches (each costs P, 1 to 3 cycles)
**   divides D        SDIV/UDIV executed (each counted as M4_DIV_CYCLES of 2-12)
** so that C = B + 2R, and the range over P is B + R to B + 3R.
** With syms=FILE (lines "ADDRESS NAME", the functions in address order, as
** `arm-none-eabi-nm -n` lists them) it also prints, for each function,
**   fn C NAME        estimated cycles (P = 2) of the blocks starting in it
** (a taken branch charged to the function it leaves), most first.
**
** The cycles of a translation block are summed when it is translated: a
** single load or store right after a single load pipelines (1 cycle less)
** unless its address register is the one the load wrote.  Each executed block adds its sum; a block that starts anywhere
** but after the conditional branch ending the previous block means that
** branch was taken.
**
** Debian 12's QEMU 7.2 installs no qemu-plugin.h, so the few entry points
** used are declared here as QEMU 7.2 defines them (plugin API version 1).
*/
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "m4_timing.h"

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;       /* only passed through */
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_op op,
                                                void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
                                            void (*cb)(unsigned int vcpu_index, void *userdata),
                                            enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_outs(const char *string);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
                                          void (*cb)(unsigned int vcpu_index, void *userdata),
                                          enum qemu_plugin_cb_flags flags, void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define REFILL_CYCLES 2   /* P: 1 to 3 by the TRM */

/* What a translation block costs when it runs. */
typedef struct tb_cost {
    uint64_t start, fallthrough;   /* its first address; the one after its last instruction */
    uint64_t *fn_cycles;           /* its function's counter (syms=), or NULL */
    uint64_t cycles;               /* without the refill of its last branch */
    uint32_t divides;
    enum m4_branch ends_with;
} tb_cost;

typedef struct counters {
    uint64_t insns, cycles, refills, divides;
} counters;

static counters now, at_begin;
static const tb_cost *previous;
static uint64_t begin_addr, end_addr;

/* syms=: the functions, in address order, and their cycles between begin and end. */
typedef struct fn_sym {
    uint64_t addr, cycles;
    char name[96];
} fn_sym;
static fn_sym *fns;
static size_t n_fns;
static int measuring;

static int read_syms(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[256], name[96];
    unsigned long long addr;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%llx %*s %95s", &addr, name) == 2 || sscanf(line, "%llx %95s", &addr, name) == 2) {
            fn_sym *g = realloc(fns, (n_fns + 1) * sizeof *g);
            if (!g)
                abort();
            fns = g;
            fns[n_fns].addr = addr & ~1ull, fns[n_fns].cycles = 0;
            snprintf(fns[n_fns].name, sizeof fns[n_fns].name, "%s", name);
            n_fns++;
        }
    fclose(f);
    return 0;
}

/* The counter of the function holding pc: the last symbol at or below it. */
static uint64_t *fn_counter(uint64_t pc)
{
    size_t lo = 0, hi = n_fns;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (fns[mid].addr <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? &fns[lo - 1].cycles : NULL;
}

static int by_cycles(const void *a, const void *b)
{
    const fn_sym *x = a, *y = b;
    return x->cycles < y->cycles ? 1 : x->cycles > y->cycles ? -1 : 0;
}

static void print_profile(void)
{
    char line[160];
    qsort(fns, n_fns, sizeof *fns, by_cycles);
    for (size_t i = 0; i < n_fns && fns[i].cycles; i++) {
        snprintf(line, sizeof line, "fn %" PRIu64 " %s\n", fns[i].cycles, fns[i].name);
        qemu_plugin_outs(line);
    }
}

static void on_begin(unsigned int vcpu, void *data)
{
    (void)vcpu, (void)data;
    at_begin = now;
    measuring = 1;
}

static void on_end(unsigned int vcpu, void *data)
{
    char line[256];
    (void)vcpu, (void)data;
    uint64_t insns = now.insns - at_begin.insns, base = now.cycles - at_begin.cycles;
    uint64_t refills = now.refills - at_begin.refills, divides = now.divides - at_begin.divides;
    snprintf(line, sizeof line,
             "insns %" PRIu64 "\ncycles %" PRIu64 "\ncycles_base %" PRIu64 "\nrefills %" PRIu64
             "\ndivides %" PRIu64 "\n", insns, base + REFILL_CYCLES * refills, base, refills, divides);
    qemu_plugin_outs(line);
    measuring = 0;
    if (n_fns)
        print_profile();
}

static void on_tb_exec(unsigned int vcpu, void *data)
{
    const tb_cost *tb = data;
    (void)vcpu;
    if (previous && (previous->ends_with == M4_BRANCH_ALWAYS ||
                     (previous->ends_with == M4_BRANCH_COND && tb->start != previous->fallthrough))) {
        now.refills++;
        if (measuring && previous->fn_cycles)
            *previous->fn_cycles += REFILL_CYCLES;
    }
    if (measuring && tb->fn_cycles)
        *tb->fn_cycles += tb->cycles;
    now.cycles += tb->cycles;
    now.divides += tb->divides;
    previous = tb;
}

/* The block's cycles, with neighbouring single loads and stores pipelined. */
static tb_cost *block_cost(struct qemu_plugin_tb *tb)
{
    tb_cost *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    c->start = qemu_plugin_tb_vaddr(tb);
    c->fn_cycles = n_fns ? fn_counter(c->start) : NULL;
    m4_cost last = { 0, M4_NOT_BRANCH, 0, 0, -1, -1, 0 };
    for (size_t i = 0; i < qemu_plugin_tb_n_insns(tb); i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        size_t size = qemu_plugin_insn_size(insn);
        m4_cost k = m4_timing(qemu_plugin_insn_data(insn), size);
        unsigned cycles = k.cycles;
        if (k.ldst_single && last.is_load && cycles > 1 && (last.load_reg < 0 || last.load_reg != k.base_reg))
            cycles--;
        c->cycles += cycles;
        c->divides += (uint32_t)k.divide;
        c->ends_with = k.branch;
        c->fallthrough = qemu_plugin_insn_vaddr(insn) + size;
        last = k;
    }
    return c;
}

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec, QEMU_PLUGIN_CB_NO_REGS, block_cost(tb));
    for (size_t i = 0; i < qemu_plugin_tb_n_insns(tb); i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &now.insns, 1);
        if (pc == begin_addr)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_begin, QEMU_PLUGIN_CB_NO_REGS, NULL);
        if (pc == end_addr)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_end, QEMU_PLUGIN_CB_NO_REGS, NULL);
    }
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id,
                                                               const qemu_info_t *info, int argc,
                                                               char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "begin=", 6) == 0)
            begin_addr = strtoull(argv[i] + 6, NULL, 0) & ~UINT64_C(1);   /* Thumb bit */
        else if (strncmp(argv[i], "end=", 4) == 0)
            end_addr = strtoull(argv[i] + 4, NULL, 0) & ~UINT64_C(1);
        else if (strncmp(argv[i], "syms=", 5) == 0 && read_syms(argv[i] + 5)) {
            fprintf(stderr, "insn_count: cannot read %s\n", argv[i] + 5);
            return -1;
        }
    }
    if (!begin_addr || !end_addr) {
        fprintf(stderr, "insn_count: give begin=ADDR,end=ADDR\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
    return 0;
}
