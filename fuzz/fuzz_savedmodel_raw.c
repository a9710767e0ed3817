/*
** fuzz_savedmodel_raw.c (docs/reliability.md section 8, targets 1 and 3):
** raw saved_model.pb bytes -> depth pre-scan -> protobuf-c unpack -> sm2c's
** semantic validation (meta graph choice, versions, names, functions, attribute
** values, variable mapping, reachable ops), no codegen.
** Oracle: no crash, leak or UB; an error always comes with an error line.
*/
#include "fuzz_common.h"
#include "import/op_support.h"
#include "load/savedmodel.h"
#include "load/varmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_ctx f;
    fuzz_begin(&f);
    sm2c_model *m;
    sm2c_status st = sm2c_model_load_bytes(&f.c, "saved_model.pb", data, size, 0, NULL, &m);
    if (!st)
        st = sm2c_model_check_attrs(&f.c, m);
    sm2c_varmap *vm;
    if (!st)
        st = sm2c_varmap_build(&f.c, m, &vm);
    sm2c_op_count *ops;
    size_t n_ops;
    if (!st)
        st = sm2c_reachable_ops(&f.c, m, &ops, &n_ops);
    sm2c_model_close(m);
    fuzz_end(&f, st);
    return 0;
}
