/*
** glob.h: shell-style name patterns (--quantize-skip): '*' any run of
** characters ('/' included: TensorFlow names nest with it), '?' any one.
*/
#ifndef SM2C_GLOB_H
#define SM2C_GLOB_H

/* 1 when `pattern` matches all of `s`. */
int sm2c_glob_match(const char *pattern, const char *s);

#endif
