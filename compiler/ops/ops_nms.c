/*
** ops_nms.c: NonMaxSuppression V2 to V5 (object detection).
**
** Inputs: boxes [n, 4], scores [n], max_output_size (int32 scalar),
** iou_threshold, then score_threshold (V3-V5) and soft_nms_sigma (V5).
** selected_indices (and V5's selected_scores) hold at most
** min(max_output_size, n): a data-dependent size (ops_dyn.c) unless
** pad_to_max_output_size (V4, V5), which pads them with zeros to
** max_output_size, a static shape; valid_outputs (V4, V5) is the number
** selected.  A data-dependent size needs max_output_size constant when it
** pads; otherwise a run-time one is bounded by n.
*/
#include "ops_common.h"
#include "ops_dyn.h"

static int nms_version(const sm2c_node *n)
{
    return n->op->name[strlen(n->op->name) - 1] - '0';
}

/* The static size of the selected outputs, and whether it is data-dependent. */
static sm2c_status nms_bound(sm2c_ctx *c, const sm2c_node *n, int64_t *bound, int *dynamic)
{
    const sm2c_value *boxes = n->inputs[0], *scores = n->inputs[1], *max_out = n->inputs[2];
    if (boxes->shape.rank != 2 || boxes->shape.dims[1] != 4)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "boxes must be [n, 4], not %s",
                             sm2c_shape_str(c->arena, &boxes->shape));
    if (scores->shape.rank != 1 || scores->shape.dims[0] != boxes->shape.dims[0])
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "scores must be [%lld], not %s",
                             (long long)boxes->shape.dims[0], sm2c_shape_str(c->arena, &scores->shape));
    for (int32_t i = 2; i < n->n_inputs; i++)
        if (n->inputs[i]->shape.rank != 0)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "input %d must be a scalar", (int)i);
    if (max_out->dtype != SM2C_DT_INT32)
        return sm2c_op_error(c, n, SM2C_ERR_INVALID, "max_output_size must be int32");
    for (int32_t i = 0; i < n->n_inputs; i++)
        if (i != 2 && n->inputs[i]->dtype != SM2C_DT_FLOAT)
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "input %d is %s; only float32 is supported", (int)i,
                                 sm2c_dtype_name(n->inputs[i]->dtype));
    int pad = nms_version(n) >= 4 && sm2c_attr_flag(n, "pad_to_max_output_size");
    int64_t nb = boxes->shape.dims[0], m = nb;
    if (max_out->constant) {
        m = sm2c_op_ints(c, max_out->constant)[0];
        if (m < 0)
            return sm2c_op_error(c, n, SM2C_ERR_INVALID, "max_output_size %lld is negative", (long long)m);
    } else if (pad) {
        return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED,
                             "pad_to_max_output_size needs a constant max_output_size (the output size)");
    }
    *bound = pad ? m : m < nb ? m : nb;
    *dynamic = !pad;
    return SM2C_OK;
}

sm2c_status shape_nms(sm2c_ctx *c, sm2c_node *n)
{
    sm2c_status st = sm2c_op_need_shapes(c, n);
    int64_t bound;
    int dynamic;
    if (st || (st = nms_bound(c, n, &bound, &dynamic)))
        return st;
    for (int32_t i = 0; i < n->n_inputs; i++)
        if (n->inputs[i]->dyn)
            return sm2c_op_error(c, n, SM2C_ERR_UNSUPPORTED, "data-dependent shape reaches %s (input %d)",
                                 n->op->name, (int)i);
    int v = nms_version(n);
    sm2c_op_set(c, n, 0, SM2C_DT_INT32, 1, &bound);
    if (v == 5)
        sm2c_op_set(c, n, 1, SM2C_DT_FLOAT, 1, &bound);
    if (v >= 4)
        sm2c_op_set(c, n, n->n_outputs - 1, SM2C_DT_INT32, 0, NULL);
    for (int32_t k = 0; dynamic && k < (v == 5 ? 2 : 1); k++) {
        n->outputs[k]->dyn = n->outputs[0];
        n->outputs[k]->dyn_dim = 0;
    }
    return SM2C_OK;
}

sm2c_status lower_nms(sm2c_lower *l, const sm2c_node *n)
{
    int64_t bound;
    int dynamic, v = nms_version(n);
    sm2c_status st = nms_bound(l->c, n, &bound, &dynamic);
    if (st)
        return st;
    int64_t nb = n->inputs[0]->shape.dims[0];
    sm2c_shape sn = { 1, &nb };
    sm2c_step *s = sm2c_lower_step(l, n, "sm2c_rt_nms_f32", 14);
    s->checked = 1;
    for (int32_t i = 0; i < 4; i++)
        s->args[i] = sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[i]));
    s->args[4] = v >= 3 ? sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[4])) : sm2c_arg_null();
    s->args[5] = v == 5 ? sm2c_arg_buf(sm2c_lower_buf(l, n->inputs[5])) : sm2c_arg_null();
    s->args[6] = sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[0]));
    s->args[7] = v == 5 ? sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[1])) : sm2c_arg_null();
    s->args[8] = v >= 4 ? sm2c_arg_buf(sm2c_lower_buf(l, n->outputs[n->n_outputs - 1])) : sm2c_arg_null();
    s->args[9] = dynamic ? sm2c_arg_buf(sm2c_lower_count(l, n->outputs[0])) : sm2c_arg_null();
    s->args[10] = sm2c_arg_buf(sm2c_lower_scratch(l, SM2C_DT_FLOAT, &sn, "nms scores"));
    s->args[11] = sm2c_arg_buf(sm2c_lower_scratch(l, SM2C_DT_INT32, &sn, "nms candidates"));
    s->args[12] = sm2c_arg_int(nb);
    s->args[13] = sm2c_arg_int(bound);
    return SM2C_OK;
}
