/*
** llvm_target.c: the LLVM backend's target machine, optimisation and output:
** the module serialised in a forked child (LLVM may end the process on a
** target choice it cannot honour) and written to its file.
*/
#define _GNU_SOURCE
#include "emit_llvm_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassManagerBuilder.h>

static pthread_once_t targets_once = PTHREAD_ONCE_INIT;

static void init_targets(void)
{
    LLVMInitializeAllTargetInfos();
    LLVMInitializeAllTargets();
    LLVMInitializeAllTargetMCs();
    LLVMInitializeAllAsmPrinters();
}

/* -Os and -Oz as clang does: the optsize (and minsize) attribute on every
** function, the size level in the pass pipeline, a lower inlining threshold. */
static void mark_size(LLVMModuleRef m, int size_level)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        const char *names[2] = { "optsize", "minsize" };
        for (int i = 0; i < size_level && i < 2; i++) {
            unsigned kind = LLVMGetEnumAttributeKindForName(names[i], strlen(names[i]));
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                    LLVMCreateEnumAttribute(ctx, kind, 0));
        }
    }
}

static void optimise(LLVMModuleRef m, LLVMTargetMachineRef tm, int level, int size_level)
{
    LLVMPassManagerBuilderRef pmb = LLVMPassManagerBuilderCreate();
    LLVMPassManagerBuilderSetOptLevel(pmb, (unsigned)level);
    LLVMPassManagerBuilderSetSizeLevel(pmb, (unsigned)size_level);
    if (size_level)
        mark_size(m, size_level);
    if (level >= 2)
        LLVMPassManagerBuilderUseInlinerWithThreshold(pmb, size_level >= 2 ? 25
                                                           : size_level ? 75
                                                           : level >= 3 ? 275 : 225);
    LLVMPassManagerRef fpm = LLVMCreateFunctionPassManagerForModule(m);
    LLVMAddAnalysisPasses(tm, fpm);
    LLVMPassManagerBuilderPopulateFunctionPassManager(pmb, fpm);
    LLVMInitializeFunctionPassManager(fpm);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            LLVMRunFunctionPassManager(fpm, f);
    LLVMFinalizeFunctionPassManager(fpm);
    LLVMDisposePassManager(fpm);
    LLVMPassManagerRef mpm = LLVMCreatePassManager();
    LLVMAddAnalysisPasses(tm, mpm);
    LLVMPassManagerBuilderPopulateModulePassManager(pmb, mpm);
    LLVMRunPassManager(mpm, m);
    LLVMDisposePassManager(mpm);
    LLVMPassManagerBuilderDispose(pmb);
}

static sm2c_status write_file(sm2c_ctx *c, const char *path, const char *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "cannot create: %s",
                          strerror(errno));
    while (len) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int err = n < 0 ? errno : EIO;
            close(fd);
            return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "cannot write: %s",
                              strerror(err));
        }
        data += n;
        len -= (size_t)n;
    }
    if (close(fd) != 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "cannot write: %s",
                          strerror(errno));
    return SM2C_OK;
}

/* Optimise and serialise into a malloc'd buffer; NULL and *err (malloc'd) on
** failure. */
static char *serialise(LLVMModuleRef m, LLVMTargetMachineRef tm, const sm2c_llvm_opts *o,
                       sm2c_llvm_kind kind, size_t *len, char **err)
{
    optimise(m, tm, o->target.opt_level, o->target.size_level);
    char *out = NULL;
    *err = NULL;
    if (kind == SM2C_LLVM_IR) {
        char *text = LLVMPrintModuleToString(m);
        *len = strlen(text);
        out = malloc(*len + 1);
        SM2C_ASSERT(out != NULL);
        memcpy(out, text, *len + 1);
        LLVMDisposeMessage(text);
        return out;
    }
    LLVMMemoryBufferRef buf = NULL;
    if (kind == SM2C_LLVM_BC) {
        buf = LLVMWriteBitcodeToMemoryBuffer(m);
        if (!buf) {
            *err = strdup("LLVM could not write bitcode");
            return NULL;
        }
    } else {
        char *msg = NULL;
        if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &msg, &buf)) {
            *err = strdup(msg ? msg : "");
            LLVMDisposeMessage(msg);
            return NULL;
        }
        LLVMDisposeMessage(msg);
    }
    *len = LLVMGetBufferSize(buf);
    out = malloc(*len + 1);
    SM2C_ASSERT(out != NULL);
    memcpy(out, LLVMGetBufferStart(buf), *len);
    LLVMDisposeMemoryBuffer(buf);
    return out;
}

static int write_fd(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* serialise() in a child process.  LLVM answers some target choices it cannot
** honour (a CPU without 64-bit code for a 64-bit triple, an FPU-less CPU with
** a hard-float ABI) with report_fatal_error, which ends the process; in a child
** that becomes an error report.  The child sends 'O' + bytes or 'E' + message
** through a pipe.  Returns -1 when no child could be started. */
static int serialise_in_child(LLVMModuleRef m, LLVMTargetMachineRef tm, const sm2c_llvm_opts *o,
                              sm2c_llvm_kind kind, char **out, size_t *len, char **err,
                              int *crashed)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        size_t n = 0;
        char *e = NULL;
        char *data = serialise(m, tm, o, kind, &n, &e);
        int bad = data ? write_fd(fds[1], "O", 1) || write_fd(fds[1], data, n)
                       : write_fd(fds[1], "E", 1) || write_fd(fds[1], e, strlen(e));
        _exit(bad || close(fds[1]) != 0 ? 3 : 0);
    }
    close(fds[1]);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    SM2C_ASSERT(buf != NULL);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
            SM2C_ASSERT(buf != NULL);
        }
        ssize_t k = read(fds[0], buf + n, cap - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        n += (size_t)k;
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    *out = NULL;
    *err = NULL;
    *crashed = !WIFEXITED(status) || WEXITSTATUS(status) != 0 || n == 0;
    if (*crashed) {
        free(buf);
        return 0;
    }
    buf[n] = 0;
    if (buf[0] == 'O') {
        memmove(buf, buf + 1, n - 1);
        *len = n - 1;
        *out = buf;
    } else {
        memmove(buf, buf + 1, n);   /* with the NUL */
        *err = buf;
    }
    return 0;
}

/* ELF only: Mach-O and COFF name sections differently (and dead-strip by
** symbol anyway). */
int sm2c_llvm_is_elf(const char *triple)
{
    static const char *const others[] = { "apple", "darwin", "macos", "ios", "windows", "win32",
                                          "mingw", "cygwin", "uefi" };
    for (size_t i = 0; i < sizeof others / sizeof *others; i++)
        if (strstr(triple, others[i]))
            return 0;
    return 1;
}

/* Every defined function and global in its own section, as -ffunction-sections
** -fdata-sections would (the LLVM-C API cannot set those target options), so
** --gc-sections drops unused entry points and their weights. */
void sm2c_llvm_own_sections(lw *w)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(w->m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            LLVMSetSection(f, sm2c_arena_printf(w->c->arena, ".text.%s", LLVMGetValueName(f)));
    for (LLVMValueRef g = LLVMGetFirstGlobal(w->m); g; g = LLVMGetNextGlobal(g)) {
        LLVMValueRef init = LLVMGetInitializer(g);
        if (!init)
            continue;
        const char *kind = LLVMIsGlobalConstant(g) ? ".rodata" : LLVMIsNull(init) ? ".bss" : ".data";
        LLVMSetSection(g, sm2c_arena_printf(w->c->arena, "%s.%s", kind, LLVMGetValueName(g)));
    }
}

/* --section: the named classes' globals in their sections (after
** sm2c_llvm_own_sections, which these override); ELF only (the caller checks). */
void sm2c_llvm_user_sections(lw *w)
{
    const sm2c_placement *pl = &w->p->placement;
    if (pl->section[SM2C_SECTION_WEIGHTS])
        for (int32_t i = 0; i < w->p->n_weights; i++)
            if (w->weights[i])
                LLVMSetSection(w->weights[i], pl->section[SM2C_SECTION_WEIGHTS]);
    if (w->arena && pl->section[SM2C_SECTION_ARENA])
        LLVMSetSection(w->arena, pl->section[SM2C_SECTION_ARENA]);
    if (w->fast_arena && pl->section[SM2C_SECTION_FAST_ARENA])
        LLVMSetSection(w->fast_arena, pl->section[SM2C_SECTION_FAST_ARENA]);
    if (w->default_state && pl->section[SM2C_SECTION_STATE])
        LLVMSetSection(w->default_state, pl->section[SM2C_SECTION_STATE]);
}

/* --section names ELF sections: another object format is refused, not
** given names its assembler would reject or misread. */
sm2c_status sm2c_llvm_check_sections(sm2c_ctx *c, const sm2c_program *p, const char *triple)
{
    if (!sm2c_placement_any_section(&p->placement) || sm2c_llvm_is_elf(triple))
        return SM2C_OK;
    return sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, "--section",
                      "--section names ELF sections, and %s is not an ELF target (Mach-O wants \"segment,section\", "
                      "COFF short names); use --emit c with SM2C_SECTION defined for it", triple);
}

sm2c_status sm2c_llvm_optimise_and_write(lw *w, LLVMTargetMachineRef tm, const sm2c_llvm_opts *o,
                                         sm2c_llvm_kind kind, const char *path)
{
    char *data = NULL, *err = NULL;
    size_t len = 0;
    int crashed = 0;
    if (serialise_in_child(w->m, tm, o, kind, &data, &len, &err, &crashed) != 0)
        data = serialise(w->m, tm, o, kind, &len, &err);
    sm2c_status st;
    if (crashed)
        st = sm2c_error(w->c->diag, SM2C_ERR_UNSUPPORTED, NULL, "--target",
                        "LLVM failed to generate code for %s (cpu '%s', features '%s'); "
                        "see its message above", LLVMGetTarget(w->m), o->target.cpu ? o->target.cpu : "",
                        o->target.features ? o->target.features : "");
    else if (!data)
        st = sm2c_error(w->c->diag, SM2C_ERR_UNSUPPORTED, NULL, "--target",
                        "LLVM cannot emit this for %s: %s", LLVMGetTarget(w->m),
                        sm2c_llvm_first_line(w->c, err));
    else
        st = write_file(w->c, path, data, len);
    free(data);
    free(err);
    return st;
}

/* Triple -> target machine; NULL after reporting. */
LLVMTargetMachineRef sm2c_llvm_target_machine(sm2c_ctx *c, const sm2c_llvm_opts *o, const char *path,
                                              char **triple_out)
{
    pthread_once(&targets_once, init_targets);
    char *triple = o->target.triple && *o->target.triple ? LLVMNormalizeTargetTriple(o->target.triple)
                                           : LLVMGetDefaultTargetTriple();
    LLVMTargetRef target = NULL;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &msg) || !target) {
        /* A configuration error, not a file one: the output path is a private temporary. */
        sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, "--target", "unknown target triple '%s': %s",
                   o->target.triple && *o->target.triple ? o->target.triple : triple, sm2c_llvm_first_line(c, msg));
        LLVMDisposeMessage(msg);
        LLVMDisposeMessage(triple);
        return NULL;
    }
    LLVMDisposeMessage(msg);
    LLVMCodeGenOptLevel cg = o->target.opt_level <= 0 ? LLVMCodeGenLevelNone
                           : o->target.opt_level == 1 ? LLVMCodeGenLevelLess
                           : o->target.opt_level == 2 ? LLVMCodeGenLevelDefault
                                               : LLVMCodeGenLevelAggressive;
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(
        target, triple, o->target.cpu ? o->target.cpu : "", o->target.features ? o->target.features : "", cg,
        o->pic ? LLVMRelocPIC : LLVMRelocDefault, LLVMCodeModelDefault);
    if (!tm) {
        sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, "--target",
                   "LLVM cannot make a target machine for '%s' (cpu '%s', features '%s')", triple,
                   o->target.cpu ? o->target.cpu : "", o->target.features ? o->target.features : "");
        LLVMDisposeMessage(triple);
        return NULL;
    }
    *triple_out = triple;
    return tm;
}
