/*
** reduce_extremum_int.c: Max and Min of int32 and int64 over the middle axis
** of [outer, reduce, inner]; reduce == 0 gives the type's lowest (Max) or
** highest (Min) value, as TensorFlow (the column reduction of reduce_col.h).
*/
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"
#include "rt_select.h"
#include "reduce_col.h"

SM2C_RT__REDUCE_COL(max, int32_t, i32, INT32_MIN, v > a ? v : a)
SM2C_RT__REDUCE_COL(min, int32_t, i32, INT32_MAX, v < a ? v : a)
SM2C_RT__REDUCE_COL(max, int64_t, i64, INT64_MIN, v > a ? v : a)
SM2C_RT__REDUCE_COL(min, int64_t, i64, INT64_MAX, v < a ? v : a)
