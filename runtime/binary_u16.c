/* binary_u16.c: broadcasting binary ops on uint16, wrapping (binary_impl.h). */
#include "binary_impl.h"

SM2C_RT__UINT_OPS(uint16_t, u16)
SM2C_RT__BINARY_COMMON(uint16_t, u16)
