/*
** unicode_lower.h: StringLower's tables for encoding "utf-8" (unicode_lower.c,
** written by scripts/gen_unicode_lower.py from the pinned TensorFlow's own
** results), which ops_text.c passes to runtime/string_lower_utf8.c; a program
** holds them only when a model lowers UTF-8 text.
*/
#ifndef SM2C_UNICODE_LOWER_H
#define SM2C_UNICODE_LOWER_H

#include <stdint.h>

/* runs (first, last, delta, stride), flattened: sm2c_unicode_lower_map_len ints */
extern const int32_t sm2c_unicode_lower_map[];
extern const int32_t sm2c_unicode_lower_map_len;
/* ranges (first, last), flattened */
extern const int32_t sm2c_unicode_cased[];
extern const int32_t sm2c_unicode_cased_len;
extern const int32_t sm2c_unicode_case_ignorable[];
extern const int32_t sm2c_unicode_case_ignorable_len;

#endif
