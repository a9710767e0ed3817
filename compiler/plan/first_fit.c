/*
** first_fit.c: placing a buffer among those placed before it.  Only the
** placed buffers whose lifetimes overlap its own can move it, so only those
** (in placing order, from the live index) are looked at.
*/
#include "first_fit.h"

#include "live_index.h"

struct sm2c_first_fit {
    sm2c_live_index *live;
    int32_t n;
    int32_t *first, *last, *near;
    int64_t *size, *off;
    int64_t end;
};

sm2c_first_fit *sm2c_first_fit_new(sm2c_arena *a, int32_t max_step, int32_t cap)
{
    sm2c_first_fit *f = sm2c_arena_alloc(a, sizeof *f);
    f->live = sm2c_live_index_new(a, max_step, cap);
    f->first = sm2c_arena_array(a, (size_t)cap + 1, sizeof *f->first);
    f->last = sm2c_arena_array(a, (size_t)cap + 1, sizeof *f->last);
    f->near = sm2c_arena_array(a, (size_t)cap + 1, sizeof *f->near);
    f->size = sm2c_arena_array(a, (size_t)cap + 1, sizeof *f->size);
    f->off = sm2c_arena_array(a, (size_t)cap + 1, sizeof *f->off);
    return f;
}

static int overlaps(int64_t a_off, int64_t a_size, int64_t b_off, int64_t b_size)
{
    return a_off < b_off + b_size && b_off < a_off + a_size;
}

int64_t sm2c_first_fit_offset(sm2c_first_fit *f, int32_t first, int32_t last, int64_t size)
{
    int32_t k = sm2c_live_index_find(f->live, first, last, f->near);
    int64_t off = 0;
    for (int moved = 1; moved;) {
        moved = 0;
        for (int32_t j = 0; j < k; j++) {
            int32_t i = f->near[j];
            if (overlaps(off, size, f->off[i], f->size[i])) {
                off = f->off[i] + f->size[i];
                moved = 1;
            }
        }
    }
    return off;
}

void sm2c_first_fit_add(sm2c_first_fit *f, int32_t first, int32_t last, int64_t size, int64_t off)
{
    int32_t i = f->n++;
    f->first[i] = first, f->last[i] = last, f->size[i] = size, f->off[i] = off;
    sm2c_live_index_add(f->live, i, first, last);
    if (off + size > f->end)
        f->end = off + size;
}

int64_t sm2c_first_fit_end(const sm2c_first_fit *f)
{
    return f->end;
}
