/*
** placement.h: where the generated code's memory goes (firmware's flash
** regions, SRAM banks, retained RAM): a section name per memory class
** (--section CLASS=NAME) and a second, small arena for the buffers with the
** most traffic per byte (--fast-arena BYTES, plan/fast_pool.c).  The default,
** all zero, changes nothing in the output.
*/
#ifndef SM2C_PLACEMENT_H
#define SM2C_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

/* The memory classes a section can be named for, as --section spells them. */
typedef enum sm2c_section_class {
    SM2C_SECTION_WEIGHTS,       /* the model's constant tensors (not the small index tables) */
    SM2C_SECTION_ARENA,         /* the static arena */
    SM2C_SECTION_FAST_ARENA,    /* the static fast arena (--fast-arena) */
    SM2C_SECTION_STATE,         /* the default state (written variables) */
    SM2C_SECTION_N
} sm2c_section_class;

/* Longest section name taken (ELF has no limit; linker scripts and the
** section-name string table are happier with short ones). */
#define SM2C_SECTION_NAME_MAX 128

typedef struct sm2c_placement {
    const char *section[SM2C_SECTION_N];  /* NULL: the toolchain's default section */
    int64_t fast_arena;         /* --fast-arena: the fast pool's capacity in bytes (a
                                   multiple of 64 is used whole); 0: one arena */
} sm2c_placement;

/* "weights", "arena", "fast-arena", "state". */
const char *sm2c_section_class_name(sm2c_section_class k);

/* The class spelt by s[0..n), or -1. */
int sm2c_section_class_parse(const char *s, size_t n);

/* Why `name` cannot be a section name (empty, too long, a character outside
** [A-Za-z0-9._]: one a C string, a linker script and every assembler take
** without quoting), or NULL when it can. */
const char *sm2c_section_name_problem(const char *name);

/* Why pl cannot be used (a bad name, the same name for the weights and a
** writable class: a section is read-only or not; a fast-arena section
** without a fast arena), or NULL; the text names the class. */
const char *sm2c_placement_problem(const sm2c_placement *pl, char *buf, size_t size);

/* 1 when some class has a section name. */
int sm2c_placement_any_section(const sm2c_placement *pl);

#endif
