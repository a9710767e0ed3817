/*
** str_impl.h: private to the runtime.  Equality of two sm2c_strings as
** TensorFlow compares tstrings: the same length and the same bytes (an
** empty string may have no data pointer).
*/
#ifndef SM2C_RT_STR_IMPL_H
#define SM2C_RT_STR_IMPL_H

#include <string.h>

#include "sm2c_rt.h"

static inline uint8_t sm2c_rt__str_eq(sm2c_string a, sm2c_string b)
{
    return (uint8_t)(a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, (size_t)a.len) == 0));
}

#endif
