/*
** c_profile.c: the C backend's profiling hooks (compile --profile).
**
** With p->profile set, every kernel step of every entry body calls
** NAME_PROFILE_STEP(...) just before and just after the kernel.  That macro
** is the user's NAME_PROFILE when it is defined and nothing otherwise, so a
** build without NAME_PROFILE compiles to the code it would without --profile.
** Without --profile nothing here writes a byte: the default output is the
** same as before the hooks existed.
*/
#include "emit_c_internal.h"

#include <string.h>

/* The header's description of the hook and, with NAME_PROFILE defined, its
** prototype, so that the user's function is checked against it. */
void sm2c_c_emit_profile_header(emitter *e, sbuf *b)
{
    if (!e->p->profile || e->header_only)
        return;
    const char *N = e->NAME;
    sm2c_text_printf(b,
        "/* Profiling (compiled with --profile).  Build %s.c with -D%s_PROFILE=my_hook and\n"
        " * define my_hook with the prototype below: every kernel step of every entry point\n"
        " * then calls it twice, with end 0 just before the kernel runs and end 1 just after,\n"
        " * so the hook reads its own clock at both and measures the step.  entry is the\n"
        " * entry's key, step the step's index in its program (the `index` of --report's\n"
        " * steps; control steps take indices too and call no hook), kernel the runtime\n"
        " * function, node the TensorFlow node whose value the step computes (a fused step:\n"
        " * the last node it computes; helper steps before a node's last step, such as a\n"
        " * padded copy of a convolution's input, carry its name too).  At end 1, output is\n"
        " * the buffer the step wrote and output_bytes its size (NULL and 0 at end 0, or for\n"
        " * a step that writes none); with --max-batch it is one row's.  Loops call the hook\n"
        " * once per iteration; a step that fails returns its error without the end call.\n"
        " * Without %s_PROFILE the calls compile to nothing (the code is that of a build\n"
        " * without --profile). */\n"
        "#ifdef %s_PROFILE\n"
        "void %s_PROFILE(const char *entry, int32_t step, const char *kernel, const char *node,\n"
        "%*sint32_t end, const void *output, int64_t output_bytes);\n"
        "#endif\n\n",
        e->p->name, N, N, N, N, (int)(strlen(N) + strlen("void _PROFILE(")), "");
}

/* model.c's switch: the hook when NAME_PROFILE is defined, else nothing. */
void sm2c_c_emit_profile_macro(emitter *e, sbuf *b)
{
    if (!e->p->profile)
        return;
    const char *N = e->NAME;
    sm2c_text_printf(b,
        "/* --profile: each step calls %s_PROFILE when it is defined (%s.h). */\n"
        "#ifdef %s_PROFILE\n"
        "#define %s_PROFILE_STEP(en, s, k, n, end, out, bytes) %s_PROFILE(en, s, k, n, end, out, bytes)\n"
        "#else\n"
        "#define %s_PROFILE_STEP(en, s, k, n, end, out, bytes) ((void)0)\n"
        "#endif\n\n",
        N, e->p->name, N, N, N, N);
}

/* One call of the hook before (end 0) or after (end 1) step s of entry k. */
void sm2c_c_emit_profile_call(emitter *e, sbuf *b, int32_t k, int32_t s, const char *ind, int end)
{
    if (!e->p->profile)
        return;
    const sm2c_entry *en = &e->p->entries[k];
    const sm2c_step *sp = &en->steps[s];
    int32_t out = end ? sm2c_step_output(en, s) : -1;
    sm2c_text_printf(b, "%s%s_PROFILE_STEP(", ind, e->NAME);
    sm2c_c_cstring(b, en->key);
    sm2c_text_printf(b, ", %d, ", (int)s);
    sm2c_c_cstring(b, sp->kernel);
    sm2c_text_puts(b, ", ");
    sm2c_c_cstring(b, sm2c_step_value_node(sp));
    sm2c_text_printf(b, ", %d, ", end);
    if (out < 0) {
        sm2c_text_puts(b, "NULL, 0);\n");
        return;
    }
    sm2c_arg a = { .kind = SM2C_ARG_BUF, .buf = out };
    sm2c_text_puts(b, "(const void *)");
    sm2c_c_arg_text(e, b, k, &a);
    sm2c_text_printf(b, ", %lld);\n", (long long)en->buffers[out].nbytes);
}
