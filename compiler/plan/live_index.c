/*
** live_index.c: lifetimes by first step in a max-tree of their last steps: a
** query walks down only into subtrees holding a lifetime that reaches the
** range, so it costs about (found + 1) * log(steps), not one look per
** lifetime added (which made planning quadratic in an entry's buffers).
*/
#include "live_index.h"

#include <stdlib.h>

struct sm2c_live_index {
    int32_t size;        /* leaves: a power of two > max_step */
    int32_t *max_last;   /* tree of 2*size: the latest last step below */
    int32_t *head;       /* per first step: the last id added there, or -1 */
    int32_t *next, *last;
};

sm2c_live_index *sm2c_live_index_new(sm2c_arena *a, int32_t max_step, int32_t cap)
{
    sm2c_live_index *x = sm2c_arena_alloc(a, sizeof *x);
    x->size = 1;
    while (x->size <= max_step)
        x->size *= 2;
    x->max_last = sm2c_arena_array(a, (size_t)x->size * 2, sizeof *x->max_last);
    x->head = sm2c_arena_array(a, (size_t)x->size, sizeof *x->head);
    for (int32_t i = 0; i < 2 * x->size; i++)
        x->max_last[i] = -1;
    for (int32_t i = 0; i < x->size; i++)
        x->head[i] = -1;
    x->next = sm2c_arena_array(a, (size_t)cap + 1, sizeof *x->next);
    x->last = sm2c_arena_array(a, (size_t)cap + 1, sizeof *x->last);
    return x;
}

void sm2c_live_index_add(sm2c_live_index *x, int32_t id, int32_t first, int32_t last)
{
    x->next[id] = x->head[first];
    x->last[id] = last;
    x->head[first] = id;
    for (int32_t t = first + x->size; t >= 1 && x->max_last[t] < last; t /= 2)
        x->max_last[t] = last;
}

static int cmp_id(const void *p, const void *q)
{
    int32_t a = *(const int32_t *)p, b = *(const int32_t *)q;
    return (a > b) - (a < b);
}

int32_t sm2c_live_index_find(const sm2c_live_index *x, int32_t a, int32_t b, int32_t *out)
{
    /* Lifetimes meeting [a, b]: first <= b and last >= a.  An explicit stack
    ** of tree nodes (at most one per level and side: 2 * 32 entries). */
    int32_t stack[2 * 34], top = 0, n = 0;
    int32_t lo_of[2 * 34], hi_of[2 * 34];
    stack[top] = 1, lo_of[top] = 0, hi_of[top] = x->size - 1, top++;
    while (top) {
        top--;
        int32_t t = stack[top], lo = lo_of[top], hi = hi_of[top];
        if (lo > b || x->max_last[t] < a)
            continue;
        if (lo == hi) {
            for (int32_t id = x->head[lo]; id >= 0; id = x->next[id])
                if (x->last[id] >= a)
                    out[n++] = id;
            continue;
        }
        int32_t mid = lo + (hi - lo) / 2;
        stack[top] = 2 * t + 1, lo_of[top] = mid + 1, hi_of[top] = hi, top++;
        stack[top] = 2 * t, lo_of[top] = lo, hi_of[top] = mid, top++;
    }
    qsort(out, (size_t)n, sizeof *out, cmp_id);
    return n;
}
