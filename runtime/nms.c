/*
** nms.c: NonMaxSuppression V2 to V5 (greedy, and soft with sigma > 0), as
** TensorFlow's non_max_suppression_op.cc computes it: candidates are the boxes
** scoring above score_threshold; the next one is the highest score (the lowest
** box index among equal scores); it is compared with the boxes selected since
** it was last compared, newest first; IOU above iou_threshold drops it (greedy),
** soft NMS scales its score by exp(-0.5 * iou^2 / sigma) and puts it back while
** it stays above the threshold.  At most min(max_output_size, bound) are
** selected; the rest of the outputs are zero.  Scratch: cand_score and
** cand_begin, n entries each (cand_begin -1 for a box that is no candidate).
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"

/* std::max and std::min, which Eigen's maxi and mini are (NaN order kept). */
static float fmax_std(float a, float b)
{
    return a < b ? b : a;
}

static float fmin_std(float a, float b)
{
    return b < a ? b : a;
}

static float iou(const float *boxes, int32_t i, int32_t j)
{
    const float *a = boxes + (size_t)i * 4, *b = boxes + (size_t)j * 4;
    const float ymin_i = fmin_std(a[0], a[2]), xmin_i = fmin_std(a[1], a[3]);
    const float ymax_i = fmax_std(a[0], a[2]), xmax_i = fmax_std(a[1], a[3]);
    const float ymin_j = fmin_std(b[0], b[2]), xmin_j = fmin_std(b[1], b[3]);
    const float ymax_j = fmax_std(b[0], b[2]), xmax_j = fmax_std(b[1], b[3]);
    const float area_i = (ymax_i - ymin_i) * (xmax_i - xmin_i);
    const float area_j = (ymax_j - ymin_j) * (xmax_j - xmin_j);
    float inter;
    if (area_i <= 0 || area_j <= 0)
        return 0.0f;
    inter = fmax_std(fmin_std(ymax_i, ymax_j) - fmax_std(ymin_i, ymin_j), 0.0f) *
            fmax_std(fmin_std(xmax_i, xmax_j) - fmax_std(xmin_i, xmin_j), 0.0f);
    return inter / (area_i + area_j - inter);
}

int32_t sm2c_rt_nms_f32(const float *boxes, const float *scores, const int32_t *max_output_size,
                        const float *iou_threshold, const float *score_threshold, const float *soft_nms_sigma,
                        int32_t *selected, float *selected_scores, int32_t *valid, int64_t *count,
                        float *cand_score, int32_t *cand_begin, int32_t n, int32_t bound)
{
    const float thr = score_threshold ? *score_threshold : -INFINITY;
    const float iou_thr = *iou_threshold;
    const float sigma = soft_nms_sigma ? *soft_nms_sigma : 0.0f;
    const int soft = sigma > 0.0f;
    const float scale = soft ? -0.5f / sigma : 0.0f;
    int32_t limit = *max_output_size, k = 0, i, j;
    if (limit < 0 || !(iou_thr >= 0.0f && iou_thr <= 1.0f) || !(sigma >= 0.0f))
        return SM2C_RT_ERR_VALUE;
    if (limit > bound)
        limit = bound;
    for (i = 0; i < n; i++) {
        cand_begin[i] = scores[i] > thr ? 0 : -1;
        cand_score[i] = scores[i];
    }
    while (k < limit) {
        int32_t best = -1, begin;
        int hard = 0;
        float s, orig;
        for (i = 0; i < n; i++)
            if (cand_begin[i] >= 0 && (best < 0 || cand_score[i] > cand_score[best]))
                best = i;
        if (best < 0)
            break;
        s = orig = cand_score[best];
        begin = cand_begin[best];
        cand_begin[best] = -1;
        for (j = k - 1; j >= begin; j--) {
            const float sim = iou(boxes, best, selected[j]);
            const float weight = expf(scale * sim * sim);
            s *= soft || sim <= iou_thr ? weight : 0.0f;
            if (!soft && sim > iou_thr) {
                hard = 1;
                break;
            }
            if (s <= thr)
                break;
        }
        if (hard)
            continue;
        if (s == orig) {
            selected[k] = best;
            if (selected_scores)
                selected_scores[k] = s;
            k++;
        } else if (s > thr) {
            cand_score[best] = s;
            cand_begin[best] = k;
        }
    }
    if (valid)
        *valid = k;
    if (count)
        *count = k;
    for (i = k; i < bound; i++) {
        selected[i] = 0;
        if (selected_scores)
            selected_scores[i] = 0.0f;
    }
    return SM2C_RT_OK;
}
