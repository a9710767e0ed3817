/*
** json.h: a small streaming JSON writer (pretty-printed, deterministic).
** Strings are escaped; bytes that are not valid UTF-8 become \u00XX so the
** output is always valid JSON.  Non-finite numbers are written as strings.
*/
#ifndef SM2C_JSON_H
#define SM2C_JSON_H

#include <stdint.h>
#include <stdio.h>

#define SM2C_JSON_MAX_DEPTH 32

typedef struct sm2c_json {
    FILE *f;
    int depth;
    int count[SM2C_JSON_MAX_DEPTH];  /* items written at each level */
    char close[SM2C_JSON_MAX_DEPTH]; /* '}' or ']' for each open level */
    int after_key;
} sm2c_json;

void sm2c_json_init(sm2c_json *j, FILE *f);
void sm2c_json_object(sm2c_json *j);
void sm2c_json_array(sm2c_json *j);
void sm2c_json_end(sm2c_json *j);     /* closes the innermost object or array */
void sm2c_json_key(sm2c_json *j, const char *key);
void sm2c_json_str(sm2c_json *j, const char *s);
void sm2c_json_strn(sm2c_json *j, const char *s, size_t n);
void sm2c_json_int(sm2c_json *j, int64_t v);
void sm2c_json_uint(sm2c_json *j, uint64_t v);
void sm2c_json_double(sm2c_json *j, double v, int significant_digits);
void sm2c_json_bool(sm2c_json *j, int v);
void sm2c_json_null(sm2c_json *j);
/* Raw, already-valid JSON text. */
void sm2c_json_raw(sm2c_json *j, const char *text);

/* A key and its value in one call. */
void sm2c_json_field_str(sm2c_json *j, const char *key, const char *s);
void sm2c_json_field_int(sm2c_json *j, const char *key, int64_t v);
void sm2c_json_field_uint(sm2c_json *j, const char *key, uint64_t v);
void sm2c_json_field_bool(sm2c_json *j, const char *key, int v);

#endif
