/* binary_u64.c: broadcasting binary ops on uint64, wrapping (binary_impl.h). */
#include "binary_impl.h"

SM2C_RT__UINT_OPS(uint64_t, u64)
SM2C_RT__BINARY_COMMON(uint64_t, u64)
