/* binary_i16.c: broadcasting binary ops on int16, wrapping (binary_impl.h). */
#include "binary_impl.h"

SM2C_RT__INT_OPS(int16_t, uint16_t, INT16_MAX, i16)
SM2C_RT__BINARY_COMMON(int16_t, i16)
