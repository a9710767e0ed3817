/* binary_u8.c: broadcasting binary ops on uint8, wrapping (binary_impl.h). */
#include "binary_impl.h"

SM2C_RT__UINT_OPS(uint8_t, u8)
SM2C_RT__BINARY_COMMON(uint8_t, u8)
