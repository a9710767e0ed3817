/*
** compare_str.c: Equal and NotEqual of string tensors (sm2c_string
** elements), broadcasting (binary_impl.h): equal when the lengths and the
** bytes are, as TensorFlow compares tstrings.  Results are bool as uint8_t 0/1.
*/
#include <string.h>

#include "binary_impl.h"
#include "rt_select.h"
#include "str_impl.h"

static inline uint8_t sm2c_rt__equal_str(sm2c_string a, sm2c_string b) { return sm2c_rt__str_eq(a, b); }
static inline uint8_t sm2c_rt__not_equal_str(sm2c_string a, sm2c_string b) { return (uint8_t)!sm2c_rt__str_eq(a, b); }
SM2C_RT__BINARY_KERNEL_TO(equal, sm2c_string, uint8_t, str, sm2c_rt__equal_str)
SM2C_RT__BINARY_KERNEL_TO(not_equal, sm2c_string, uint8_t, str, sm2c_rt__not_equal_str)
