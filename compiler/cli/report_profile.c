/*
** report_profile.c: the measured side of a report (sm2c run --profile): per
** step its median time, its share of the entry's total and its GFLOP/s
** (two floating-point operations per multiply-accumulate), in program order.
** With --max-batch the steps compute one row and run once per row: a step's
** time is the sum over the call's rows, and its work its MACs times the rows.
*/
#include "cli/report.h"

void sm2c_report_profile_text(FILE *f, sm2c_arena *a, const sm2c_entry *e, const double *step_us, int64_t calls,
                              int32_t rows)
{
    if (!step_us)
        return;
    sm2c_entry_costs c;
    sm2c_entry_costs_compute(a, e, step_us, &c);
    double total = c.time_us > 0 ? c.time_us : 0, r = rows > 1 ? rows : 1;
    fprintf(f, "profile %s: %d steps, median of %lld calls each%s, total %.3f us, %.3f GFLOP/s\n", e->key,
            (int)e->n_steps, (long long)calls,
            rows > 1 ? sm2c_arena_printf(a, " of %d rows (the times are their sums)", (int)rows) : "", total,
            total > 0 ? 2e-3 * (double)c.macs * r / total : 0.0);
    fprintf(f, "%5s %12s %7s %9s  %-28s %s\n", "step", "time_us", "share", "GFLOP/s", "kernel", "node");
    for (int32_t i = 0; i < e->n_steps; i++) {
        const sm2c_step *s = &e->steps[i];
        double us = c.steps[i].time_us;
        if (s->control || us < 0)
            continue;
        char gflops[32] = "-";
        if (c.steps[i].macs > 0 && us > 0)
            snprintf(gflops, sizeof gflops, "%.3f", 2e-3 * (double)c.steps[i].macs * r / us);
        fprintf(f, "%5d %12.3f %6.1f%% %9s  %-28s %s\n", (int)i, us, total > 0 ? 100.0 * us / total : 0.0, gflops,
                s->kernel, sm2c_step_value_node(s));
    }
}
