/*
** varmap.h: which variable is which checkpoint entry, and what each concrete
** function captures (docs/savedmodel-format.md section 4).
**
** TF2: the SavedObjectGraph and the checkpoint's TrackableObjectGraph are walked
** in parallel from the root, matching children by local name, as TensorFlow's
** loader does; concrete functions capture objects through `bound_inputs`.
** TF1: each variable is traced from the saver's restore op through its Assign
** to the RestoreV2 output whose `tensor_names` entry is the key.
** Names are never used to match: they repeat in real files.
*/
#ifndef SM2C_VARMAP_H
#define SM2C_VARMAP_H

#include "savedmodel.h"

typedef struct sm2c_variable {
    const char *name;            /* TF variable name (may repeat) */
    const char *path;            /* TF2: object path from the root; TF1: node name */
    int32_t object_id;           /* TF2: SavedObject node id; TF1: -1 */
    const Tensorflow__NodeDef *node;  /* TF1: the variable node; TF2: NULL */
    int dtype;                   /* as declared by the graph or object */
    sm2c_shape shape;
    const char *checkpoint_key;  /* NULL: not saved in the checkpoint */
    const char *slice_spec;      /* TF1 partitioned part ("10 0,5"), else NULL */
} sm2c_variable;

typedef struct sm2c_capture {
    int32_t object_id;
    const char *kind;            /* "variable", "constant", "resource", "asset", ... */
    const sm2c_variable *variable;  /* kind "variable" */
    const char *constant_op;     /* kind "constant": Const node in the main graph */
} sm2c_capture;

typedef struct sm2c_concrete_fn {
    const char *name;            /* FunctionDef name */
    const char *owner_kind;      /* "signature", "function" or NULL (unreferenced) */
    const char *owner;           /* signature key, or object path of the tf.function */
    int32_t owner_index;         /* its position among the tf.function's concrete functions */
    const char *input_signature; /* rendered canonicalized_input_signature */
    size_t n_captures;
    sm2c_capture *captures;
} sm2c_concrete_fn;

typedef struct sm2c_varmap {
    int object_based;            /* TF2 object graph present */
    size_t n_vars;
    sm2c_variable *vars;         /* TF2: object id order; TF1: graph order */
    size_t n_fns;
    sm2c_concrete_fn *fns;       /* sorted by name */
    const char **object_paths;   /* TF2: path of each SavedObject node ("" root) */
    size_t n_objects;
} sm2c_varmap;

/* 1 when fn belongs to a tf.function (not a signature); then its entry key
** for --function is "<object path>_<k>", k its position in the SavedFunction
** (the order TensorFlow wrote them in). */
int sm2c_concrete_fn_is_function(const sm2c_concrete_fn *fn);
const char *sm2c_concrete_fn_entry_key(sm2c_arena *a, const sm2c_concrete_fn *fn);

sm2c_status sm2c_varmap_build(sm2c_ctx *c, const sm2c_model *m, sm2c_varmap **out);

/* The attr called `name` of a node, or NULL. */
const Tensorflow__AttrValue *sm2c_node_attr(const Tensorflow__NodeDef *n, const char *name);

#endif
