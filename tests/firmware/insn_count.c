/*
** insn_count.c: a QEMU TCG plugin counting the guest instructions executed
** between two addresses (the harness's fw_mark_begin and fw_mark_end).
**
**   qemu-system-arm ... -plugin ./insn_count.so,begin=0xADDR,end=0xADDR
** prints "insns N" when the end address executes.
**
** Debian 12's QEMU 7.2 installs no qemu-plugin.h, so the few entry points
** used are declared here as QEMU 7.2 defines them (plugin API version 1).
*/
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t executed, at_begin;
static uint64_t begin_addr, end_addr;

static void on_begin(unsigned int vcpu, void *data)
{
    (void)vcpu, (void)data;
    at_begin = executed;
}

static void on_end(unsigned int vcpu, void *data)
{
    char line[64];
    (void)vcpu, (void)data;
    snprintf(line, sizeof line, "insns %" PRIu64 "\n", executed - at_begin);
    qemu_plugin_outs(line);
}

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    for (size_t i = 0; i < qemu_plugin_tb_n_insns(tb); i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &executed, 1);
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
    }
    if (!begin_addr || !end_addr) {
        fprintf(stderr, "insn_count: give begin=ADDR,end=ADDR\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
    return 0;
}
