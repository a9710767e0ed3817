/*
** import_partition.c: one part of a TF1 partitioned variable.
** Estimators split a variable into `part_N` VariableV2 nodes; the saver
** restores each with a slice spec ("10 4 0,5:-": the full shape, then per dim
** "start,length" or "-" for all of it) from one checkpoint entry that holds
** the whole tensor in slices.  The bundle reader reassembles the whole tensor
** (bundle.c); a part's value is its slice of it, cut here.
*/
#include <stdlib.h>
#include <string.h>

#include "import_internal.h"

/* Estimators partition matrices and embeddings; a deeper spec is refused. */
#define PART_MAX_RANK 8

typedef struct part_spec {
    sm2c_shape full;     /* the whole variable's shape */
    int64_t *start;      /* per dim */
    int64_t *length;
} part_spec;

/* A decimal int64 in [0, 2^62) ending at a delimiter in `stop`; advances *p. */
static int parse_dim(const char **p, const char *stop, int64_t *out)
{
    const char *q = *p;
    int64_t v = 0;
    if (*q < '0' || *q > '9')
        return 0;
    for (; *q >= '0' && *q <= '9'; q++) {
        if (v > ((int64_t)1 << 58))
            return 0;
        v = v * 10 + (*q - '0');
    }
    if (!strchr(stop, *q))
        return 0;
    *out = v;
    *p = q;
    return 1;
}

/* "d0 d1 ... s0:s1:..." (TensorSliceProto text form, TF's ParseShapeAndSlice). */
static int parse_spec(sm2c_arena *a, const char *text, int32_t max_rank, part_spec *ps)
{
    int32_t rank = 0;
    for (const char *q = text; *q; q++)
        rank += *q == ' ';
    if (rank < 1 || rank > max_rank)
        return 0;
    ps->full.rank = rank;
    ps->full.dims = sm2c_arena_array(a, (size_t)rank, sizeof *ps->full.dims);
    ps->start = sm2c_arena_array(a, (size_t)rank, sizeof *ps->start);
    ps->length = sm2c_arena_array(a, (size_t)rank, sizeof *ps->length);
    const char *p = text;
    for (int32_t d = 0; d < rank; d++, p++)
        if (!parse_dim(&p, " ", &ps->full.dims[d]))
            return 0;
    for (int32_t d = 0; d < rank; d++, p++) {
        const char *stop = d + 1 < rank ? ":" : "";
        if (*p == '-' && strchr(stop, p[1])) {
            p++;
            ps->start[d] = 0;
            ps->length[d] = ps->full.dims[d];
        } else if (!parse_dim(&p, ",", &ps->start[d]) || (p++, !parse_dim(&p, stop, &ps->length[d]))) {
            return 0;
        }
        if (ps->length[d] > ps->full.dims[d] || ps->start[d] > ps->full.dims[d] - ps->length[d])
            return 0;
    }
    return 1;
}

/* Copy the slice of `whole` that ps names into `part` (row-major, innermost
** dim contiguous). */
static void cut_slice(const sm2c_tensor *whole, const part_spec *ps, sm2c_tensor *part)
{
    int32_t rank = ps->full.rank;
    size_t esize = sm2c_dtype_size(whole->dtype);
    int64_t row = ps->length[rank - 1], rows = part->nelem / (row ? row : 1);
    int64_t idx[PART_MAX_RANK] = { 0 };
    for (int64_t r = 0; row && r < rows; r++) {
        int64_t src = 0;
        for (int32_t d = 0; d < rank; d++)
            src = src * ps->full.dims[d] + ps->start[d] + (d + 1 < rank ? idx[d] : 0);
        memcpy((char *)part->data + (size_t)(r * row) * esize, (const char *)whole->data + (size_t)src * esize,
               (size_t)row * esize);
        for (int32_t d = rank - 2; d >= 0 && ++idx[d] == ps->length[d]; d--)
            idx[d] = 0;
    }
}

sm2c_tensor *sm2c_import_partitioned_part(importer *im, const scope *s, const Tensorflow__NodeDef *nd,
                                          const sm2c_variable *v, sm2c_status *st)
{
    sm2c_ctx *c = im->c;
    part_spec ps;
    if (!parse_spec(c->arena, v->slice_spec, PART_MAX_RANK, &ps)) {
        *st = sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "slice spec '%s' of a partitioned variable is "
                              "malformed or deeper than rank 8", v->slice_spec);
        return NULL;
    }
    const sm2c_bundle_entry *e = sm2c_bundle_find(im->m->bundle, v->checkpoint_key);
    if (!e) {
        *st = sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "the checkpoint has no entry '%s'", v->checkpoint_key);
        return NULL;
    }
    int same = e->shape.rank == ps.full.rank;
    for (int32_t d = 0; same && d < ps.full.rank; d++)
        same = e->shape.dims[d] == ps.full.dims[d];
    if (!same) {
        *st = sm2c_import_bad(im, s, nd, SM2C_ERR_INVALID, "%s",
                              sm2c_arena_printf(c->arena, "the slice spec '%s' does not match the checkpoint "
                                                "entry's shape %s", v->slice_spec,
                                                sm2c_shape_str(c->arena, &e->shape)));
        return NULL;
    }
    if (!sm2c_dtype_size(e->dtype)) {
        *st = sm2c_import_bad(im, s, nd, SM2C_ERR_UNSUPPORTED, "a partitioned variable of dtype %s is not "
                              "supported", sm2c_dtype_name(e->dtype));
        return NULL;
    }
    sm2c_tensor *whole = sm2c_strmap_get(im->var_values, v->checkpoint_key);
    if (!whole) {
        whole = sm2c_arena_alloc(c->arena, sizeof *whole);
        if ((*st = sm2c_bundle_read(c, im->m->bundle, e, whole)))
            return NULL;
        sm2c_strmap_put(im->var_values, v->checkpoint_key, whole);
    }
    sm2c_tensor *part = sm2c_arena_alloc(c->arena, sizeof *part);
    part->dtype = whole->dtype;
    part->shape = (sm2c_shape){ ps.full.rank, ps.length };
    part->nelem = sm2c_shape_elements(&part->shape, INT64_MAX);
    part->nbytes = (size_t)part->nelem * sm2c_dtype_size(whole->dtype);
    part->data = sm2c_arena_alloc(c->arena, part->nbytes ? part->nbytes : 1);
    cut_slice(whole, &ps, part);
    return part;
}
