/*
** attr_check_window.c: the attribute checks of windowed ops (attr_check.c): strides,
** dilations, ksize, padding and data formats, and where the input shape is
** static, output sizes and grouped-convolution channel counts.
*/
#include "attr_check_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- windows: strides, dilations, ksize, padding, data_format --------------- */

enum { W_STRIDES = 1, W_DILATIONS = 2, W_KSIZE = 4, W_EXPLICIT = 8 };

static const char *const fmt_2d[] = { "NHWC", "NCHW", NULL };
static const char *const fmt_pool[] = { "NHWC", "NCHW", "NCHW_VECT_C", NULL };
static const char *const fmt_3d[] = { "NDHWC", "NCDHW", NULL };
static const char *const fmt_bn[] = { "NHWC", "NCHW", "NDHWC", "NCDHW", NULL };

/* Entries of a window list (`what` is "attr 'strides'" or "input 'ksize'"):
** `rank` of them, each in 1..limits->elements. */
static void check_window_list(chk *k, const char *what, const int64_t *v, size_t n, int rank)
{
    if (n != (size_t)rank) {
        ac_report(k, SM2C_ERR_INVALID, "%s has %zu entries, %s needs %d", what, n,
               ac_str(k->node->op), rank);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (v[i] <= 0) {
            ac_report(k, SM2C_ERR_INVALID, "%s entry %zu is %lld (must be >= 1)", what, i,
                   (long long)v[i]);
            return;
        }
        if (v[i] > k->c->limits->elements) {
            ac_report(k, SM2C_ERR_LIMIT, "%s entry %zu is %lld, over the element limit", what, i,
                   (long long)v[i]);
            return;
        }
    }
}

static void check_window_attr(chk *k, const char *name, int rank)
{
    const Tensorflow__AttrValue *v = ac_get(k, name, TENSORFLOW__ATTR_VALUE__VALUE_LIST);
    char what[64];
    snprintf(what, sizeof what, "attr '%s'", name);
    if (v && v->list && ac_list_matches(v->list, AK_LIST_INT))
        check_window_list(k, what, v->list->i, v->list->n_i, rank);
}

static void check_explicit_paddings(chk *k, int rank, int is_explicit)
{
    const Tensorflow__AttrValue *v = ac_get(k, "explicit_paddings", TENSORFLOW__ATTR_VALUE__VALUE_LIST);
    size_t n = v && v->list && ac_list_matches(v->list, AK_LIST_INT) ? v->list->n_i : 0;
    if (n % 2) {
        ac_report(k, SM2C_ERR_INVALID, "attr 'explicit_paddings' has an odd number of entries (%zu)", n);
        return;
    }
    if (is_explicit && n != (size_t)rank * 2) {
        ac_report(k, SM2C_ERR_INVALID, "attr 'explicit_paddings' has %zu entries, padding EXPLICIT "
               "needs %d (2 per dimension)", n, rank * 2);
        return;
    }
    if (!is_explicit && n) {
        ac_report(k, SM2C_ERR_INVALID, "attr 'explicit_paddings' is set but padding is not EXPLICIT");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t p = v->list->i[i];
        if (p < 0 || p > k->c->limits->elements) {
            ac_report(k, p < 0 ? SM2C_ERR_INVALID : SM2C_ERR_LIMIT,
                   "attr 'explicit_paddings' entry %zu is %lld (must be 0..%lld)", i,
                   (long long)p, (long long)k->c->limits->elements);
            return;
        }
    }
}

static void check_padding(chk *k, int rank, int explicit_ok)
{
    const ProtobufCBinaryData *s = ac_get_str(k, "padding");
    int is_explicit = 0;
    if (s && ac_str_is(s, "EXPLICIT")) {
        is_explicit = 1;
        if (!explicit_ok)
            ac_report(k, SM2C_ERR_INVALID, "padding EXPLICIT is not allowed for %s", ac_str(k->node->op));
    } else if (s && !ac_str_is(s, "SAME") && !ac_str_is(s, "VALID")) {
        ac_report(k, SM2C_ERR_INVALID, "attr 'padding' is \"%.*s\", expected SAME, VALID%s",
               (int)(s->len > 64 ? 64 : s->len), (const char *)s->data,
               explicit_ok ? " or EXPLICIT" : "");
    }
    check_explicit_paddings(k, rank, is_explicit && explicit_ok);
}

static void check_format(chk *k, const char *const *formats)
{
    const ProtobufCBinaryData *s = ac_get_str(k, "data_format");
    if (!s)
        return;
    char allowed[128] = "";
    for (size_t i = 0; formats[i]; i++) {
        if (ac_str_is(s, formats[i]))
            return;
        snprintf(allowed + strlen(allowed), sizeof allowed - strlen(allowed), "%s%s",
                 i ? ", " : "", formats[i]);
    }
    ac_report(k, SM2C_ERR_INVALID, "attr 'data_format' is \"%.*s\", expected one of %s",
           (int)(s->len > 64 ? 64 : s->len), (const char *)s->data, allowed);
}

static void check_window(chk *k, int rank, unsigned flags, const char *const *formats)
{
    if (flags & W_STRIDES)
        check_window_attr(k, "strides", rank);
    if (flags & W_DILATIONS)
        check_window_attr(k, "dilations", rank);
    if (flags & W_KSIZE)
        check_window_attr(k, "ksize", rank);
    check_padding(k, rank, (flags & W_EXPLICIT) != 0);
    check_format(k, formats);
}

/* ---- output sizes and groups, from static shapes (N5) ------------------------ */

/* data_format of a rank 4 or 5 window op (absent: channels last): the index of
** the first spatial dim and of the channel dim; 0 for other formats. */
static int layout(chk *k, int rank, int *spatial, int *chan)
{
    const ProtobufCBinaryData *s = ac_get_str(k, "data_format");
    if (!s || ac_str_is(s, rank == 4 ? "NHWC" : "NDHWC")) {
        *spatial = 1;
        *chan = rank - 1;
        return 1;
    }
    if (ac_str_is(s, rank == 4 ? "NCHW" : "NCDHW")) {
        *spatial = 2;
        *chan = 1;
        return 1;
    }
    return 0;
}

/* A window attr as `rank` values in 1..limits->elements; absent: all `dflt`
** (0 for a required attr: no values).  A bad list was reported already. */
static int window_values(chk *k, const char *name, int rank, int64_t dflt, int64_t *out)
{
    const Tensorflow__AttrValue *v = ac_find_attr(k->node, name);
    if (!v) {
        for (int i = 0; i < rank; i++)
            out[i] = dflt;
        return dflt > 0;
    }
    if (v->value_case != TENSORFLOW__ATTR_VALUE__VALUE_LIST || !v->list ||
        !ac_list_matches(v->list, AK_LIST_INT) || v->list->n_i != (size_t)rank)
        return 0;
    for (int i = 0; i < rank; i++) {
        if (v->list->i[i] < 1 || v->list->i[i] > k->c->limits->elements)
            return 0;
        out[i] = v->list->i[i];
    }
    return 1;
}

/* explicit_paddings as 2 * rank values in 0..limits->elements. */
static int explicit_values(chk *k, int rank, int64_t *out)
{
    const Tensorflow__AttrValue *v = ac_get(k, "explicit_paddings", TENSORFLOW__ATTR_VALUE__VALUE_LIST);
    if (!v || !v->list || !ac_list_matches(v->list, AK_LIST_INT) || v->list->n_i != (size_t)rank * 2)
        return 0;
    for (int i = 0; i < rank * 2; i++) {
        if (v->list->i[i] < 0 || v->list->i[i] > k->c->limits->elements)
            return 0;
        out[i] = v->list->i[i];
    }
    return 1;
}

/* TensorFlow's windowed output size (kernel_shape_util.cc,
** GetWindowedOutputSizeVerbose) for VALID or EXPLICIT padding, with every step
** checked: 0 when one would overflow int64.  in, before, after >= 0;
** kern, dil, stride >= 1. */
static int windowed_size(int64_t in, int64_t kern, int64_t dil, int64_t stride, int64_t before,
                         int64_t after, int64_t *eff, int64_t *out)
{
    if (kern - 1 > (INT64_MAX - 1) / dil)
        return 0;
    *eff = (kern - 1) * dil + 1;
    if (before > INT64_MAX - in)
        return 0;
    int64_t padded = in + before;
    if (after > INT64_MAX - padded)
        return 0;
    padded += after;
    int64_t num = padded - *eff;   /* both in [0, INT64_MAX]: no overflow */
    if (num > INT64_MAX - stride)
        return 0;
    *out = (num + stride) / stride;
    return 1;
}

/* Grouped convolution (TF's Conv2D/Conv3D shape functions): the input channels
** a multiple of the filter's (f_in >= 1), the output channels a multiple of the
** group count. */
static void check_groups(chk *k, int64_t in_ch, int64_t f_in, int64_t f_out)
{
    if (in_ch % f_in != 0) {
        ac_report(k, SM2C_ERR_INVALID, "input has %lld channels, not a multiple of the filter's "
               "%lld input channels", (long long)in_ch, (long long)f_in);
        return;
    }
    int64_t groups = in_ch / f_in;
    if (groups == 0)
        ac_report(k, SM2C_ERR_INVALID, "input has 0 channels: the group count would be 0 "
               "(filter has %lld input channels)", (long long)f_in);
    else if (f_out % groups != 0)
        ac_report(k, SM2C_ERR_INVALID, "filter has %lld output channels, not a multiple of the "
               "group count %lld (%lld input channels / %lld per group)", (long long)f_out,
               (long long)groups, (long long)in_ch, (long long)f_in);
}

/* The kernel of a convolution: the spatial dims of the filter at input 1
** ([kh,kw,in,out], [kd,kh,kw,in,out], depthwise [kh,kw,in,mult]), stored at
** the input's spatial positions; with `grouped`, the channel checks too. */
static int conv_kernel(chk *k, const sm2c_shape *in, int spatial, int chan, int grouped,
                       int64_t *kern)
{
    sm2c_shape f;
    int rank = in->rank;
    if (!ac_static_shape(k, 1, &f) || f.rank != rank)
        return 0;
    for (int j = 0; j < rank - 2; j++) {
        if (f.dims[j] == 0) {
            ac_report(k, SM2C_ERR_INVALID, "filter shape %s has a zero spatial dim",
                   sm2c_shape_str(k->c->arena, &f));
            return 0;
        }
        kern[spatial + j] = f.dims[j];
    }
    if (!grouped)
        return 1;
    if (f.dims[rank - 2] == 0) {
        ac_report(k, SM2C_ERR_INVALID, "filter shape %s has 0 input channels",
               sm2c_shape_str(k->c->arena, &f));
        return 0;
    }
    check_groups(k, in->dims[chan], f.dims[rank - 2], f.dims[rank - 1]);
    return 1;
}

static void report_window_size(chk *k, const char *dim, int is_explicit, const int64_t *v)
{
    if (is_explicit)
        ac_report(k, SM2C_ERR_INVALID, "output dim %s would be <= 0 (input %lld, padding %lld+%lld, "
               "effective kernel %lld, stride %lld, EXPLICIT)", dim, (long long)v[0],
               (long long)v[1], (long long)v[2], (long long)v[3], (long long)v[4]);
    else
        ac_report(k, SM2C_ERR_INVALID, "output dim %s would be <= 0 (input %lld, effective kernel "
               "%lld, stride %lld, VALID)", dim, (long long)v[0], (long long)v[3],
               (long long)v[4]);
}

/* Output sizes of a convolution (kernel from the filter's static shape) or a
** pool (W_KSIZE: kernel from ksize) with VALID or EXPLICIT padding, when the
** input's shape is static.  Convolutions with `grouped` check channels too. */
static void check_window_shapes(chk *k, int rank, unsigned flags, int grouped)
{
    static const char *const dims2[] = { "H", "W" }, *const dims3[] = { "D", "H", "W" };
    int spatial, chan;
    sm2c_shape in;
    int64_t kern[5], stride[5], dil[5], pads[10] = { 0 };
    if (!layout(k, rank, &spatial, &chan) || !ac_static_shape(k, 0, &in) || in.rank != rank)
        return;
    if ((flags & W_KSIZE) ? !window_values(k, "ksize", rank, 0, kern)
                        : !conv_kernel(k, &in, spatial, chan, grouped, kern))
        return;
    const ProtobufCBinaryData *pad = ac_get_str(k, "padding");
    int is_explicit = pad && (flags & W_EXPLICIT) && ac_str_is(pad, "EXPLICIT");
    if (!pad || (!is_explicit && !ac_str_is(pad, "VALID")) ||
        !window_values(k, "strides", rank, 0, stride) ||
        !window_values(k, "dilations", rank, 1, dil) ||
        (is_explicit && !explicit_values(k, rank, pads)))
        return;
    if (!(flags & W_DILATIONS))
        for (int i = 0; i < rank; i++)
            dil[i] = 1;
    for (int j = 0; j < rank - 2; j++) {
        int d = spatial + j;
        const char *name = rank == 4 ? dims2[j] : dims3[j];
        int64_t eff = 0, out;
        if (!windowed_size(in.dims[d], kern[d], dil[d], stride[d], pads[2 * d],
                           pads[2 * d + 1], &eff, &out)) {
            ac_report(k, SM2C_ERR_INVALID, "output dim %s overflows int64 (input %lld, kernel %lld, "
                   "dilation %lld, stride %lld)", name, (long long)in.dims[d],
                   (long long)kern[d], (long long)dil[d], (long long)stride[d]);
            return;
        }
        if (out <= 0) {
            const int64_t v[] = { in.dims[d], pads[2 * d], pads[2 * d + 1], eff, stride[d] };
            report_window_size(k, name, is_explicit, v);
            return;
        }
    }
}

void ac_check_conv2d(chk *k)
{
    check_window(k, 4, W_STRIDES | W_DILATIONS | W_EXPLICIT, fmt_2d);
    check_window_shapes(k, 4, W_DILATIONS | W_EXPLICIT, 1);
}

/* Input 0 is input_sizes, not an image: no output sizes to check here. */
void ac_check_conv2d_backprop(chk *k)
{
    check_window(k, 4, W_STRIDES | W_DILATIONS | W_EXPLICIT, fmt_2d);
}

void ac_check_depthwise(chk *k)
{
    check_window(k, 4, W_STRIDES | W_DILATIONS | W_EXPLICIT, fmt_2d);
    check_window_shapes(k, 4, W_DILATIONS | W_EXPLICIT, 0);
}

void ac_check_conv3d(chk *k)
{
    check_window(k, 5, W_STRIDES | W_DILATIONS, fmt_3d);
    check_window_shapes(k, 5, W_DILATIONS, 1);
}

void ac_check_max_pool(chk *k)
{
    check_window(k, 4, W_STRIDES | W_KSIZE | W_EXPLICIT, fmt_pool);
    check_window_shapes(k, 4, W_KSIZE | W_EXPLICIT, 0);
}

void ac_check_avg_pool(chk *k)
{
    check_window(k, 4, W_STRIDES | W_KSIZE, fmt_2d);
    check_window_shapes(k, 4, W_KSIZE, 0);
}

void ac_check_pool3d(chk *k)
{
    check_window(k, 5, W_STRIDES | W_KSIZE, fmt_3d);
    check_window_shapes(k, 5, W_KSIZE, 0);
}

/* MaxPoolV2 takes ksize and strides as inputs. */
static void check_window_input(chk *k, size_t i, const char *what)
{
    const sm2c_tensor *t = ac_const_ints(k, i);
    if (!t)
        return;
    int64_t v[4];
    for (int64_t j = 0; j < t->nelem && j < 4; j++)
        v[j] = sm2c_tensor_get_i64(t, j);
    check_window_list(k, what, v, (size_t)t->nelem, 4);   /* reads v only when nelem == 4 */
}

void ac_check_max_pool_v2(chk *k)
{
    check_window_input(k, 1, "input 'ksize'");
    check_window_input(k, 2, "input 'strides'");
    check_window(k, 4, 0, fmt_pool);
}

void ac_check_bias_add(chk *k)
{
    check_format(k, fmt_2d);
}

void ac_check_batch_norm(chk *k)
{
    check_format(k, fmt_bn);
}

void ac_check_space_depth(chk *k)
{
    int64_t b;
    if (ac_get_int(k, "block_size", &b) && b < 2)
        ac_report(k, SM2C_ERR_INVALID, "attr 'block_size' is %lld (must be >= 2)", (long long)b);
    check_format(k, fmt_pool);
}
