/*
** pass_fuse_act.c: recognise the activation applied to a kernel's output, for
** pass_fuse.c.  One op on the sole use (Relu, Relu6, LeakyRelu, Sigmoid,
** ClipByValue with constant scalar bounds), a Minimum/Maximum pair with
** constant scalar bounds in either order (tf.clip_by_value, Keras's
** ReLU(max_value)), or hard-swish, whose input has two uses: Keras writes it
** y * (relu6(y + 3) / 6); tf.nn.relu6(y + 3) * y / 6 and y * (relu6(y + 3) *
** (1/6)) round differently by at most an ulp or two and are taken too.
** A Minimum/Maximum clip returns the bound's +0 for a -0 input where the
** kernel (ClipByValue's rule) keeps -0: equal values, another sign of zero.
*/
#include <string.h>

#include "ops/opdefs.h"
#include "passes.h"
#include "sm2c_rt.h"

static int op_is(const sm2c_node *n, const char *name)
{
    return n && strcmp(n->op->name, name) == 0;
}

static int is_add(const sm2c_node *n)
{
    return (op_is(n, "AddV2") || op_is(n, "Add")) && n->n_inputs == 2;
}

/* n has two inputs, y and a constant scalar (either order): its value. */
static int with_scalar(const sm2c_node *n, const sm2c_value *y, float *f)
{
    if (!n || n->n_inputs != 2 || n->inputs[0] == n->inputs[1])
        return 0;
    if (n->inputs[0] == y)
        return sm2c_scalar_const(n->inputs[1], f);
    return n->inputs[1] == y && sm2c_scalar_const(n->inputs[0], f);
}

/* n's output is float with y's shape (a scalar bound may not broadcast it up). */
static int keeps_shape(const sm2c_node *n, const sm2c_value *y)
{
    return n->n_outputs == 1 && n->outputs[0]->dtype == SM2C_DT_FLOAT &&
           sm2c_shape_equal(&n->outputs[0]->shape, &y->shape);
}

/* Kill the nodes mid[0..k) and let n's output stand for last's. */
static void take_over(sm2c_graph *g, sm2c_node *n, sm2c_node *const *mid, int k, sm2c_node *last)
{
    for (int i = 0; i < k; i++)
        sm2c_absorb_node(n, mid[i]);
    sm2c_absorb_node(n, last);
    n->value_node = last->name;
    sm2c_replace_uses(g, last->outputs[0], n->outputs[0]);
}

static void set_act(sm2c_node *n, int32_t act, float a, float b)
{
    n->act = act, n->act_a = a, n->act_b = b;
}

/* A one-op activation on y: its kind and parameters, or 0.  clamps_only:
** Relu, Relu6 and clip alone (see sm2c_fuse_act). */
static int single_op(const sm2c_node *next, const sm2c_value *y, sm2c_node *n, int clamps_only)
{
    float a = 0.2f, b;
    if (!next || next->inputs[0] != y || !keeps_shape(next, y))
        return 0;
    if (op_is(next, "Relu") || op_is(next, "Relu6") || (op_is(next, "Sigmoid") && !clamps_only)) {
        set_act(n, op_is(next, "Relu") ? SM2C_RT_ACT_RELU : op_is(next, "Relu6") ? SM2C_RT_ACT_RELU6
                                                                                 : SM2C_RT_ACT_SIGMOID,
                0.0f, 0.0f);
        return 1;
    }
    if (op_is(next, "LeakyRelu") && !clamps_only) {
        sm2c_attr_float(next, "alpha", &a);
        set_act(n, SM2C_RT_ACT_LEAKY_RELU, a, 0.0f);
        return 1;
    }
    /* lo <= hi and neither NaN: then the kernel's clip is ClipByValue's. */
    if (op_is(next, "ClipByValue") && next->n_inputs == 3 && sm2c_scalar_const(next->inputs[1], &a) &&
        sm2c_scalar_const(next->inputs[2], &b) && a <= b) {
        set_act(n, SM2C_RT_ACT_CLIP, a, b);
        return 1;
    }
    return 0;
}

/* Minimum(Maximum(y, lo), hi) or Maximum(Minimum(y, hi), lo), lo <= hi. */
static int min_max(sm2c_graph *g, sm2c_node *n, sm2c_node *first)
{
    const sm2c_value *y = n->outputs[0];
    int max_first = op_is(first, "Maximum");
    float c0, c1;
    if (!(max_first || op_is(first, "Minimum")) || !with_scalar(first, y, &c0) || !keeps_shape(first, y))
        return 0;
    sm2c_node *second = sm2c_sole_user(g, first->outputs[0]);
    if (!op_is(second, max_first ? "Minimum" : "Maximum") ||
        !with_scalar(second, first->outputs[0], &c1) || !keeps_shape(second, y))
        return 0;
    float lo = max_first ? c0 : c1, hi = max_first ? c1 : c0;
    if (!(lo <= hi))
        return 0;
    set_act(n, SM2C_RT_ACT_CLIP, lo, hi);
    take_over(g, n, &first, 1, second);
    return 1;
}

/* t = relu6(y + 3) scaled by 1/6 (RealDiv by 6 or Mul by 1/6) of input v. */
static int sixth_of(const sm2c_node *s, const sm2c_value *v)
{
    float f;
    if (op_is(s, "RealDiv") || op_is(s, "Div"))
        return s->n_inputs == 2 && s->inputs[0] == v && sm2c_scalar_const(s->inputs[1], &f) && f == 6.0f;
    return op_is(s, "Mul") && with_scalar(s, v, &f) && f == 1.0f / 6.0f;
}

/* n = Mul of y and t, either order. */
static int mul_of(const sm2c_node *m, const sm2c_value *y, const sm2c_value *t)
{
    return op_is(m, "Mul") && m->n_inputs == 2 &&
           ((m->inputs[0] == y && m->inputs[1] == t) || (m->inputs[0] == t && m->inputs[1] == y));
}

/* The y + 3 that starts a hard-swish of y, or NULL. */
static sm2c_node *plus_three(const sm2c_graph *g, const sm2c_value *y)
{
    float f;
    for (int32_t i = 0; i < g->n_nodes; i++) {
        sm2c_node *a = g->nodes[i];
        if (!a->dead && is_add(a) && with_scalar(a, y, &f) && f == 3.0f && keeps_shape(a, y))
            return a;
    }
    return NULL;
}

static int hard_swish(sm2c_graph *g, sm2c_node *n)
{
    const sm2c_value *y = n->outputs[0];
    sm2c_node *mid[3];
    if (sm2c_uses_of(g, y) != 2 || !(mid[0] = plus_three(g, y)))
        return 0;
    mid[1] = sm2c_sole_user(g, mid[0]->outputs[0]);
    if (!op_is(mid[1], "Relu6") || !keeps_shape(mid[1], y))
        return 0;
    const sm2c_value *r = mid[1]->outputs[0];
    mid[2] = sm2c_sole_user(g, r);
    if (!mid[2] || !keeps_shape(mid[2], y))
        return 0;
    sm2c_node *last = sm2c_sole_user(g, mid[2]->outputs[0]);
    if (!last || !keeps_shape(last, y))
        return 0;
    /* y * (r / 6) (Keras), or (r * y) / 6 (tf.nn.relu6(x + 3) * x / 6) */
    if (!(sixth_of(mid[2], r) && mul_of(last, y, mid[2]->outputs[0])) &&
        !(mul_of(mid[2], y, r) && sixth_of(last, mid[2]->outputs[0])))
        return 0;
    set_act(n, SM2C_RT_ACT_HARD_SWISH, 0.0f, 0.0f);
    take_over(g, n, mid, 3, last);
    return 1;
}

int sm2c_fuse_act_after_reshape(sm2c_graph *g, sm2c_node *n, sm2c_node *reshape, int clamps_only)
{
    sm2c_value *z = reshape->outputs[0];
    sm2c_node *next = sm2c_sole_user(g, z);
    if (!single_op(next, z, n, clamps_only))
        return 0;
    sm2c_absorb_node(n, next);
    reshape->value_node = next->name;
    sm2c_replace_uses(g, next->outputs[0], z);
    return 1;
}

int sm2c_fuse_act(sm2c_graph *g, sm2c_node *n, int clamps_only)
{
    sm2c_node *next = sm2c_sole_user(g, n->outputs[0]);
    if (single_op(next, n->outputs[0], n, clamps_only)) {
        take_over(g, n, NULL, 0, next);
        return 1;
    }
    return (next && min_max(g, n, next)) || (!clamps_only && hard_swish(g, n));
}
