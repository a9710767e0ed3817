/*
** fuzz_run_inputs.c: `sm2c run`'s input path, from the bytes of an
** --input .npy file or the text of an --input_exprs literal to what the
** driver is given (compiler/cli/npy.c, run_literal.c, run_inputs.c), against
** an arbitrary entry.
**
** Input: byte 0 sets the number of entry inputs (1-3, keys "a", "b", "c") and
** --max-batch (0-3); each input then takes a dtype byte and a shape byte
** (rank 0-3, whether it is batched) and one byte per dim (0-4).  The next
** byte is the number of given inputs (0-3); each takes a byte choosing its
** key ("a", "b", "c" or "zzz") and its form (.npy or literal), then its
** bytes behind a u32 length (fuzz_split).  A literal is typed by the entry's
** input of its key (float for "zzz"), as run types it by the signature.
** Oracle: the status contract at every stage; when the inputs pass, every
** entry input was given exactly once with its dtype and its shape at the
** batch, no given key is foreign, and a string input's driver bytes read back
** (as the driver's load_strings reads them) to the same strings; and any
** accepted array of at most 100 elements that run could print (numbers and
** bool) prints as a literal that parses back to the same values.
*/
#include "fuzz_common.h"

#include <math.h>

#include "cli/npy.h"
#include "cli/run_inputs.h"
#include "cli/run_literal.h"
#include "cli/run_print.h"
#include "load/tensor_proto.h"

#define MAX_PORTS 3

static const int dtypes[] = {
    SM2C_DT_FLOAT, SM2C_DT_DOUBLE, SM2C_DT_INT32, SM2C_DT_INT64, SM2C_DT_UINT8, SM2C_DT_INT8, SM2C_DT_BOOL,
    SM2C_DT_INT16, SM2C_DT_UINT16, SM2C_DT_UINT32, SM2C_DT_UINT64, SM2C_DT_HALF, SM2C_DT_BFLOAT16,
    SM2C_DT_STRING, SM2C_DT_COMPLEX64,
};
static const char *const keys[] = { "a", "b", "c", "zzz" };

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint8_t byte(reader *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

/* Entry input i from the reader: a dtype, a rank, a batch flag and dims. */
static void make_port(sm2c_ctx *c, reader *r, int32_t max_batch, int32_t i, sm2c_port *p)
{
    uint8_t d = byte(r), s = byte(r);
    int64_t dims[3];
    int32_t rank = s % 4;
    for (int32_t k = 0; k < rank; k++)
        dims[k] = byte(r) % 5;
    memset(p, 0, sizeof *p);
    p->key = keys[i];
    p->dtype = dtypes[d % (sizeof dtypes / sizeof dtypes[0])];
    p->batched = max_batch && rank >= 1 && (s & 4) ? 1 + (s >> 3) % 2 : 0;
    if (p->batched)
        dims[0] = (int64_t)max_batch * p->batched;
    p->shape = sm2c_shape_make(c, rank, dims);
}

static int32_t port_of(const sm2c_entry *e, const char *key)
{
    for (int32_t i = 0; i < e->n_inputs; i++)
        if (!strcmp(e->inputs[i].key, key))
            return i;
    return -1;
}

/* Given input k from the reader, parsed into *t. */
static sm2c_status read_given(fuzz_ctx *f, reader *r, const sm2c_entry *e, sm2c_run_input *in, sm2c_tensor *t)
{
    uint8_t sel = byte(r);
    const uint8_t *a, *rest;
    size_t na, nrest;
    fuzz_split(r->p, r->n, &a, &na, &rest, &nrest);
    r->p = rest, r->n = nrest;
    in->key = keys[sel % 4];
    if (!(sel & 4)) {
        in->path = "in.npy";
        uint8_t *copy = sm2c_arena_alloc(f->arena, na ? na : 1);
        memcpy(copy, a, na);
        return sm2c_npy_parse(&f->c, in->path, copy, na, t);
    }
    char *text = sm2c_arena_alloc(f->arena, na + 1);
    memcpy(text, a, na);
    text[na] = 0;
    int32_t i = port_of(e, in->key);
    in->path = "--input_exprs";
    in->literal = text;
    return sm2c_literal_parse(&f->c, in->path, text, i < 0 ? SM2C_DT_FLOAT : e->inputs[i].dtype, t);
}

/* The driver's load_strings over sm2c_run_string_bytes gives the strings back. */
static void check_string_bytes(fuzz_ctx *f, const sm2c_tensor *t)
{
    sm2c_buf b = sm2c_run_string_bytes(&f->c, t);
    size_t n = (size_t)t->nelem, at = n * 8;
    FUZZ_CHECK(b.len >= at, "string bytes shorter than the lengths");
    for (size_t i = 0; i < n; i++) {
        int64_t len;
        memcpy(&len, b.data + i * 8, 8);
        FUZZ_CHECK(len >= 0 && (uint64_t)len <= b.len - at, "string %zu's length", i);
        FUZZ_CHECK((size_t)len == t->strings[i].len && (!len || !memcmp(b.data + at, t->strings[i].data,
                                                                        (size_t)len)), "string %zu", i);
        at += (size_t)len;
    }
    FUZZ_CHECK(at == b.len, "string bytes longer than the strings");
}

static int printable_literal(const sm2c_tensor *t)
{
    switch (t->dtype) {
    case SM2C_DT_FLOAT: case SM2C_DT_DOUBLE: case SM2C_DT_BOOL: case SM2C_DT_INT8: case SM2C_DT_UINT8:
    case SM2C_DT_INT16: case SM2C_DT_UINT16: case SM2C_DT_INT32: case SM2C_DT_UINT32: case SM2C_DT_INT64:
    case SM2C_DT_UINT64:
        return t->nelem > 0 && t->nelem <= SM2C_RUN_PRINT_MAX;
    default:
        return 0;
    }
}

static int same_value(const sm2c_tensor *a, const sm2c_tensor *b, int64_t i)
{
    if (a->dtype == SM2C_DT_FLOAT || a->dtype == SM2C_DT_DOUBLE) {
        double x = sm2c_tensor_get_f64(a, i), y = sm2c_tensor_get_f64(b, i);
        return (isnan(x) && isnan(y)) || (x == y && signbit(x) == signbit(y));
    }
    size_t w = sm2c_dtype_size(a->dtype);
    return !memcmp((const uint8_t *)a->data + (size_t)i * w, (const uint8_t *)b->data + (size_t)i * w, w);
}

/* What run prints for t parses back, as a literal of t's dtype, to t. */
static void check_print_round_trip(fuzz_ctx *f, const sm2c_tensor *t)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    FUZZ_CHECK(m, "open_memstream");
    sm2c_run_print(&f->c, m, "k", t);
    fclose(m);
    const char *eq = strstr(text, " = ");
    FUZZ_CHECK(eq, "printed without values: %s", text);
    char *nl = strchr(text, '\n');
    if (nl)
        *nl = 0;
    sm2c_tensor back;
    sm2c_status st = sm2c_literal_parse(&f->c, "printed", eq + 3, t->dtype, &back);
    FUZZ_CHECK(st == SM2C_OK, "what run prints does not parse: %s (%s)", f->diag.first, text);
    FUZZ_CHECK(back.dtype == t->dtype && sm2c_shape_equal(&back.shape, &t->shape), "printed shape: %s", text);
    for (int64_t i = 0; i < t->nelem; i++)
        FUZZ_CHECK(same_value(t, &back, i), "value %lld printed as %s", (long long)i, text);
    free(text);
}

static void check_accepted(fuzz_ctx *f, const sm2c_entry *e, const sm2c_run_opts *o, const sm2c_tensor *arrays,
                           int32_t batch)
{
    for (int32_t k = 0; k < o->n_inputs; k++) {
        FUZZ_CHECK(port_of(e, o->inputs[k].key) >= 0, "foreign key %s accepted", o->inputs[k].key);
        for (int32_t j = 0; j < k; j++)
            FUZZ_CHECK(strcmp(o->inputs[j].key, o->inputs[k].key), "key %s given twice", o->inputs[k].key);
    }
    for (int32_t i = 0; i < e->n_inputs; i++) {
        const sm2c_tensor *t = sm2c_run_input_array(e, i, o, arrays);
        FUZZ_CHECK(t, "input %s not given", e->inputs[i].key);
        sm2c_shape want = sm2c_run_shape(&f->c, &e->inputs[i], batch);
        FUZZ_CHECK(t->dtype == sm2c_dtype_base(e->inputs[i].dtype) && sm2c_shape_equal(&t->shape, &want),
                   "input %s accepted with another dtype or shape", e->inputs[i].key);
        if (e->inputs[i].batched)
            FUZZ_CHECK(batch >= 1 && batch <= e->max_batch, "batch %d", (int)batch);
        if (t->dtype == SM2C_DT_STRING)
            check_string_bytes(f, t);
        else
            FUZZ_CHECK(t->nbytes == (size_t)t->nelem * sm2c_dtype_size(t->dtype), "input %s's bytes",
                       e->inputs[i].key);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_ctx f;
    fuzz_begin(&f);
    reader r = { data, size };
    uint8_t head = byte(&r);
    sm2c_port ports[MAX_PORTS];
    sm2c_entry e = { .key = "serving_default", .n_inputs = 1 + head % MAX_PORTS, .inputs = ports,
                     .max_batch = (head >> 2) % 4 };
    for (int32_t i = 0; i < e.n_inputs; i++)
        make_port(&f.c, &r, e.max_batch, i, &ports[i]);
    sm2c_run_input given[3];
    sm2c_tensor arrays[3];
    memset(given, 0, sizeof given);
    sm2c_run_opts o = { .n_inputs = byte(&r) % 4, .inputs = given };
    sm2c_status st = SM2C_OK;
    for (int32_t k = 0; k < o.n_inputs && !st; k++) {
        st = read_given(&f, &r, &e, &given[k], &arrays[k]);
        if (!st && printable_literal(&arrays[k]))
            check_print_round_trip(&f, &arrays[k]);
    }
    int32_t batch = 0;
    if (!st && !(st = sm2c_run_batch(&f.c, &e, &o, arrays, &batch)) &&
        !(st = sm2c_run_check_inputs(&f.c, &e, &o, arrays, batch)))
        check_accepted(&f, &e, &o, arrays, batch);
    fuzz_end(&f, st);
    return 0;
}
