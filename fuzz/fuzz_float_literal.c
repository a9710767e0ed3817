/*
** fuzz_float_literal.c (docs/reliability.md section 8, target 16; catalog N7):
** random 32- and 64-bit patterns -> the literal the C backend writes for a
** weight element -> strtof / strtod in the C locale (as a C compiler reads it).
** Finite values are written in decimal; a weight holding NaN or Inf is written
** as bit patterns.  Oracle: bit-exact round trip, NaN payloads, -0 and
** subnormals included, also under a locale whose decimal point is ','.
*/
#include <locale.h>
#include <math.h>

#include "codegen/c_text.h"
#include "fuzz_common.h"

static locale_t c_locale;

/* The literal as a C compiler reads it: C locale, suffix f, UINT64_C(). */
static uint64_t read_back(const char *lit, int is_float)
{
    if (strncmp(lit, "UINT64_C(", 9) == 0 || (lit[0] == '0' && lit[1] == 'x')) {
        const char *p = lit[0] == 'U' ? lit + 9 : lit;
        char *end;
        uint64_t u = strtoull(p, &end, 16);
        FUZZ_CHECK(*end == (lit[0] == 'U' ? ')' : 'u'), "literal '%s'", lit);
        return u;
    }
    char *end;
    if (is_float) {
        float v = strtof_l(lit, &end, c_locale);
        FUZZ_CHECK(end[0] == 'f' && end[1] == 0, "literal '%s'", lit);
        uint32_t u;
        memcpy(&u, &v, 4);
        return u;
    }
    double v = strtod_l(lit, &end, c_locale);
    FUZZ_CHECK(*end == 0, "literal '%s'", lit);
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
}

static void round_trip(uint64_t bits, int is_float)
{
    char lit[SM2C_C_LITERAL_CAP];
    double v;
    if (is_float) {
        float x;
        uint32_t u = (uint32_t)bits;
        memcpy(&x, &u, 4);
        v = x;
    } else {
        memcpy(&v, &bits, 8);
    }
    if (isfinite(v))
        sm2c_c_real_literal(lit, sizeof lit, v, is_float);
    else
        sm2c_c_bits_literal(lit, sizeof lit, bits, is_float);
    uint64_t want = is_float ? (uint32_t)bits : bits, got = read_back(lit, is_float);
    FUZZ_CHECK(got == want, "%s 0x%llx -> '%s' -> 0x%llx", is_float ? "float" : "double",
               (unsigned long long)want, lit, (unsigned long long)got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!c_locale)
        c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    /* A locale with a decimal comma, when the system has one: the literal must not change. */
    static locale_t comma;
    static int tried;
    if (!tried++) {
        const char *names[] = { "de_DE.UTF-8", "fr_FR.UTF-8", "C.UTF-8" };
        for (size_t i = 0; !comma && i < 3; i++)
            comma = newlocale(LC_NUMERIC_MASK, names[i], (locale_t)0);
    }
    for (size_t i = 0; i + 4 <= size; i += 4) {
        uint64_t lo = fuzz_u32(data + i);
        locale_t old = comma && (data[i] & 1) ? uselocale(comma) : (locale_t)0;
        round_trip(lo, 1);
        if (i + 8 <= size)
            round_trip(lo | (uint64_t)fuzz_u32(data + i + 4) << 32, 0);
        if (old)
            uselocale(old);
    }
    return 0;
}
