/*
** c_sections.c: --section and --fast-arena in the C backend.  Each placed definition (the
** weights, the static arena and fast arena, the default state) starts with
** SM2C_SECTION("name"), which NAME.c and NAME_weights.c define, only when
** some class has a section (the default output is unchanged):
**   - GNU C on ELF (gcc, clang, armclang): __attribute__((section(name)));
**   - GNU C elsewhere (Mach-O wants "segment,section", COFF names of at most
**     8 bytes in an image): an #error, rather than a placement silently lost;
**   - any other compiler: nothing, so the file still compiles, and the
**     linker's defaults place the memory.
** A build defines SM2C_SECTION(name) itself to override all three (IAR,
** a Mach-O segment, ...).
*/
#include "emit_c_internal.h"

static const char section_macro[] =
    "/* --section: where the linker puts the weights, arenas and state (ELF section\n"
    " * names; define SM2C_SECTION(name) to place them another way). */\n"
    "#ifndef SM2C_SECTION\n"
    "#if defined(__GNUC__) && defined(__ELF__)\n"
    "#define SM2C_SECTION(name) __attribute__((section(name)))\n"
    "#elif defined(__GNUC__)\n"
    "#error \"sm2c: --section names ELF sections; define SM2C_SECTION(name) for this object format\"\n"
    "#else\n"
    "#define SM2C_SECTION(name)\n"
    "#endif\n"
    "#endif\n\n";

void sm2c_c_emit_section_macro(emitter *e, sbuf *b)
{
    if (sm2c_placement_any_section(&e->p->placement))
        sm2c_text_puts(b, section_macro);
}

int sm2c_c_fast(const emitter *e)
{
    return e->p->placement.fast_arena > 0;
}

int sm2c_c_uses_pool(const sm2c_entry *en, int fast)
{
    for (int32_t s = 0; s < en->n_steps; s++)
        for (int32_t a = 0; a < en->steps[s].n_args; a++) {
            const sm2c_arg *ar = &en->steps[s].args[a];
            if (ar->kind == SM2C_ARG_BUF && en->buffers[ar->buf].kind == SM2C_BUF_ARENA &&
                !en->buffers[ar->buf].fast == !fast)
                return 1;
        }
    return 0;
}

const char *sm2c_c_fast_split(emitter *e)
{
    return sm2c_arena_printf(e->c->arena, "(%s_WORKSPACE_SIZE + 63) / 64 * 64", e->NAME);
}

void sm2c_c_section(emitter *e, sbuf *b, sm2c_section_class k)
{
    const char *name = e->p->placement.section[k];
    if (name)   /* names are [A-Za-z0-9._] (placement.c): nothing to escape */
        sm2c_text_printf(b, "SM2C_SECTION(\"%s\") ", name);
}
