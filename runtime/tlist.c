/*
** tlist.c: TensorList kernels.  A list is a buffer of max_len elements of
** item_bytes each plus an int32 length (compiler/tlist.c lowers the list ops
** to these).  Indices and lengths come from run-time data: each is checked
** before anything is read or written (reliability.md section 6, rule 4).
*/
#include <string.h>

#include "sm2c_rt.h"
#include "rt_select.h"

static inline void copy_list(void *out, const void *data, int32_t data_bytes)
{
    if (out != data)
        memcpy(out, data, (size_t)data_bytes);
}

#if SM2C_RT_WANT(list_get)
int32_t sm2c_rt_list_get(void *item, const void *data, const int32_t *len, const int32_t *index,
                         int32_t item_bytes)
{
    if (*index < 0 || *index >= *len)
        return SM2C_RT_ERR_INDEX;
    memcpy(item, (const unsigned char *)data + (size_t)*index * (size_t)item_bytes, (size_t)item_bytes);
    return SM2C_RT_OK;
}
#endif

#if SM2C_RT_WANT(list_set)
int32_t sm2c_rt_list_set(void *out, const void *data, const int32_t *len, const int32_t *index,
                         const void *item, int32_t item_bytes, int32_t data_bytes)
{
    if (*index < 0 || *index >= *len)
        return SM2C_RT_ERR_INDEX;
    copy_list(out, data, data_bytes);
    memcpy((unsigned char *)out + (size_t)*index * (size_t)item_bytes, item, (size_t)item_bytes);
    return SM2C_RT_OK;
}
#endif

#if SM2C_RT_WANT(list_push)
int32_t sm2c_rt_list_push(void *out, int32_t *out_len, const void *data, const int32_t *len,
                          const void *item, int32_t item_bytes, int32_t max_len)
{
    int32_t n = *len;
    if (n < 0 || n >= max_len)
        return SM2C_RT_ERR_INDEX;
    copy_list(out, data, item_bytes * max_len);
    memcpy((unsigned char *)out + (size_t)n * (size_t)item_bytes, item, (size_t)item_bytes);
    *out_len = n + 1;
    return SM2C_RT_OK;
}
#endif

#if SM2C_RT_WANT(list_set_grow)
int32_t sm2c_rt_list_set_grow(void *out, int32_t *out_len, const void *data, const int32_t *len,
                              const int32_t *index, const void *item, int32_t item_bytes, int32_t max_len)
{
    int32_t n = *len, i = *index;
    if (i < 0 || i >= max_len || n < 0 || n > max_len)
        return SM2C_RT_ERR_INDEX;
    copy_list(out, data, item_bytes * max_len);
    unsigned char *o = out;
    if (i > n)
        memset(o + (size_t)n * (size_t)item_bytes, 0, (size_t)(i - n) * (size_t)item_bytes);
    memcpy(o + (size_t)i * (size_t)item_bytes, item, (size_t)item_bytes);
    *out_len = i >= n ? i + 1 : n;
    return SM2C_RT_OK;
}
#endif

#if SM2C_RT_WANT(list_pop)
int32_t sm2c_rt_list_pop(void *item, int32_t *out_len, const void *data, const int32_t *len,
                         int32_t item_bytes)
{
    int32_t n = *len;
    if (n <= 0)
        return SM2C_RT_ERR_INDEX;
    memcpy(item, (const unsigned char *)data + (size_t)(n - 1) * (size_t)item_bytes, (size_t)item_bytes);
    *out_len = n - 1;
    return SM2C_RT_OK;
}
#endif

#if SM2C_RT_WANT(list_stack)
int32_t sm2c_rt_list_stack(void *y, const void *data, const int32_t *len, int32_t max_len,
                           int32_t data_bytes)
{
    if (*len != max_len)
        return SM2C_RT_ERR_VALUE;
    copy_list(y, data, data_bytes);
    return SM2C_RT_OK;
}
#endif
