/*
** ir.h: the compiler's graph IR.
**
** A graph is one entry point (a signature) after import: values with a dtype
** and (after shape inference) a static shape, and nodes in topological order.
** Calls are already instantiated (the IR never holds a call), Identity-like
** ops are already aliases, and variables are constants read from the
** checkpoint, except those some compiled entry writes: those are state
** handles (sm2c_value.state) read and written by nodes (import_state.c).  Nothing in the IR owns heap memory: it all lives in the arena.
*/
#ifndef SM2C_IR_H
#define SM2C_IR_H

#include <stdint.h>

#include "graph.pb-c.h"
#include "base/tensor.h"

struct sm2c_opdef;
struct sm2c_node;

/* An int8 value's affine quantization (--quantize int8, pass_quantize.c):
** real = scale * (q - zero_point), and the float range it was chosen from
** (calibration or a FakeQuant's), for the report. */
typedef struct sm2c_qparam {
    float scale;
    int32_t zero_point;
    float min, max;
} sm2c_qparam;

/* A node that computes in int8 (pass_quantize.c): everything its kernel needs
** besides buffers, computed at compile time.  Requantization is TFLite's:
** a Q31 multiplier and a shift per output channel (one for per-tensor), or
** with --requantize float the real multiplier as a float (XNNPACK's scheme). */
typedef struct sm2c_qnode {
    int32_t n_channels;
    int32_t *multiplier;        /* [n_channels] */
    int32_t *shift;             /* [n_channels]: > 0 left, < 0 right */
    float *scale;               /* NULL, or --requantize float: a contraction's
                                   [n_channels] float scales (for multiplier and
                                   shift), an Add's two input scales over the output's */
    double *real;               /* NULL, or --quantize int16x8: a contraction's
                                   [n_channels] in_scale * w_scale / out_scale, in
                                   double (TFLite's int16 FullyConnected scales so) */
    int32_t act_min, act_max;   /* output clamp, quantized (fused Relu/Relu6) */
    int32_t elt[12];            /* int8 Add and Mul: TFLite's ArithmeticParams, as
                                   sm2c_rt_add_s8 and sm2c_rt_mul_s8 take them */
} sm2c_qnode;

/* A contraction of --quantize dynamic (pass_dynamic.c): TFLite's hybrid
** kernels.  Its filter input is an int8 constant (symmetric, per output
** channel), its input stays float and is quantized per call (per row of a
** MatMul, per image of a convolution), and it computes its float output from
** the int32 sums, these scales and the input's. */
typedef struct sm2c_hybrid {
    int32_t n_channels;
    float *scale;               /* [n_channels]: the int8 filter's scales */
    int32_t *sum;               /* MatMul: [n_channels], each output's filter row summed
                                   (for the input's zero point); NULL for a convolution */
} sm2c_hybrid;

/* A variable that some compiled entry writes (import_state.c): its handle
** value carries this instead of a constant, so nothing folds its reads. */
typedef struct sm2c_state_var {
    const char *key;            /* checkpoint key */
    const sm2c_tensor *init;    /* checkpoint value: dtype, shape, bytes */
    int ref;                    /* TF1 ref variable (VariableV2): every use is a read */
} sm2c_state_var;

typedef struct sm2c_value {
    int32_t id;
    int dtype;
    sm2c_shape shape;           /* rank -1 until shape inference */
    struct sm2c_node *node;     /* producer; NULL for inputs and constants */
    int32_t index;              /* output index of the producer */
    sm2c_tensor *constant;      /* its value when known at compile time */
    const char *name;           /* TF tensor name, for comments and errors */
    int32_t input;              /* >= 0: the entry's input at this position */
    int32_t uses;
    const sm2c_state_var *state; /* a handle of a written variable, else NULL */
    /* A TensorList handle (import only, never a node input): its data
    ** [max_len, element...] and int32 length values, and its list family. */
    struct sm2c_value *list_data, *list_len;
    struct sm2c_tlist *tlist;
    /* A data-dependent size (ops_dyn.c): dim `dyn_dim` holds at most shape.dims[dyn_dim]
    ** (the static bound) and at run time as many as the count that the op making `dyn`
    ** wrote (`dyn` is itself for Where, Unique, NonMaxSuppression; consumers that work
    ** row by row share their input's).  NULL for a static shape. */
    const struct sm2c_value *dyn;
    int32_t dyn_dim;
    const sm2c_qparam *quant;   /* an int8 value of --quantize int8, else NULL */
    /* An integer vector known only at run time whose elements are known at compile time
    ** but one (ParseExample's sparse dense_shape: [batch, at most --limit sparse-values]):
    ** `bound` holds them, element `bound_dim` as its maximum.  NULL otherwise. */
    const int64_t *bound;
    int32_t bound_dim;
} sm2c_value;

typedef struct sm2c_node {
    int32_t id;
    const struct sm2c_opdef *op;
    const char *name;           /* TF node name */
    const char *function;       /* call path ("" for the top-level graph) */
    const char *file;           /* the model file, for diagnostics */
    const Tensorflow__NodeDef *def;  /* attrs (absent ones take the op's default) */
    int32_t n_inputs, n_outputs;
    sm2c_value **inputs;
    sm2c_value **outputs;
    int32_t act;                /* fused activation (SM2C_RT_ACT_*), set by fusion */
    float act_a, act_b;         /* its parameters (sm2c_rt.h): LeakyRelu's alpha, clip's bounds */
    sm2c_value *bias;           /* fused bias, set by fusion */
    sm2c_value *residual;       /* fused residual Add after the bias, set by fusion */
    int in_scaled;              /* set by fusion (pass_fuse_scale.c): input 0 is multiplied */
    float in_scale;             /* by in_scale first, a Mul by a constant folded in */
    const char *value_node;     /* set by fusion: the last node whose output it took over,
                                   whose value its output now is (NULL: its own) */
    int64_t pad[4];             /* zeros of a Pad folded into a convolution's input:
                                   top, bottom, left, right (pass_padfold.c) */
    int widened_from;           /* float16/bfloat16 when it computes that type in float32
                                   (import_widen.c), else 0 */
    const struct sm2c_opdef *part_of; /* the half-type op it is a step of (AddN's adds:
                                   import_widen_split.c), else NULL */
    int dead;
    struct sm2c_cflow *cflow;   /* a control-flow marker node (cflow.h), else NULL */
    struct sm2c_tlist *tlist;   /* a TensorList node's list family (tlist.c), else NULL */
    const sm2c_qnode *q;        /* computes in int8 (pass_quantize.c), else NULL */
    const sm2c_hybrid *hybrid;  /* int8 filter, float input and output (pass_dynamic.c), else NULL */
    struct sm2c_node *absorbed; /* the first node fusion folded into this one (pass_fuse.c: a
                                   bias, residual Add or activation), the rest chained through
                                   their own `absorbed`, in graph order; else NULL.  For
                                   --report, which names them beside the step */
} sm2c_node;

typedef struct sm2c_port_value {
    const char *key;            /* signature key */
    const char *tensor;         /* TF tensor name */
    sm2c_value *value;
    int declared_dtype;         /* what the SignatureDef's TensorInfo says (G11) */
    sm2c_shape declared_shape;  /* rank -1 when it gives none */
    int32_t batched;            /* --max-batch: 0, or its leading dim holds `batched` slices
                                   per row of the run-time batch (pass_batch.c) */
} sm2c_port_value;

typedef struct sm2c_graph {
    const char *key;            /* signature key */
    const char *file;           /* for diagnostics */
    int32_t n_inputs, n_outputs;
    sm2c_port_value *inputs;    /* sorted by key */
    sm2c_port_value *outputs;   /* sorted by key */
    int32_t n_nodes, cap_nodes;
    sm2c_node **nodes;          /* topological order */
    int32_t n_values;
} sm2c_graph;

sm2c_value *sm2c_value_new(sm2c_ctx *c, sm2c_graph *g, int dtype, const char *name);
/* A constant value owning `t` (not copied). */
sm2c_value *sm2c_value_const(sm2c_ctx *c, sm2c_graph *g, sm2c_tensor *t, const char *name);
sm2c_node *sm2c_node_new(sm2c_ctx *c, sm2c_graph *g, const struct sm2c_opdef *op,
                         const Tensorflow__NodeDef *def, const char *function,
                         int32_t n_inputs, sm2c_value **inputs, int32_t n_outputs);

/* "node 'x' (Op) in f" for diagnostics. */
const char *sm2c_node_where(sm2c_ctx *c, const sm2c_node *n);


/* Element count of a value's static shape. */
int64_t sm2c_value_elements(const sm2c_value *v);
int sm2c_shape_equal(const sm2c_shape *a, const sm2c_shape *b);
sm2c_shape sm2c_shape_make(sm2c_ctx *c, int32_t rank, const int64_t *dims);

/* What a node's op is: the op table (ops/ops.def) holds one per TensorFlow op,
** and import/cflow.c, import/tlist.c a few internal ones.  Defined here because
** every node points at one; the hooks are defined by the ops stage. */
struct sm2c_lower;

typedef sm2c_status (*sm2c_shape_fn)(sm2c_ctx *c, sm2c_node *n);
typedef sm2c_status (*sm2c_lower_fn)(struct sm2c_lower *l, const sm2c_node *n);

typedef struct sm2c_opdef {
    const char *name;       /* TF op name */
    int32_t n_inputs;       /* data inputs; -1 when variadic (ConcatV2, Pack) */
    const char *outputs;    /* output arg names, comma-separated ("" for none) */
    const char *defaults;   /* attr defaults, "name=value ..." (see ops.def) */
    sm2c_shape_fn shape;    /* sets dtype and static shape of every output */
    sm2c_lower_fn lower;    /* appends kernel steps */
    uint64_t dtypes;        /* bit d: runs on dtype d (sm2c_node_dtype), each tested */
    uint32_t flags;         /* SM2C_OPF_*: what passes may assume about the op */
    uint32_t q8;            /* SM2C_Q8_*: how --quantize int8 runs it, 0 when it stays float */
} sm2c_opdef;

/* Op properties (the props column of ops.def).  Each is read by the pass named. */
enum {
    SM2C_OPF_ELEMENTWISE = 1 << 0,  /* output element i reads the same-position (broadcast)
                                       input elements only (pass_batch.c) */
    SM2C_OPF_ROWWISE = 1 << 1,      /* works along the last axis, each row alone (pass_batch.c) */
    SM2C_OPF_WRITES_STATE = 1 << 2, /* writes a variable: never dead, orders reads (ops_state.c) */
    SM2C_OPF_SIDE_EFFECT = 1 << 3   /* an effect beyond its outputs, e.g. Assert's check:
                                       never dead (pass_dce.c) */
};

/* How an op runs in int8 (pass_quantize.c rewrites, ops_q8.c lowers). */
enum {
    SM2C_Q8_NONE = 0,
    SM2C_Q8_CONV,           /* Conv2D, depthwise: per-channel weights */
    SM2C_Q8_MATMUL,         /* FullyConnected */
    SM2C_Q8_ADD,            /* TFLite's int8 Add */
    SM2C_Q8_MUL,            /* TFLite's int8 Mul */
    SM2C_Q8_POOL,           /* keeps its input's parameters */
    SM2C_Q8_CLAMP,          /* Relu, Relu6: a clamp with its input's parameters */
    SM2C_Q8_MOVE,           /* data movement: int8 bytes through the op's own lowering */
    SM2C_Q8_SOFTMAX,        /* gemmlowp fixed point, fixed output parameters */
    SM2C_Q8_LOGISTIC,       /* 256-entry table, fixed output parameters */
    SM2C_Q8_TANH,
    SM2C_Q8_MEAN,           /* requantizes, 1/r folded into the multiplier */
    SM2C_Q8_HARD_SWISH      /* HardSwishS8 (pass_quantize.c makes it): a table */
};

#endif
