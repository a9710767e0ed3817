/*
** fuzz_sstable.c (docs/reliability.md section 8, target 9): raw bytes as
** variables.index -> every block and every entry (CRCs, Snappy, restarts,
** prefix-compressed keys).
** Oracle: no out-of-bounds access; iteration terminates; on success the keys
** come out strictly increasing and every value is readable.
*/
#include "fuzz_common.h"
#include "load/sstable.h"

static int key_cmp(const sm2c_sstable_entry *a, const sm2c_sstable_entry *b)
{
    size_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
    int r = memcmp(a->key, b->key, n);
    return r ? r : (a->key_len > b->key_len) - (a->key_len < b->key_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_ctx f;
    fuzz_begin(&f);
    sm2c_sstable_entry *v;
    size_t n;
    sm2c_status st = sm2c_sstable_read(&f.c, "variables.index", data, size, &v, &n);
    unsigned sum = 0;
    for (size_t i = 0; !st && i < n; i++) {
        FUZZ_CHECK(i == 0 || key_cmp(&v[i - 1], &v[i]) < 0, "keys not increasing at entry %zu", i);
        for (size_t k = 0; k < v[i].value_len; k++)   /* ASan checks every byte is ours */
            sum += v[i].value[k];
        FUZZ_CHECK(v[i].key[v[i].key_len] == 0, "key %zu is not NUL-terminated", i);
    }
    (void)sum;
    fuzz_end(&f, st);
    return 0;
}
