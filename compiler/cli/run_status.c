/*
** run_status.c: the words for the runtime's status codes and the driver's
** exit statuses (its own failures are 2; its calls disagreeing, 3).
*/
#include "run_status.h"

#include "base/arena.h"

const char *sm2c_rt_status_words(int rc)
{
    switch (rc) {
    case -1: return "an index input is out of range";
    case -2: return "an input value has no defined result (integer division by zero)";
    case -3: return "the batch is below 1 or above --max-batch";
    case -4: return "a loop ran more times than its compile-time cap (--limit loop-iterations)";
    case -5: return "CheckNumerics found a NaN or an infinity";
    case -6: return "an Assert's condition was false";
    case -7: return "a serialized tf.Example is malformed, lacks a required feature, or has one of the "
                    "wrong kind or count";
    case -8: return "a string is longer than a text op's bound (--limit string-bytes)";
    default: return "an unknown error code";
    }
}

const char *sm2c_run_status_words(sm2c_arena *a, int status)
{
    if (status > SM2C_RUN_EXIT_RC && status < SM2C_RUN_EXIT_RC + 64)
        return sm2c_arena_printf(a, "the generated entry returned %d (%s)", SM2C_RUN_EXIT_RC - status,
                                 sm2c_rt_status_words(SM2C_RUN_EXIT_RC - status));
    if (status > 128)
        return sm2c_arena_printf(a, "the generated code crashed (signal %d)", status - 128);
    if (status == 2)
        return "the generated code's driver could not read its inputs or write its outputs";
    if (status == 3)
        return "the generated code's calls disagree (see above)";
    return sm2c_arena_printf(a, "the generated code failed (exit status %d)", status);
}
