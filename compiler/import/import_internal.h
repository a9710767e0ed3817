/*
** import_internal.h: what the import stages share (import.c walks scopes,
** import_inline.c instantiates calls, import_capture.c resolves variables).
*/
#ifndef SM2C_IMPORT_INTERNAL_H
#define SM2C_IMPORT_INTERNAL_H

#include "import.h"

/* Nodes an entry adds to the main graph (a concrete function's placeholders,
** capture handles and call), and the saved variable of each handle (or NULL). */
typedef struct sm2c_entry_nodes {
    Tensorflow__NodeDef **nodes;
    const sm2c_variable **vars;
    size_t n_nodes;
} sm2c_entry_nodes;

typedef struct sm2c_table sm2c_table;   /* import_table.c */

typedef struct importer {
    sm2c_ctx *c;
    const sm2c_model *m;
    const sm2c_varmap *vm;
    sm2c_graph *g;
    const sm2c_entry_nodes *extra;  /* synthetic nodes after the main graph's, or NULL */
    sm2c_strmap *fed;            /* main-graph node name -> the entry input feeding its
                                    output 0 (a placeholder, or any tensor a TF1
                                    signature feeds: the graph is cut there) */
    sm2c_strmap *handle_vars;    /* main-graph node name -> sm2c_variable (VarHandleOp, VariableV2) */
    sm2c_strmap *var_values;     /* checkpoint key -> sm2c_tensor */
    sm2c_status failed;          /* first unsupported-op status, kept while going on */
    int64_t instantiated;        /* function body nodes instantiated so far: capped by
                                    limits->graph_nodes, as calls can fan out
                                    exponentially within the depth limit */
    const sm2c_import_opts *opts;
    sm2c_strmap *state_vars;     /* checkpoint key -> sm2c_state_var (import_state.c) */
    struct sm2c_cflow *loop;     /* the innermost While whose body is being imported, or NULL */
    sm2c_strmap *assets;         /* main-graph node name -> asset file name (import_table.c) */
    sm2c_strmap *asset_vars;     /* VarHandleOp a TF2 model assigns an asset path to -> file name */
    const sm2c_value **asset_values;  /* values standing for an asset, and their file names */
    const char **asset_names;
    int32_t n_asset_values;
    sm2c_table **tables;         /* every HashTableV2 imported, with its contents once initialized */
    sm2c_strmap *open_fns;       /* function name -> its scopes being imported (intptr_t *) */
    int32_t n_tables;
} importer;

typedef struct scope {
    const char *path;            /* "" for the main graph, else function call path */
    const char *path_head;       /* the path's first levels (import_inline.c) */
    const char *fname;           /* function name, NULL for the main graph */
    struct scope *parent;
    int depth;
    Tensorflow__NodeDef **nodes;
    size_t n_nodes;
    sm2c_strmap *index;          /* node name -> node index + 1 */
    const sm2c_strmap *base_index; /* the main scope: the model's index of its first
                                    n_base nodes (the main graph), built once at load;
                                    `index` then holds only the entry's own nodes */
    size_t n_base;
    int heap;                    /* outs and n_outs are malloc'd (the main scope's,
                                    sized by the whole graph: freed after the entry) */
    sm2c_strmap *args;           /* function arg name -> value */
    sm2c_value ***outs;          /* per node: its output values once imported */
    int32_t *n_outs;
} scope;

const char *sm2c_import_where(importer *im, const scope *s, const Tensorflow__NodeDef *nd);
sm2c_status sm2c_import_bad(importer *im, const scope *s, const Tensorflow__NodeDef *nd,
                            sm2c_status kind, const char *fmt, const char *arg);
sm2c_value *sm2c_import_resolve(importer *im, scope *s, const Tensorflow__NodeDef *nd, const char *ref);
void sm2c_import_set_outputs(importer *im, scope *s, int32_t i, sm2c_value **vals, int32_t n);
sm2c_status sm2c_import_scope(importer *im, scope *s, const char *const *roots, size_t n);
/* Reports node i as needing op `missing`, and stands in for its outputs. */
void sm2c_import_unsupported(importer *im, scope *s, int32_t i, const char *missing);

/* The entry `key` whose inputs and outputs sd names, in the main graph plus
** `extra` (NULL for a signature). */
sm2c_status sm2c_import_entry(sm2c_ctx *c, const sm2c_model *m, const sm2c_varmap *vm, const char *key,
                              const Tensorflow__SignatureDef *sd, const sm2c_entry_nodes *extra,
                              const sm2c_import_opts *opts, sm2c_graph **out);
/* import_inline.c */
int sm2c_import_is_call(importer *im, const Tensorflow__NodeDef *nd, const char **fname);
sm2c_status sm2c_import_call(importer *im, scope *s, int32_t i, const char *fname,
                             sm2c_value **ins, int32_t n_ins);

/* import_capture.c */
void sm2c_import_bind_tf2_captures(importer *im);
void sm2c_import_bind_tf1_variables(importer *im);
/* VarHandleOp, VariableV2/Variable and ReadVariableOp: 1 when node i is one
** (then *out is its value, or NULL after an error in *st). */
int sm2c_import_variable(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins,
                         sm2c_value **out, sm2c_status *st);

/* tlist.c: v's shape (and value, when it folds: a Shape of a static shape, or
** arithmetic on constants) worked out ahead of the forward walk, quietly. */
void sm2c_import_infer_ahead(sm2c_ctx *c, sm2c_graph *g, sm2c_value *v);

/* import_partition.c: the value of a part_N of a TF1 partitioned variable, cut
** from the whole tensor in the checkpoint; NULL after an error in *st. */
sm2c_tensor *sm2c_import_partitioned_part(importer *im, const scope *s, const Tensorflow__NodeDef *nd,
                                          const sm2c_variable *v, sm2c_status *st);

/* import_function.c: a type-valued attr (for the nodes import adds). */
Tensorflow__AttrValue *sm2c_import_type_attr(sm2c_ctx *c, int dtype);
/* import_widen.c: a node on float16/bfloat16 whose op runs on it in float32
** becomes Cast, the op on float32, Cast back; 1 when done. */
int sm2c_import_widen(importer *im, scope *s, int32_t i, const struct sm2c_opdef *op, sm2c_value **ins,
                      int32_t n_ins, int32_t n_outs);
/* import_widen.c: node nd of op on the half type dt as Casts around the op on
** float32 (a step of op part_of, or NULL); its n_outs outputs as the half-type
** graph sees them. */
sm2c_value **sm2c_import_widen_node(importer *im, scope *s, const Tensorflow__NodeDef *nd,
                                    const struct sm2c_opdef *op, sm2c_value **ins, int32_t n_ins,
                                    int32_t n_outs, int dt, const struct sm2c_opdef *part_of);
/* import_widen.c: a copy of nd named `name` with `op` and its type attrs
** `keys` set to `types` (nd's other attrs kept when op is nd's op). */
Tensorflow__NodeDef *sm2c_import_node_like(sm2c_ctx *c, const Tensorflow__NodeDef *nd, const char *name,
                                           const char *op, const char *const *keys, const int *types,
                                           size_t n);
/* import_widen_split.c: the outputs of a half-type AddN, SquaredDifference
** or TruncateDiv as the widened ops TensorFlow rounds between; NULL for
** other nodes. */
sm2c_value **sm2c_import_widen_split(importer *im, scope *s, const Tensorflow__NodeDef *nd,
                                     const struct sm2c_opdef *op, sm2c_value **ins, int32_t n_ins, int dt);
/* cflow.c: If, Case and While (and their Stateless forms) become marker
** nodes around the inlined branches and bodies; 1 when node i is one. */
int sm2c_import_cflow(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins,
                      sm2c_status *st);
/* tlist.c: TensorList ops become data and length values; 1 when node i is one. */
int sm2c_import_tlist(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins,
                      sm2c_status *st);
/* A function tagged api_preferred_device GPU (Keras's CuDNN RNN): the CPU
** function of the same api_implements and arity, else fname itself. */
const char *sm2c_import_cpu_variant(importer *im, const char *fname);
/* 1 for the ops cflow.c and tlist.c import. */
int sm2c_import_cflow_op(const char *op);
int sm2c_tlist_op(const char *op);
/* Flat output index of "node:arg:k" for the TensorList ops tlist.c imports. */
int32_t sm2c_tlist_output_index(const char *op, const char *arg, int32_t k);
/* import_resource.c */
/* 1 when `op` reads a saved variable in a form the importer rewrites. */
int sm2c_import_resource_supported(const char *op);
/* ResourceGather: 1 when node i is one (rewritten, or reported in *st). */
int sm2c_import_resource_op(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins,
                            sm2c_status *st);

/* import_state.c: writable variables. */
int sm2c_import_state_supported(const char *op);
/* ReadVariableOp or a write sm2c compiles. */
int sm2c_import_is_state_op(const char *op);
int sm2c_import_is_other_write(const char *op);
/* Whether the variable with checkpoint key `key` is state in this import. */
int sm2c_import_is_state(importer *im, const char *key);
sm2c_value *sm2c_import_state_handle(importer *im, const Tensorflow__NodeDef *nd, const char *key,
                                     sm2c_tensor *init);
sm2c_value *sm2c_import_state_read(importer *im, scope *s, const Tensorflow__NodeDef *nd, sm2c_value *h);
void sm2c_import_ref_reads(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins);
/* v, or a read of it there when it is a TF1 ref variable (a signature output). */
sm2c_value *sm2c_import_ref_value(importer *im, scope *s, const char *name, sm2c_value *v);
int sm2c_import_state_op(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins,
                         sm2c_status *st);
int sm2c_import_follow_control(const Tensorflow__NodeDef *nd);

/* import_table.c: hash tables baked in at compile time. */
void sm2c_import_bind_assets(importer *im);
/* The table initializers to import before the entry's outputs (TF1's
** table_initializer collection, TF2's __saved_model_init_op); *n of them. */
const char **sm2c_import_table_roots(importer *im, size_t *n);
/* HashTableV2, its initializers, lookups, and asset paths: 1 when node i is
** one (imported, or an error in *st). */
int sm2c_import_table_op(importer *im, scope *s, int32_t i, sm2c_value **ins, int32_t n_ins, sm2c_status *st);
/* 1 for the ops that fill a table (control edges to them are followed). */
int sm2c_import_is_table_init(const char *op);
/* 1 for the table ops the importer resolves itself. */
int sm2c_import_table_handles(const char *op);

#endif
