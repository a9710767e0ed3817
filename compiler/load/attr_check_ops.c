/*
** attr_check_ops.c: the attribute checks of the other ops (attr_check.c): variadic
** counts, axes, permutations and reshapes, constant sizes that overflow,
** gathers, and quantization ranges.
*/
#include "attr_check_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- variadic counts -------------------------------------------------------- */

/* Number attr `name` must be >= min and match the data inputs: n * mult + extra. */
static void check_count(chk *k, const char *name, int64_t min, int64_t mult, int64_t extra)
{
    int64_t n;
    if (!ac_number_attr(k, name, min, &n))
        return;
    size_t have = ac_data_inputs(k->node);
    uint64_t want = (uint64_t)n * (uint64_t)mult + (uint64_t)extra;   /* n >= 0: no wrap */
    if (want != have)
        ac_report(k, SM2C_ERR_INVALID, "attr '%s' is %lld but the node has %zu data inputs "
               "(expected %llu)", name, (long long)n, have, (unsigned long long)want);
}

void ac_check_add_n(chk *k)
{
    check_count(k, "N", 1, 1, 0);
}

void ac_check_shape_n(chk *k)
{
    check_count(k, "N", 1, 1, 0);
}

void ac_check_stitch(chk *k)
{
    check_count(k, "N", 1, 2, 0);
}

void ac_check_identity_n(chk *k)
{
    const Tensorflow__AttrValue *v = ac_get(k, "T", TENSORFLOW__ATTR_VALUE__VALUE_LIST);
    if (!v || !v->list || !ac_list_matches(v->list, AK_LIST_TYPE))
        return;
    size_t have = ac_data_inputs(k->node);
    if (v->list->n_type != have)
        ac_report(k, SM2C_ERR_INVALID, "attr 'T' lists %zu types but the node has %zu data inputs",
               v->list->n_type, have);
}

/* ---- axes ------------------------------------------------------------------- */

/* `axis` against the rank of the Const behind input `vi`; valid range is
** [-(rank + extra), rank + extra). */
static void check_axis(chk *k, const char *what, int64_t axis, size_t vi, int extra)
{
    sm2c_shape s;
    if (!ac_const_shape(k, vi, &s))
        return;
    int64_t r = (int64_t)s.rank + extra;
    if (axis < -r || axis >= r)
        ac_report(k, SM2C_ERR_INVALID, "%s %lld is out of range for rank %d", what,
               (long long)axis, s.rank + extra);
}

void ac_check_concat_v2(chk *k)
{
    check_count(k, "N", 2, 1, 1);
    size_t n = ac_data_inputs(k->node);
    int64_t axis;
    if (n >= 2 && ac_const_int(k, n - 1, &axis))
        check_axis(k, "axis", axis, 0, 0);
}

void ac_check_concat(chk *k)
{
    check_count(k, "N", 2, 1, 1);
    int64_t axis;
    if (ac_const_int(k, 0, &axis))
        check_axis(k, "axis", axis, 1, 0);
}

void ac_check_pack(chk *k)
{
    check_count(k, "N", 1, 1, 0);
    int64_t axis;
    if (ac_get_int(k, "axis", &axis))
        check_axis(k, "attr 'axis'", axis, 0, 1);
}

void ac_check_unpack(chk *k)
{
    int64_t num, axis = 0;
    int have_num = ac_number_attr(k, "num", 0, &num); /* TF allows 0 for an empty axis */
    if (ac_get_int(k, "axis", &axis))
        check_axis(k, "attr 'axis'", axis, 0, 0);
    sm2c_shape s;
    if (!have_num || !ac_const_shape(k, 0, &s) || axis < -s.rank || axis >= s.rank)
        return;
    int64_t d = s.dims[axis < 0 ? axis + s.rank : axis];
    if (d != num)
        ac_report(k, SM2C_ERR_INVALID, "attr 'num' is %lld but the unpacked dim has size %lld",
               (long long)num, (long long)d);
}

/* Split(axis, value) and SplitV(value, size_splits, axis). */
void ac_check_split(chk *k)
{
    int split_v = strcmp(ac_str(k->node->op), "SplitV") == 0;
    size_t ai = split_v ? 2 : 0, vi = split_v ? 0 : 1;
    int64_t num = 1, axis = 0;
    int have_num = ac_number_attr(k, "num_split", 1, &num);
    if (!ac_const_int(k, ai, &axis))
        return;
    check_axis(k, "axis", axis, vi, 0);
    sm2c_shape s;
    if (split_v || !have_num || !ac_const_shape(k, vi, &s) || axis < -s.rank || axis >= s.rank)
        return;
    int64_t d = s.dims[axis < 0 ? axis + s.rank : axis];
    if (d % num)
        ac_report(k, SM2C_ERR_INVALID, "dim %lld (size %lld) is not divisible by num_split %lld",
               (long long)axis, (long long)d, (long long)num);
}

void ac_check_one_hot(chk *k)
{
    int64_t depth, axis;
    if (ac_const_int(k, 1, &depth) && depth < 0)
        ac_report(k, SM2C_ERR_INVALID, "depth is %lld (must be >= 0)", (long long)depth);
    else if (ac_const_int(k, 1, &depth) && depth > k->c->limits->elements)
        ac_report(k, SM2C_ERR_LIMIT, "depth %lld is over the element limit", (long long)depth);
    if (ac_get_int(k, "axis", &axis) && axis < -1)
        ac_report(k, SM2C_ERR_INVALID, "attr 'axis' is %lld (must be >= -1)", (long long)axis);
}

/* ---- slices ------------------------------------------------------------------- */

/* StridedSlice's masks, as TensorFlow's ValidateStridedSliceOp checks them:
** at most one ellipsis (its mask 0 or a power of two). */
void ac_check_strided_slice(chk *k)
{
    int64_t ell;
    if (ac_get_int(k, "ellipsis_mask", &ell) && ell != 0 && (ell & (ell - 1)) != 0)
        ac_report(k, SM2C_ERR_INVALID, "attr 'ellipsis_mask' is %lld: more than one ellipsis "
                  "(TensorFlow allows at most one)", (long long)ell);
}

/* ---- permutations and reshapes ---------------------------------------------- */

void ac_check_transpose(chk *k)
{
    const sm2c_tensor *perm = ac_const_ints(k, 1);
    if (!perm)
        return;
    int64_t n = perm->nelem;
    if (n > k->c->limits->rank) {
        ac_report(k, SM2C_ERR_LIMIT, "perm has %lld entries, over the rank limit of %lld",
               (long long)n, (long long)k->c->limits->rank);
        return;
    }
    unsigned char *seen = sm2c_arena_alloc(k->c->arena, (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        int64_t v = sm2c_tensor_get_i64(perm, i);
        if (v < 0 || v >= n || seen[v]) {
            ac_report(k, SM2C_ERR_INVALID, "perm %s is not a permutation (%lld %s)",
                   ac_fmt_ints(k, perm), (long long)v,
                   v < 0 || v >= n ? "is out of range" : "appears twice");
            return;
        }
        seen[v] = 1;
    }
    sm2c_shape s;
    if (ac_const_shape(k, 0, &s) && s.rank != n)
        ac_report(k, SM2C_ERR_INVALID, "perm %s has %lld entries but the input has rank %d",
               ac_fmt_ints(k, perm), (long long)n, s.rank);
}

/* Product of a shape vector's entries other than -1, capped at the element
** limit: -2 when it is over. */
static int64_t known_product(chk *k, const sm2c_tensor *t)
{
    int64_t cap = k->c->limits->elements, p = 1;
    for (int64_t i = 0; i < t->nelem; i++)
        if (sm2c_tensor_get_i64(t, i) == 0)
            return 0;
    for (int64_t i = 0; i < t->nelem; i++) {
        int64_t d = sm2c_tensor_get_i64(t, i);
        if (d == -1)
            continue;
        if (d > cap / p)
            return -2;
        p *= d;
    }
    return p;
}

/* A shape vector (Reshape, Fill, BroadcastTo, Tile): entries >= 0, or one -1
** when `minus_ok`; with `product`, at most limits->elements elements.  Returns
** the -1 count, or -1 after reporting a problem. */
static int check_shape_vector(chk *k, const char *what, const sm2c_tensor *t, int minus_ok,
                              int product)
{
    int minus = 0;
    if (t->nelem > k->c->limits->rank) {
        ac_report(k, SM2C_ERR_LIMIT, "%s has %lld entries, over the rank limit of %lld", what,
               (long long)t->nelem, (long long)k->c->limits->rank);
        return -1;
    }
    for (int64_t i = 0; i < t->nelem; i++) {
        int64_t d = sm2c_tensor_get_i64(t, i);
        if (d == -1 && minus_ok && minus++ == 0)
            continue;
        if (d < 0) {
            ac_report(k, SM2C_ERR_INVALID, "%s %s %s", what, ac_fmt_ints(k, t),
                   d == -1 && minus_ok ? "has more than one -1" : "has a negative entry");
            return -1;
        }
    }
    if (product && known_product(k, t) == -2) {
        ac_report(k, SM2C_ERR_LIMIT, "%s %s has more than %lld elements (--limit elements=N)",
               what, ac_fmt_ints(k, t), (long long)k->c->limits->elements);
        return -1;
    }
    return minus;
}

void ac_check_reshape(chk *k)
{
    const sm2c_tensor *t = ac_const_ints(k, 1);
    int minus;
    sm2c_shape in;
    if (!t || (minus = check_shape_vector(k, "shape", t, 1, 1)) < 0 || !ac_const_shape(k, 0, &in))
        return;
    int64_t have = sm2c_shape_elements(&in, k->c->limits->elements), want = known_product(k, t);
    if (minus && want == 0)
        ac_report(k, SM2C_ERR_INVALID, "shape %s has a -1 next to a 0: the -1 cannot be inferred",
               ac_fmt_ints(k, t));
    else if (minus ? have % want != 0 : have != want)
        ac_report(k, SM2C_ERR_INVALID, "cannot reshape %lld elements to shape %s", (long long)have,
               ac_fmt_ints(k, t));
}

/* ---- constant sizes that must not overflow (N8) ----------------------------- */

void ac_check_fill(chk *k)
{
    const sm2c_tensor *t = ac_const_ints(k, 0);
    if (t)
        check_shape_vector(k, "dims", t, 0, 1);
}

void ac_check_broadcast_to(chk *k)
{
    const sm2c_tensor *t = ac_const_ints(k, 1);
    if (t)
        check_shape_vector(k, "shape", t, 0, 1);
}

void ac_check_tile(chk *k)
{
    const sm2c_tensor *m = ac_const_ints(k, 1);
    sm2c_shape in;
    if (!m || check_shape_vector(k, "multiples", m, 0, 0) < 0 || !ac_const_shape(k, 0, &in))
        return;
    if (m->nelem != in.rank) {
        ac_report(k, SM2C_ERR_INVALID, "multiples has %lld entries but the input has rank %d",
               (long long)m->nelem, in.rank);
        return;
    }
    /* The output count is the product of all input dims and all multiples. */
    sm2c_shape all = { 2 * in.rank, sm2c_arena_array(k->c->arena, 2 * (size_t)in.rank + 1,
                                                     sizeof(int64_t)) };
    for (int32_t i = 0; i < in.rank; i++) {
        all.dims[2 * i] = in.dims[i];
        all.dims[2 * i + 1] = sm2c_tensor_get_i64(m, i);
    }
    if (sm2c_shape_elements(&all, k->c->limits->elements) == -2)
        ac_report(k, SM2C_ERR_LIMIT, "tiling by %s gives more than %lld elements "
               "(--limit elements=N)", ac_fmt_ints(k, m), (long long)k->c->limits->elements);
}

static void range_empty(chk *k, double a, double b, double step)
{
    ac_report(k, SM2C_ERR_INVALID, "Range with start %g, limit %g and delta %g is empty or "
           "endless", a, b, step);
}

/* Integer Range count, exact in uint64 (no signed overflow), or -1. */
static double range_count_int(chk *k, int64_t a, int64_t b, int64_t step)
{
    if (step == 0 || (step > 0 && a > b) || (step < 0 && a < b)) {
        range_empty(k, (double)a, (double)b, (double)step);
        return -1;
    }
    uint64_t span = step > 0 ? (uint64_t)b - (uint64_t)a : (uint64_t)a - (uint64_t)b;
    uint64_t us = step > 0 ? (uint64_t)step : 0 - (uint64_t)step;
    return (double)(span / us + (span % us != 0));
}

/* Element count of Range(start, limit, delta), or -1 after reporting. */
static double range_count(chk *k, const sm2c_tensor *s, const sm2c_tensor *l,
                          const sm2c_tensor *d)
{
    if (sm2c_tensor_is_integer(s->dtype) && sm2c_tensor_is_integer(l->dtype) &&
        sm2c_tensor_is_integer(d->dtype))
        return range_count_int(k, sm2c_tensor_get_i64(s, 0), sm2c_tensor_get_i64(l, 0),
                               sm2c_tensor_get_i64(d, 0));
    double a = sm2c_tensor_get_f64(s, 0), b = sm2c_tensor_get_f64(l, 0);
    double step = sm2c_tensor_get_f64(d, 0);
    if (!isfinite(a) || !isfinite(b) || !isfinite(step)) {
        ac_report(k, SM2C_ERR_INVALID, "Range arguments must be finite (start %g, limit %g, "
               "delta %g)", a, b, step);
        return -1;
    }
    if (step == 0 || (step > 0 && a > b) || (step < 0 && a < b)) {
        range_empty(k, a, b, step);
        return -1;
    }
    return ceil(fabs((b - a) / step));
}

void ac_check_range(chk *k)
{
    const sm2c_tensor *s = ac_const_numbers(k, 0), *l = ac_const_numbers(k, 1),
                      *d = ac_const_numbers(k, 2);
    if (!s || !l || !d || s->nelem != 1 || l->nelem != 1 || d->nelem != 1)
        return;
    double n = range_count(k, s, l, d);
    if (n > (double)k->c->limits->elements)
        ac_report(k, SM2C_ERR_LIMIT, "Range gives %.0f elements, over the limit of %lld "
               "(--limit elements=N)", n, (long long)k->c->limits->elements);
}

/* ---- gathers (N8) ----------------------------------------------------------- */

void ac_check_gather(chk *k)
{
    int64_t batch = 0, axis = 0, dim = -1;
    if (ac_get_int(k, "batch_dims", &batch) && batch != 0)
        return;   /* batched gathers: left to the shape pass */
    const sm2c_tensor *idx = ac_const_value(k, 1);
    if (!idx || !sm2c_tensor_is_integer(idx->dtype))
        return;
    sm2c_shape ps;
    int v2 = strcmp(ac_str(k->node->op), "GatherV2") == 0;
    if (ac_const_shape(k, 0, &ps) && (!v2 || ac_const_int(k, 2, &axis))) {
        if (axis < -ps.rank || axis >= ps.rank) {
            ac_report(k, SM2C_ERR_INVALID, "axis %lld is out of range for params of rank %d",
                   (long long)axis, ps.rank);
            return;
        }
        dim = ps.dims[axis < 0 ? axis + ps.rank : axis];
    }
    for (int64_t i = 0; i < idx->nelem; i++) {
        int64_t v = sm2c_tensor_get_i64(idx, i);
        if (v < 0 || (dim >= 0 && v >= dim)) {
            if (dim >= 0)
                ac_report(k, SM2C_ERR_INVALID, "indices[%lld] = %lld is not in [0, %lld)",
                       (long long)i, (long long)v, (long long)dim);
            else
                ac_report(k, SM2C_ERR_INVALID, "indices[%lld] = %lld is negative", (long long)i,
                       (long long)v);
            return;
        }
    }
}

/* ---- quantization (N6) ------------------------------------------------------ */

/* A [lo, hi] range: finite, lo < hi (strict) or lo <= hi. */
static int check_qrange(chk *k, const char *lo_name, const char *hi_name, double lo, double hi,
                        int strict)
{
    if (!isfinite(lo) || !isfinite(hi)) {
        ac_report(k, SM2C_ERR_INVALID, "%s %g and %s %g must be finite", lo_name, lo, hi_name, hi);
        return 0;
    }
    if (strict ? lo >= hi : lo > hi) {
        ac_report(k, SM2C_ERR_INVALID, "%s %g must be %s %s %g", lo_name, lo,
               strict ? "less than" : "at most", hi_name, hi);
        return 0;
    }
    return 1;
}

/* Const min/max tensors at inputs lo and hi, element by element. */
static void check_qrange_inputs(chk *k, size_t lo, size_t hi, const char *lo_name,
                                const char *hi_name)
{
    const sm2c_tensor *a = ac_const_numbers(k, lo), *b = ac_const_numbers(k, hi);
    if (!a || !b)
        return;
    if (a->nelem != b->nelem) {
        ac_report(k, SM2C_ERR_INVALID, "%s has %lld values but %s has %lld", lo_name,
               (long long)a->nelem, hi_name, (long long)b->nelem);
        return;
    }
    for (int64_t i = 0; i < a->nelem; i++)
        if (!check_qrange(k, lo_name, hi_name, sm2c_tensor_get_f64(a, i),
                          sm2c_tensor_get_f64(b, i), 0))
            return;
}

static void check_num_bits(chk *k)
{
    int64_t bits;
    if (ac_get_int(k, "num_bits", &bits) && (bits < 2 || bits > 16))
        ac_report(k, SM2C_ERR_INVALID, "attr 'num_bits' is %lld (must be 2..16)", (long long)bits);
}

void ac_check_fake_quant_args(chk *k)
{
    float lo = -6.0f, hi = 6.0f;   /* TF's defaults */
    int have = ac_get_float(k, "min", &lo) | ac_get_float(k, "max", &hi);
    if (have)
        check_qrange(k, "min", "max", lo, hi, 1);
    check_num_bits(k);
}

void ac_check_fake_quant_vars(chk *k)
{
    check_qrange_inputs(k, 1, 2, "min", "max");
    check_num_bits(k);
}

/* Element count of the Const behind input i (shape only), or -1. */
static int64_t const_count(chk *k, size_t i)
{
    sm2c_shape s;
    return ac_const_shape(k, i, &s) ? sm2c_shape_elements(&s, k->c->limits->elements) : -1;
}

/* Per-axis ranges at inputs 1 and 2 (`lo`, `hi`) against the input's static
** shape: with attr 'axis' >= 0, more than one value means one per slice of the
** input dim at axis; with axis -1 (per-tensor, the default) one value.  With
** `last` (FakeQuantWithMinMaxVarsPerChannel) always one per slice of the last
** dim.  Const ranges of different sizes are left to check_qrange_inputs. */
static void check_per_axis(chk *k, const char *lo, const char *hi, int last)
{
    int64_t axis = -1;
    sm2c_shape in;
    int known = ac_static_shape(k, 0, &in);
    if (!last && ac_find_attr(k->node, "axis") && !ac_get_int(k, "axis", &axis))
        return;   /* not an int: reported, or bound at call time */
    if (!last && axis >= 0 && known && axis >= in.rank) {
        ac_report(k, SM2C_ERR_INVALID, "attr 'axis' is %lld, out of range for an input of rank %d",
               (long long)axis, in.rank);
        return;
    }
    if (axis < -1 || (last && (!known || in.rank < 1)))
        return;   /* a bad axis was reported; a scalar input is the shape pass's */
    if (last)
        axis = in.rank - 1;
    const int64_t n[2] = { const_count(k, 1), const_count(k, 2) };
    const char *const names[2] = { lo, hi };
    if (n[0] >= 0 && n[1] >= 0 && n[0] != n[1])
        return;
    for (int i = 0; i < 2; i++) {
        if (n[i] < 0 || (!last && n[i] <= 1))
            continue;
        if (axis == -1) {
            ac_report(k, SM2C_ERR_INVALID, "%s has %lld values but attr 'axis' is -1 (per-tensor: "
                   "one value)", names[i], (long long)n[i]);
            return;
        }
        if (known && n[i] != in.dims[axis]) {
            ac_report(k, SM2C_ERR_INVALID, "%s has %lld values but input dim %lld has size %lld",
                   names[i], (long long)n[i], (long long)axis, (long long)in.dims[axis]);
            return;
        }
    }
}

void ac_check_fake_quant_per_channel(chk *k)
{
    ac_check_fake_quant_vars(k);
    check_per_axis(k, "min", "max", 1);
}

static void check_axis_attr(chk *k)
{
    int64_t axis;
    if (ac_get_int(k, "axis", &axis) && axis < -1)
        ac_report(k, SM2C_ERR_INVALID, "attr 'axis' is %lld (must be >= -1)", (long long)axis);
}

/* QuantizeAndDequantizeV2/V3/V4: (input, input_min, input_max[, num_bits]).
** The range values matter only with range_given, so only their count is checked. */
void ac_check_quantize_dequantize(chk *k)
{
    check_axis_attr(k);
    check_per_axis(k, "input_min", "input_max", 0);
}

static void check_mode(chk *k, const char *name, const char *const *ok)
{
    const ProtobufCBinaryData *s = ac_get_str(k, name);
    if (!s)
        return;
    for (size_t i = 0; ok[i]; i++)
        if (ac_str_is(s, ok[i]))
            return;
    ac_report(k, SM2C_ERR_INVALID, "attr '%s' is \"%.*s\", not a known mode", name,
           (int)(s->len > 64 ? 64 : s->len), (const char *)s->data);
}

/* QuantizeV2 and Dequantize: (input, min_range, max_range). */
void ac_check_quantize(chk *k)
{
    static const char *const modes[] = { "MIN_COMBINED", "MIN_FIRST", "SCALED", NULL };
    static const char *const rounds[] = { "HALF_AWAY_FROM_ZERO", "HALF_TO_EVEN", NULL };
    check_mode(k, "mode", modes);
    check_mode(k, "round_mode", rounds);
    check_axis_attr(k);
    check_qrange_inputs(k, 1, 2, "min_range", "max_range");
    check_per_axis(k, "min_range", "max_range", 0);
}

/* Scales at input si: positive and finite; zero points at zi: as many, within
** [quantization_min_val, quantization_max_val] when those attrs are set. */
static void check_scales(chk *k, size_t si, size_t zi, int ranged)
{
    const sm2c_tensor *s = ac_const_numbers(k, si), *z = ac_const_ints(k, zi);
    for (int64_t i = 0; s && i < s->nelem; i++) {
        double v = sm2c_tensor_get_f64(s, i);
        if (!(v > 0) || !isfinite(v)) {
            ac_report(k, SM2C_ERR_INVALID, "scale %lld is %g (must be positive and finite)",
                   (long long)i, v);
            return;
        }
    }
    if (!z)
        return;
    if (s && s->nelem != z->nelem) {
        ac_report(k, SM2C_ERR_INVALID, "%lld scales but %lld zero points", (long long)s->nelem,
               (long long)z->nelem);
        return;
    }
    int64_t lo, hi;
    if (!ranged || !ac_get_int(k, "quantization_min_val", &lo) ||
        !ac_get_int(k, "quantization_max_val", &hi))
        return;
    for (int64_t i = 0; i < z->nelem; i++) {
        int64_t v = sm2c_tensor_get_i64(z, i);
        if (v < lo || v > hi) {
            ac_report(k, SM2C_ERR_INVALID, "zero point %lld is %lld, outside %lld..%lld",
                   (long long)i, (long long)v, (long long)lo, (long long)hi);
            return;
        }
    }
}

/* UniformQuantize / UniformDequantize: (input, scales, zero_points). */
void ac_check_uniform(chk *k)
{
    int64_t axis;
    if (ac_get_int(k, "quantization_axis", &axis) && axis < -1)
        ac_report(k, SM2C_ERR_INVALID, "attr 'quantization_axis' is %lld (must be >= -1)",
               (long long)axis);
    check_scales(k, 1, 2, 1);
}

/* UniformRequantize: (input, in_scales, in_zero_points, out_scales, out_zero_points). */
void ac_check_requantize(chk *k)
{
    check_scales(k, 1, 2, 0);
    check_scales(k, 3, 4, 0);
}
