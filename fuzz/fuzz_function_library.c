/*
** fuzz_function_library.c (docs/reliability.md section 8, targets 4 and 5; catalog
** U1-U4): a u32 length prefix splits the input into a GraphDef (its nodes and
** its FunctionDefLibrary) and a SignatureDef.  They are wrapped into a
** SavedModel (one MetaGraphDef, signature "sig") and compiled up to the
** lowered program: import with call inlining, recursion detection and the
** call-depth cap, then shapes, folding, fusion and lowering.  No codegen.
** Oracle: terminates within libFuzzer's -timeout on every input (exponential
** inlining included); errors come with an error line and are never internal.
*/
#include "fuzz_common.h"
#include "driver/pipeline.h"
#include "load/savedmodel.h"

/* A protobuf length-delimited field: tag, varint length, bytes. */
static uint8_t *put_field(uint8_t *o, int field, const uint8_t *data, size_t len)
{
    *o++ = (uint8_t)(field << 3 | 2);
    for (size_t v = len;; v >>= 7) {
        *o++ = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        if (v <= 0x7f)
            break;
    }
    memcpy(o, data, len);
    return o + len;
}

static size_t wrap(uint8_t *out, const uint8_t *graph, size_t n_graph, const uint8_t *sig, size_t n_sig)
{
    size_t cap = n_graph + n_sig + 64;
    uint8_t *entry = malloc(cap), *meta = malloc(cap), *e = entry, *m = meta;
    FUZZ_CHECK(entry && meta, "out of memory");
    e = put_field(e, 1, (const uint8_t *)"sig", 3);            /* map key */
    e = put_field(e, 2, sig, n_sig);                           /* SignatureDef */
    m = put_field(m, 2, graph, n_graph);                       /* MetaGraphDef.graph_def */
    m = put_field(m, 5, entry, (size_t)(e - entry));           /* MetaGraphDef.signature_def */
    size_t n = (size_t)(put_field(out, 2, meta, (size_t)(m - meta)) - out); /* meta_graphs */
    free(entry);
    free(meta);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *graph, *sig;
    size_t n_graph, n_sig;
    fuzz_split(data, size, &graph, &n_graph, &sig, &n_sig);
    uint8_t *model = malloc(size + 128);
    FUZZ_CHECK(model, "out of memory");
    size_t n_model = wrap(model, graph, n_graph, sig, n_sig);

    fuzz_ctx f;
    fuzz_begin(&f);
    sm2c_model *m;
    sm2c_status st = sm2c_model_load_bytes(&f.c, "saved_model.pb", model, n_model, 0, NULL, &m);
    free(model);
    sm2c_program *p;
    sm2c_compile_opts o = { .name = "model" };
    if (!st)
        st = sm2c_compile_program(&f.c, m, &o, &p);
    sm2c_model_close(m);
    fuzz_end(&f, st);
    return 0;
}
