/*
** fuzz_checkpoint_pair.c (docs/reliability.md section 8, target 10, after TF's
** load_checkpoint_fuzz): a u32 length prefix splits the input into
** variables.index and variables.data-00000-of-00001, written to a private
** temporary directory; the bundle is opened and every entry read.
** Oracle: all entries read or rejected cleanly; a tensor read has exactly
** elements x element-size bytes (or one string per element).
*/
#include <fcntl.h>
#include <unistd.h>

#include "load/bundle.h"
#include "fuzz_common.h"

static void check_tensor(const fuzz_ctx *f, const sm2c_bundle_entry *e, const sm2c_tensor *t)
{
    int64_t n = sm2c_shape_elements(&t->shape, f->limits.elements);
    FUZZ_CHECK(n >= 0 && n == t->nelem, "'%s': nelem %lld for shape of %lld elements", e->key,
               (long long)t->nelem, (long long)n);
    size_t es = sm2c_dtype_size(t->dtype);
    if (t->dtype == SM2C_DT_STRING)
        FUZZ_CHECK(n == 0 || t->strings, "'%s': no strings", e->key);
    else if (es)
        FUZZ_CHECK(t->nbytes == (size_t)n * es, "'%s': %zu bytes for %lld x %zu", e->key,
                   t->nbytes, (long long)n, es);
    unsigned sum = 0;
    for (size_t i = 0; es && i < t->nbytes; i++)
        sum += ((const uint8_t *)t->data)[i];
    for (int64_t i = 0; t->dtype == SM2C_DT_STRING && i < n; i++)
        for (size_t k = 0; k < t->strings[i].len; k++)
            sum += t->strings[i].data[k];
    (void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *index, *shard;
    size_t n_index, n_shard;
    fuzz_split(data, size, &index, &n_index, &shard, &n_shard);
    char *dir = fuzz_tmpdir();
    fuzz_write(dir, "variables/variables.index", index, n_index);
    fuzz_write(dir, "variables/variables.data-00000-of-00001", shard, n_shard);
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    FUZZ_CHECK(dirfd >= 0, "cannot open %s", dir);

    fuzz_ctx f;
    fuzz_begin(&f);
    sm2c_bundle *b;
    sm2c_status st = sm2c_bundle_open(&f.c, dirfd, "model", &b);
    for (size_t i = 0; !st && b->present && i < b->n_entries; i++) {
        sm2c_tensor t;
        sm2c_status rs = sm2c_bundle_read(&f.c, b, &b->entries[i], &t);
        fuzz_check_status(&f, rs);
        if (!rs)
            check_tensor(&f, &b->entries[i], &t);
    }
    sm2c_bundle_close(b);
    fuzz_end(&f, st);
    close(dirfd);
    fuzz_rmtree(dir);
    free(dir);
    return 0;
}
