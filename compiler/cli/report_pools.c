/*
** report_pools.c: --report's account of --fast-arena: each pool's size and
** which arena buffer went to which, with the traffic per byte the plan chose
** by (plan/fast_pool.h).  Nothing without a fast arena, so that the default
** report is what it was.
*/
#include "report.h"

#include "plan/fast_pool.h"

/* "fast arena E: N bytes of LIMIT, arena A bytes", then per used arena buffer
** "pool E tID fast|arena offset O, B bytes, traffic/byte T: NAME". */
void sm2c_report_pools_text(FILE *f, sm2c_arena *a, const sm2c_program *p, const sm2c_entry *e)
{
    if (p->placement.fast_arena <= 0)
        return;
    fprintf(f, "fast arena %s: %lld bytes of %lld, arena %lld bytes\n", e->key, (long long)e->fast_arena_bytes,
            (long long)p->placement.fast_arena, (long long)e->arena_bytes);
    double *score = sm2c_arena_array(a, (size_t)e->n_buffers + 1, sizeof *score);
    sm2c_fast_pool_scores(e, score);
    sm2c_entry_costs c;
    sm2c_entry_costs_compute(a, e, NULL, &c);
    for (int32_t b = 0; b < e->n_buffers; b++) {
        const sm2c_buffer *bf = &e->buffers[b];
        if (bf->kind != SM2C_BUF_ARENA || c.first[b] < 0)
            continue;
        fprintf(f, "pool %s t%d %s offset %lld, %lld bytes, traffic/byte %.4g: %s\n", e->key, (int)b,
                bf->fast ? "fast" : "arena", (long long)bf->offset, (long long)bf->nbytes, score[b],
                bf->name ? bf->name : "");
    }
}

/* Per buffer, with a fast arena: "pool" and "traffic_per_byte". */
void sm2c_report_pools_buffer_json(sm2c_json *j, const sm2c_program *p, const sm2c_entry *e, int32_t b,
                                   const double *score)
{
    if (p->placement.fast_arena <= 0)
        return;
    sm2c_json_key(j, "pool");
    if (e->buffers[b].kind == SM2C_BUF_ARENA)
        sm2c_json_str(j, e->buffers[b].fast ? "fast" : "arena");
    else
        sm2c_json_null(j);
    sm2c_json_key(j, "traffic_per_byte");
    sm2c_json_double(j, score[b], 6);
}
