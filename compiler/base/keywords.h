/*
** keywords.h: the one list of names a generated identifier may not take.
*/
#ifndef SM2C_KEYWORDS_H
#define SM2C_KEYWORDS_H

/* 1 for a keyword of C (C89 to C23, with C23's lowercase spellings) or of
** C++ (to C++20, alternative tokens included): generated headers are read by
** both, inside extern "C". */
int sm2c_is_keyword(const char *s);

#endif
