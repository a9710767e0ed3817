/*
** calibrate.c: activation ranges for --quantize int8 from the float program
** itself, run by the compiler's step interpreter (lower/exec.c).  The steps
** are the ones the float build would run, so the ranges are those of sm2c's
** own float kernels; every buffer gets memory of its own (no arena plan), so
** a value's buffer still holds it when the program ends.
*/
#include "calibrate.h"

#include <math.h>
#include <string.h>

#include "lower/exec.h"
#include "sm2c_rt.h"

static const char *shape_text(sm2c_ctx *c, const sm2c_shape *s)
{
    const char *t = "[";
    for (int32_t d = 0; d < s->rank; d++)
        t = sm2c_arena_printf(c->arena, "%s%s%lld", t, d ? "," : "", (long long)s->dims[d]);
    return sm2c_arena_printf(c->arena, "%s]", t);
}

static sm2c_status bad(sm2c_ctx *c, const sm2c_calibration *k, const char *what)
{
    return sm2c_error(c->diag, SM2C_ERR_INVALID, k->file, NULL, "--calibration %s: %s", k->key, what);
}

/* How many samples of input port pt the file holds: [N*B, dims...] for an
** input [B, dims...], or [N, B, dims...]; 0 after reporting a mismatch. */
static int64_t samples_of(sm2c_ctx *c, const sm2c_calibration *k, const sm2c_port *pt)
{
    const sm2c_shape *f = &k->data.shape, *s = &pt->shape;
    int stacked = f->rank == s->rank + 1;
    int same = stacked || (f->rank == s->rank && s->rank >= 1);
    for (int32_t d = stacked ? 0 : 1; same && d < s->rank; d++)
        same = f->dims[d + stacked] == s->dims[d];
    int64_t rows = f->rank >= 1 ? f->dims[0] : 0;
    int64_t per = stacked ? 1 : s->dims[0];
    if (!same || per <= 0 || rows % per != 0) {
        bad(c, k, sm2c_arena_printf(c->arena, "shape %s does not match input shape %s (expected N samples "
                                    "stacked along the leading dim)", shape_text(c, f), shape_text(c, s)));
        return 0;
    }
    if (rows == 0)
        bad(c, k, "the file holds no samples");
    return rows / per;
}

static const sm2c_calibration *find(const sm2c_calibration *cal, int32_t n, const char *key)
{
    for (int32_t i = 0; i < n; i++)
        if (strcmp(cal[i].key, key) == 0)
            return &cal[i];
    return NULL;
}

/* Every input has float32, finite data of one sample count; no other key. */
static sm2c_status check_data(sm2c_ctx *c, const sm2c_entry *e, const sm2c_calibration *cal, int32_t n_cal,
                              int64_t *n_samples)
{
    for (int32_t i = 0; i < n_cal; i++) {
        int known = 0;
        for (int32_t k = 0; k < e->n_inputs; k++)
            known |= strcmp(e->inputs[k].key, cal[i].key) == 0;
        if (!known)
            return sm2c_error(c->diag, SM2C_ERR_USAGE, cal[i].file, NULL,
                              "--calibration %s: the signature '%s' has no input '%s'", cal[i].key, e->key,
                              cal[i].key);
    }
    *n_samples = -1;
    for (int32_t k = 0; k < e->n_inputs; k++) {
        const sm2c_calibration *d = find(cal, n_cal, e->inputs[k].key);
        if (!d)
            return sm2c_error(c->diag, SM2C_ERR_USAGE, NULL, sm2c_arena_printf(c->arena, "signature '%s'", e->key),
                              "--quantize int8: no --calibration data for input '%s'", e->inputs[k].key);
        if (e->inputs[k].dtype != SM2C_DT_FLOAT || d->data.dtype != SM2C_DT_FLOAT)
            return bad(c, d, "calibration data and input must be float32");
        int64_t n = samples_of(c, d, &e->inputs[k]);
        if (n <= 0)
            return SM2C_ERR_INVALID;
        if (*n_samples >= 0 && n != *n_samples)
            return bad(c, d, sm2c_arena_printf(c->arena, "%lld samples, but other inputs have %lld",
                                               (long long)n, (long long)*n_samples));
        *n_samples = n;
        const float *v = d->data.data;
        for (int64_t i = 0; i < d->data.nelem; i++)
            if (!isfinite(v[i]))
                return bad(c, d, sm2c_arena_printf(c->arena, "element %lld is not finite", (long long)i));
    }
    return SM2C_OK;
}

/* Memory for every buffer; inputs are pointed at each sample later. */
static sm2c_status buffers_for(sm2c_ctx *c, const sm2c_program *p, const sm2c_entry *e, void **mem)
{
    for (int32_t s = 0; s < e->n_steps; s++) {
        if (e->steps[s].control)
            return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, NULL, e->steps[s].node,
                              "--quantize int8: calibration does not run control flow yet");
        if (!sm2c_exec_knows(e->steps[s].kernel))
            return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, NULL, e->steps[s].node,
                              "--quantize int8: calibration cannot run kernel %s inside the compiler yet",
                              e->steps[s].kernel);
    }
    for (int32_t b = 0; b < e->n_buffers; b++) {
        const sm2c_buffer *buf = &e->buffers[b];
        if (buf->kind == SM2C_BUF_STATE)
            return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, NULL, buf->name,
                              "--quantize int8: models that write variables are not supported");
        if (buf->kind == SM2C_BUF_WEIGHT)
            mem[b] = p->weights[buf->index].value.data;
        else if (buf->kind != SM2C_BUF_INPUT)
            mem[b] = sm2c_arena_alloc(c->arena, (size_t)buf->nbytes + 16);
    }
    return SM2C_OK;
}

static void widen(sm2c_range *r, const float *v, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        if (!r->known || v[i] < r->min)
            r->min = v[i];
        if (!r->known || v[i] > r->max)
            r->max = v[i];
        r->known = 1;
    }
}

sm2c_status sm2c_calibrate(sm2c_ctx *c, const sm2c_program *p, const sm2c_entry *e, const int32_t *buf_of,
                           int32_t n_values, const sm2c_calibration *cal, int32_t n_cal, sm2c_range *ranges)
{
    int64_t n_samples;
    void **mem = sm2c_arena_array(c->arena, (size_t)e->n_buffers + 1, sizeof *mem);
    sm2c_status st = check_data(c, e, cal, n_cal, &n_samples);
    if (st || (st = buffers_for(c, p, e, mem)))
        return st;
    for (int64_t s = 0; s < n_samples; s++) {
        for (int32_t k = 0; k < e->n_inputs; k++) {
            const sm2c_calibration *d = find(cal, n_cal, e->inputs[k].key);
            int64_t per = d->data.nelem / n_samples;
            mem[e->inputs[k].buf] = (float *)d->data.data + s * per;
        }
        if ((st = sm2c_exec_steps(c, e->steps, e->n_steps, mem)))
            return st;
        for (int32_t v = 0; v < n_values; v++) {
            int32_t b = buf_of[v];
            if (b < 0 || e->buffers[b].dtype != SM2C_DT_FLOAT || e->buffers[b].kind == SM2C_BUF_WEIGHT)
                continue;
            widen(&ranges[v], mem[b], e->buffers[b].nbytes / (int64_t)sizeof(float));
        }
    }
    return SM2C_OK;
}

/* The float inputs of sample s; an int8 input (--io int8) gets them quantized. */
static void point_inputs(const sm2c_entry *e, const sm2c_calibration *cal, int32_t n_cal, int64_t n_samples,
                         int64_t s, void **mem)
{
    for (int32_t k = 0; k < e->n_inputs; k++) {
        const sm2c_calibration *d = find(cal, n_cal, e->inputs[k].key);
        int64_t per = d->data.nelem / n_samples;
        const float *x = (const float *)d->data.data + s * per;
        if (e->inputs[k].quantized)
            sm2c_rt_quantize_f32_s8(x, mem[e->inputs[k].buf], (int32_t)per, e->inputs[k].scale,
                                    e->inputs[k].zero_point);
        else
            mem[e->inputs[k].buf] = (void *)x;
    }
}

/* Int8 inputs need memory of their own to be quantized into. */
static void input_memory(sm2c_ctx *c, const sm2c_entry *e, void **mem)
{
    for (int32_t k = 0; k < e->n_inputs; k++)
        if (e->inputs[k].quantized)
            mem[e->inputs[k].buf] = sm2c_arena_alloc(c->arena, (size_t)e->buffers[e->inputs[k].buf].nbytes + 16);
}

static double abs_error_sum(const int8_t *q, const sm2c_qparam *qp, const float *f, int64_t n)
{
    double sum = 0;
    for (int64_t i = 0; i < n; i++)
        sum += fabs((double)qp->scale * (q[i] - qp->zero_point) - (double)f[i]);
    return sum;
}

sm2c_status sm2c_quant_errors(sm2c_ctx *c, const sm2c_program *pf, const sm2c_entry *ef, const int32_t *fbuf_of,
                              const sm2c_program *pq, const sm2c_entry *eq, const int32_t *qbuf_of,
                              int32_t n_values, const int32_t *float_of, const sm2c_qparam *const *quant_of,
                              const sm2c_calibration *cal, int32_t n_cal, double *err)
{
    int64_t n_samples;
    void **fmem = sm2c_arena_array(c->arena, (size_t)ef->n_buffers + 1, sizeof *fmem);
    void **qmem = sm2c_arena_array(c->arena, (size_t)eq->n_buffers + 1, sizeof *qmem);
    double *count = sm2c_arena_array(c->arena, (size_t)n_values + 1, sizeof *count);
    sm2c_status st = check_data(c, ef, cal, n_cal, &n_samples);
    if (st || (st = buffers_for(c, pf, ef, fmem)) || (st = buffers_for(c, pq, eq, qmem)))
        return st;
    input_memory(c, eq, qmem);
    for (int32_t v = 0; v < n_values; v++)
        err[v] = 0;
    for (int64_t s = 0; s < n_samples; s++) {
        point_inputs(ef, cal, n_cal, n_samples, s, fmem);
        point_inputs(eq, cal, n_cal, n_samples, s, qmem);
        if ((st = sm2c_exec_steps(c, ef->steps, ef->n_steps, fmem)) ||
            (st = sm2c_exec_steps(c, eq->steps, eq->n_steps, qmem)))
            return st;
        for (int32_t v = 0; v < n_values; v++) {
            int32_t qb = qbuf_of[v], fb = float_of[v] >= 0 ? fbuf_of[float_of[v]] : -1;
            const sm2c_buffer *q = qb >= 0 ? &eq->buffers[qb] : NULL;
            if (!q || fb < 0 || q->dtype != SM2C_DT_INT8 || ef->buffers[fb].dtype != SM2C_DT_FLOAT ||
                ef->buffers[fb].nbytes != q->nbytes * 4 || !quant_of[v])
                continue;
            err[v] += abs_error_sum(qmem[qb], quant_of[v], fmem[fb], q->nbytes);
            count[v] += (double)q->nbytes;
        }
    }
    for (int32_t v = 0; v < n_values; v++)
        err[v] = count[v] > 0 ? err[v] / count[v] : -1;
    return SM2C_OK;
}
