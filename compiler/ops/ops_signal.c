/*
** ops_signal.c: complex64 and the FFT ops (runtime/complex.c, runtime/fft.c).
**
** A complex64 value is float pairs (re, im).  Complex(re, im) broadcasts;
** Real, Imag, ComplexAbs, Angle give float32, Conj complex64; complex Add,
** AddV2, Sub, Mul and Exp come here from ops_elementwise.c.
**
** FFT, IFFT, FFT2D, IFFT2D transform the innermost one or two dims of a
** complex64 tensor; RFFT, RFFT2D take float32 and a constant fft_length
** (each transformed dim cropped or zero-padded to it) and keep n/2+1 values
** of the innermost dim; IRFFT, IRFFT2D invert them (the innermost input dim
** is read up to fft_length/2+1, zeros past its end).  Each transform's plan
** and twiddle table are built here (fft_plan.c) and become a constant; the
** kernel's scratch is an arena buffer.
*/
#include "ops_common.h"
#include "fft_plan.h"

/* ---- elementwise ---------------------------------------------------------------- */

sm2c_status shape_complex(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = shape_binary(c, n);
    if (st)
        return st;
    if (n->inputs[0]->dtype != SM2C_DT_FLOAT || n->inputs[1]->dtype != SM2C_DT_FLOAT)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "Complex of %s and %s: only float32 parts "
                             "(complex64) are supported", sm2c_dtype_name(n->inputs[0]->dtype),
                             sm2c_dtype_name(n->inputs[1]->dtype));
    n->outputs[0]->dtype = SM2C_DT_COMPLEX64;
    return SM2C_OK;
}

sm2c_status lower_complex(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    sm2c_op_binary_step(l, n, "sm2c_rt_complex_f32", n->inputs[0], n->inputs[1], sm2c_lower_buf(l, y),
                        &y->shape);
    return SM2C_OK;
}

static const char *part_kernel(const char *op)
{
    static const char *const map[][2] = {
        { "Real", "sm2c_rt_real_c64" }, { "Imag", "sm2c_rt_imag_c64" },
        { "ComplexAbs", "sm2c_rt_abs_c64" }, { "Angle", "sm2c_rt_angle_c64" },
        { "Conj", "sm2c_rt_conj_c64" },
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(map[i][0], op) == 0)
            return map[i][1];
    return NULL;
}

/* Real, Imag, ComplexAbs, Angle (-> float32) and Conj (-> complex64). */
sm2c_status shape_complex_part(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st || n->n_inputs != 1)
        return st ? st : sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects 1 input");
    const sm2c_value *x = n->inputs[0];
    if (x->dtype != SM2C_DT_COMPLEX64)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "%s of %s: only complex64 is supported",
                             n->op->name, sm2c_dtype_name(x->dtype));
    int conj = strcmp(n->op->name, "Conj") == 0;
    sm2c_op_set(c, n, 0, conj ? SM2C_DT_COMPLEX64 : SM2C_DT_FLOAT, x->shape.rank, x->shape.dims);
    return SM2C_OK;
}

sm2c_status lower_complex_part(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    sm2c_step *s = sm2c_lower_step(l, n, part_kernel(n->op->name), 3);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[2] = sm2c_arg_int(sm2c_value_elements(y));
    return SM2C_OK;
}

/* Complex Add/AddV2/Sub/Mul (ops_elementwise.c's lower_binary). */
sm2c_status sm2c_lower_complex_binary(sm2c_lower *l, const sm2c_node *n)
{
    static const char *const map[][2] = {
        { "Add", "sm2c_rt_add_c64" }, { "AddV2", "sm2c_rt_add_c64" },
        { "Sub", "sm2c_rt_sub_c64" }, { "Mul", "sm2c_rt_mul_c64" },
    };
    const sm2c_value *y = n->outputs[0];
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(map[i][0], n->op->name) == 0) {
            sm2c_op_binary_step(l, n, map[i][1], n->inputs[0], n->inputs[1], sm2c_lower_buf(l, y),
                                &y->shape);
            return SM2C_OK;
        }
    return sm2c_lower_unsupported(l, n, "%s on complex64 is not supported", n->op->name);
}

/* Complex Exp (ops_elementwise.c's lower_unary). */
sm2c_status sm2c_lower_complex_unary(sm2c_lower *l, const sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    if (strcmp(n->op->name, "Exp") != 0)
        return sm2c_lower_unsupported(l, n, "%s on complex64 is not supported", n->op->name);
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_exp_c64", 3);
    s->args[0] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[0]));
    s->args[1] = sm2c_arg_buf(sm2c_lower_buf(l, y));
    s->args[2] = sm2c_arg_int(sm2c_value_elements(y));
    return SM2C_OK;
}

/* ---- FFT ops ---------------------------------------------------------------------- */

typedef struct fft_kind {
    const char *op;
    int dims;       /* transformed dims */
    int real;       /* 1 RFFT (float in), -1 IRFFT (float out), 0 complex */
    int inverse;
} fft_kind;

static const fft_kind *fft_kind_of(const char *op)
{
    static const fft_kind kinds[] = {
        { "FFT", 1, 0, 0 }, { "IFFT", 1, 0, 1 }, { "FFT2D", 2, 0, 0 }, { "IFFT2D", 2, 0, 1 },
        { "RFFT", 1, 1, 0 }, { "IRFFT", 1, -1, 1 }, { "RFFT2D", 2, 1, 0 }, { "IRFFT2D", 2, -1, 1 },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strcmp(kinds[i].op, op) == 0)
            return &kinds[i];
    return NULL;
}

/* The transform lengths: fft_length for the real ops, else the input's dims. */
static sm2c_status fft_lengths(sm2c_ctx *c, const sm2c_node *n, const fft_kind *k, int64_t len[2])
{
    const sm2c_value *x = n->inputs[0];
    if (x->shape.rank < k->dims)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input %s has fewer than %d dims",
                             sm2c_shape_str(c->arena, &x->shape), k->dims);
    if (k->real) {
        if (n->n_inputs != 2)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "expects 2 inputs (input, fft_length)");
        const sm2c_tensor *t = sm2c_op_const_input(c, n, 1, "fft_length");
        if (!t)
            return SM2C_ERR_UNSUPPORTED;
        if (t->nelem != k->dims || (t->dtype != SM2C_DT_INT32 && t->dtype != SM2C_DT_INT64))
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "fft_length must be %d int32 values", k->dims);
        for (int i = 0; i < k->dims; i++)
            len[i] = sm2c_tensor_get_i64(t, i);
    } else {
        for (int i = 0; i < k->dims; i++)
            len[i] = x->shape.dims[x->shape.rank - k->dims + i];
    }
    for (int i = 0; i < k->dims; i++)
        if (len[i] < 1 || len[i] > SM2C_FFT_MAX_LEN)
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "FFT length %lld is outside [1, %d]",
                                 (long long)len[i], SM2C_FFT_MAX_LEN);
    return SM2C_OK;
}

sm2c_status shape_fft(sm2c_ctx *c, sm2c_node *n)
{
    const fft_kind *k = fft_kind_of(n->op->name);
    sm2c_status st = sm2c_op_need_shapes(c, n);
    if (st)
        return st;
    const sm2c_value *x = n->inputs[0];
    int want = k->real == 1 ? SM2C_DT_FLOAT : SM2C_DT_COMPLEX64;
    if (x->dtype != want)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "%s of %s: only %s input is supported",
                             n->op->name, sm2c_dtype_name(x->dtype), sm2c_dtype_name(want));
    int64_t len[2], dims[SM2C_RT_MAX_RANK];
    if ((st = fft_lengths(c, n, k, len)))
        return st;
    int32_t r = x->shape.rank;
    if (r > SM2C_RT_MAX_RANK)
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "rank %d is too large", r);
    for (int32_t i = 0; i < r; i++)
        dims[i] = x->shape.dims[i];
    for (int i = 0; i < k->dims; i++)
        dims[r - k->dims + i] = len[i];
    if (k->real == 1)
        dims[r - 1] = len[k->dims - 1] / 2 + 1;
    sm2c_op_set(c, n, 0, k->real == -1 ? SM2C_DT_FLOAT : SM2C_DT_COMPLEX64, r, dims);
    return SM2C_OK;
}

/* The plan (int args) and table (a float32 constant) of a length-len transform. */
static void fft_plan_args(sm2c_lower *l, int64_t len, sm2c_arg *plan, sm2c_arg *table, int64_t *scratch)
{
    sm2c_ctx *c = l->c;
    sm2c_fft_plan p;
    sm2c_fft_plan_make((int32_t)len, &p);     /* shape_fft checked the range */
    int64_t ints[SM2C_FFT_PLAN_MAX];
    for (int32_t i = 0; i < p.n_ints; i++)
        ints[i] = p.ints[i];
    *plan = sm2c_arg_ints(l, p.n_ints, ints);
    sm2c_tensor *t = sm2c_arena_alloc(c->arena, sizeof *t);
    t->dtype = SM2C_DT_FLOAT;
    t->shape = sm2c_shape_make(c, 1, &p.n_table);
    t->nelem = p.n_table;
    t->nbytes = (size_t)p.n_table * sizeof(float);
    t->data = sm2c_arena_alloc(c->arena, t->nbytes);
    double *work = sm2c_arena_array(c->arena, 2 * (size_t)p.m, sizeof *work);
    sm2c_fft_table_fill(&p, t->data, work);
    sm2c_value *v = sm2c_arena_alloc(c->arena, sizeof *v);
    v->id = -1;
    v->dtype = SM2C_DT_FLOAT;
    v->shape = t->shape;
    v->constant = t;
    v->input = -1;
    v->name = sm2c_arena_printf(c->arena, "fft_table_%lld", (long long)len);
    *table = sm2c_arg_buf(sm2c_lower_buf(l, v));
    int64_t need = sm2c_fft_scratch_floats(&p);
    if (need > *scratch)
        *scratch = need;
}

static int64_t prod(const sm2c_shape *s, int32_t from, int32_t to)
{
    int64_t p = 1;
    for (int32_t i = from; i < to; i++)
        p *= s->dims[i];
    return p;
}

/* A complex FFT step along dim `axis` of shape `in` (whose length becomes len). */
static void fft_axis_step(sm2c_lower *l, const sm2c_node *n, int32_t x, int32_t y, int32_t scratch,
                          const sm2c_shape *in, int32_t axis, int64_t len, int inverse,
                          sm2c_arg plan, sm2c_arg table)
{
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_fft_c64", 10);
    s->args[0] = sm2c_arg_buf(x);
    s->args[1] = sm2c_arg_buf(y);
    s->args[2] = sm2c_arg_buf(scratch);
    s->args[3] = sm2c_arg_int(prod(in, 0, axis));
    s->args[4] = sm2c_arg_int(in->dims[axis]);
    s->args[5] = sm2c_arg_int(len);
    s->args[6] = sm2c_arg_int(prod(in, axis + 1, in->rank));
    s->args[7] = sm2c_arg_int(inverse);
    s->args[8] = plan;
    s->args[9] = table;
}

static void real_step(sm2c_lower *l, const sm2c_node *n, const char *kernel, int32_t x, int32_t y,
                      int32_t scratch, const sm2c_shape *in, int64_t len, sm2c_arg plan, sm2c_arg table)
{
    sm2c_step *s = sm2c_lower_step(l, n, kernel, 8);
    s->args[0] = sm2c_arg_buf(x);
    s->args[1] = sm2c_arg_buf(y);
    s->args[2] = sm2c_arg_buf(scratch);
    s->args[3] = sm2c_arg_int(prod(in, 0, in->rank - 1));
    s->args[4] = sm2c_arg_int(in->dims[in->rank - 1]);
    s->args[5] = sm2c_arg_int(len);
    s->args[6] = plan;
    s->args[7] = table;
}

sm2c_status lower_fft(sm2c_lower *l, const sm2c_node *n)
{
    const fft_kind *k = fft_kind_of(n->op->name);
    const sm2c_value *x = n->inputs[0], *y = n->outputs[0];
    int64_t len[2];
    sm2c_status st = fft_lengths(l->c, n, k, len);
    if (st)
        return st;
    if (sm2c_value_elements(y) == 0 || sm2c_value_elements(x) == 0)
        return sm2c_lower_unsupported(l, n, "%s of an empty tensor is not supported", n->op->name);
    const int32_t r = x->shape.rank, d = k->dims;
    int32_t xb = sm2c_lower_buf(l, x), yb = sm2c_lower_buf(l, y);
    int64_t scratch = 0;
    sm2c_arg plan[2], table[2];
    for (int i = 0; i < d; i++)
        fft_plan_args(l, len[i], &plan[i], &table[i], &scratch);
    sm2c_shape ss = { 1, &scratch };
    int32_t sb = sm2c_lower_scratch(l, SM2C_DT_FLOAT, &ss, "fft_scratch");
    if (k->real == 0) {
        /* last dim x -> y, then (2D) dim r-2 of y in place */
        fft_axis_step(l, n, xb, yb, sb, &x->shape, r - 1, len[d - 1], k->inverse, plan[d - 1],
                                 table[d - 1]);
        if (d == 2)
            fft_axis_step(l, n, yb, yb, sb, &y->shape, r - 2, len[0], k->inverse, plan[0], table[0]);
    } else if (k->real == 1) {
        if (d == 1) {
            real_step(l, n, "sm2c_rt_rfft_f32", xb, yb, sb, &x->shape, len[0], plan[0], table[0]);
        } else {
            /* rows into tmp [..., rows_in, n1/2+1], then columns cropped/padded into y */
            int64_t td[SM2C_RT_MAX_RANK];
            for (int32_t i = 0; i < r; i++)
                td[i] = x->shape.dims[i];
            td[r - 1] = len[1] / 2 + 1;
            sm2c_shape ts = { r, td };
            int32_t tb = sm2c_lower_scratch(l, SM2C_DT_COMPLEX64, &ts, "rfft2d_rows");
            real_step(l, n, "sm2c_rt_rfft_f32", xb, tb, sb, &x->shape, len[1], plan[1], table[1]);
            fft_axis_step(l, n, tb, yb, sb, &ts, r - 2, len[0], 0, plan[0], table[0]);
        }
    } else {
        if (d == 1) {
            real_step(l, n, "sm2c_rt_irfft_c64", xb, yb, sb, &x->shape, len[0], plan[0], table[0]);
        } else {
            /* columns cropped/padded into tmp [..., n0, cols_in], then rows into y */
            int64_t td[SM2C_RT_MAX_RANK];
            for (int32_t i = 0; i < r; i++)
                td[i] = x->shape.dims[i];
            td[r - 2] = len[0];
            sm2c_shape ts = { r, td };
            int32_t tb = sm2c_lower_scratch(l, SM2C_DT_COMPLEX64, &ts, "irfft2d_columns");
            fft_axis_step(l, n, xb, tb, sb, &x->shape, r - 2, len[0], 1, plan[0], table[0]);
            real_step(l, n, "sm2c_rt_irfft_c64", tb, yb, sb, &ts, len[1], plan[1], table[1]);
        }
    }
    return SM2C_OK;
}
