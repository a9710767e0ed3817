/*
** import.h: one signature of a loaded model -> an IR graph.
*/
#ifndef SM2C_IMPORT_H
#define SM2C_IMPORT_H

#include "ir/ir.h"
#include "load/savedmodel.h"
#include "base/strmap.h"
#include "load/varmap.h"

/* --shape KEY=d0,d1,... or SIG.KEY=d0,d1,...: concrete shapes for inputs with
** unknown dims.  KEY applies to every entry with an input KEY, SIG.KEY to
** entry SIG's only (and wins over KEY there).  A shape must agree with every
** dim the signature declares. */
typedef struct sm2c_shape_opt {
    const char *key;
    sm2c_shape shape;
    int32_t implied;    /* taken from a `sm2c run` input, not given with --shape */
    const char *from;   /* implied: the .npy file it was read from */
} sm2c_shape_opt;

typedef struct sm2c_import_opts {
    int32_t n_shapes;
    const sm2c_shape_opt *shapes;
    /* Writable variables (import_state.c).  state_keys: checkpoint keys of
    ** the variables that become state (NULL: none, all are constants).
    ** written: when set, every variable a write op targets is recorded,
    ** checkpoint key -> sm2c_state_var (the discovery import, where every
    ** variable is a state handle). */
    sm2c_strmap *state_keys;
    sm2c_strmap *written;
    int32_t one_row;    /* --max-batch: an unknown leading dim is 1 (no note), even where
                           an implied shape (a run input's) says otherwise */
} sm2c_import_opts;

/* The shape option for input `key` of entry `entry`: a given SIG.KEY, else
** a given KEY, else an implied KEY (a run input's); NULL when none. */
const sm2c_shape_opt *sm2c_shape_opt_find(const sm2c_import_opts *o, const char *entry, const char *key);

/* Whether option s names input `key` of entry `entry` (as KEY or SIG.KEY). */
int sm2c_shape_opt_names(const sm2c_shape_opt *s, const char *entry, const char *key);

/* The input keys of signature `key`, or of concrete function fn when fn is
** not NULL (as the entry's import names them), in *keys (*n of them). */
sm2c_status sm2c_import_input_keys(sm2c_ctx *c, const sm2c_model *m, const sm2c_concrete_fn *fn,
                                   const char *key, const char ***keys, int32_t *n);

/* Import signature `key`: its placeholders become the entry's inputs, its
** outputs are demanded from the main graph, and only what they need is
** imported (saver, training and summary subgraphs never are).  Calls are
** instantiated in place; Identity-like ops become aliases; variables become
** constants read from the checkpoint (TF2 captures bound through
** bound_inputs, TF1 variables through the saver graph), or state when
** opts->state_keys names them.  Control inputs and control_ret are followed
** to nodes with effects, so writes happen in TensorFlow's order.  Every unsupported
** op is reported before failing. */
/* 1 for ops the importer resolves without the op table. */
int sm2c_import_handles(const char *op);

sm2c_status sm2c_import_signature(sm2c_ctx *c, const sm2c_model *m, const sm2c_varmap *vm,
                                  const char *key, const sm2c_import_opts *opts,
                                  sm2c_graph **out);

/* Import concrete function fn (of a tf.function, not a signature) as entry
** `key`: its arguments become the entry's inputs, its outputs the entry's. */
sm2c_status sm2c_import_function(sm2c_ctx *c, const sm2c_model *m, const sm2c_varmap *vm,
                                 const sm2c_concrete_fn *fn, const char *key,
                                 const sm2c_import_opts *opts, sm2c_graph **out);

#endif
