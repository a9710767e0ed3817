/*
** run_print.c: an output as "key: dtype [shape]" and, when it has at most
** SM2C_RUN_PRINT_MAX elements, its values nested by the shape.
*/
#include "run_print.h"

#include "load/tensor_proto.h"

static void element(FILE *f, const sm2c_tensor *t, int64_t i)
{
    int dt = sm2c_dtype_base(t->dtype);
    if (dt == SM2C_DT_STRING) {
        const sm2c_bytes *s = &t->strings[i];
        fputc('\'', f);
        for (size_t k = 0; k < s->len; k++)
            fprintf(f, s->data[k] >= 0x20 && s->data[k] < 0x7f && s->data[k] != '\'' && s->data[k] != '\\'
                           ? "%c" : "\\x%02x", s->data[k]);
        fputc('\'', f);
    } else if (dt == SM2C_DT_BOOL) {
        fputs(sm2c_tensor_get_i64(t, i) ? "True" : "False", f);
    } else if (dt == SM2C_DT_UINT64) {
        fprintf(f, "%llu", (unsigned long long)sm2c_tensor_get_u64(t, i));
    } else if (sm2c_tensor_is_integer(dt)) {
        fprintf(f, "%lld", (long long)sm2c_tensor_get_i64(t, i));
    } else {
        fprintf(f, "%.*g", dt == SM2C_DT_DOUBLE ? 17 : 9, sm2c_tensor_get_f64(t, i));
    }
}

/* Dims [d, rank) from element *at on. */
static void nested(FILE *f, const sm2c_tensor *t, int32_t d, int64_t *at)
{
    if (d == t->shape.rank) {
        element(f, t, (*at)++);
        return;
    }
    fputc('[', f);
    for (int64_t i = 0; i < t->shape.dims[d]; i++) {
        fputs(i ? ", " : "", f);
        nested(f, t, d + 1, at);
    }
    fputc(']', f);
}

void sm2c_run_print(sm2c_ctx *c, FILE *f, const char *key, const sm2c_tensor *t)
{
    fprintf(f, "%s: %s %s", key, sm2c_dtype_name(t->dtype), sm2c_shape_str(c->arena, &t->shape));
    if (t->nelem <= SM2C_RUN_PRINT_MAX && sm2c_dtype_base(t->dtype) != SM2C_DT_COMPLEX64 &&
        sm2c_dtype_base(t->dtype) != SM2C_DT_COMPLEX128) {
        int64_t at = 0;
        fputs(" = ", f);
        nested(f, t, 0, &at);
    } else {
        fprintf(f, " (%lld values; --outdir writes them)", (long long)t->nelem);
    }
    fputc('\n', f);
}
