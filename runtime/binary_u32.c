/* binary_u32.c: broadcasting binary ops on uint32, wrapping (binary_impl.h). */
#include "binary_impl.h"

SM2C_RT__UINT_OPS(uint32_t, u32)
SM2C_RT__BINARY_COMMON(uint32_t, u32)
