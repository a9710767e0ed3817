/*
** test_file_race.c: docs/reliability.md F3, a file that changes size while sm2c
** reads it.  Linked with -Wl,--wrap=pread, so the library's first pread of
** saved_model.pb first grows or shrinks the file: deterministic, no timing.
*/
#include "sm2c_test.h"
#include "test_fs.h"

#include <fcntl.h>
#include <unistd.h>

#include "load/savedmodel.h"

#define MODEL SM2C_TEST_DATA "/data/models/tf2_module/saved_model.pb"

ssize_t __real_pread(int fd, void *buf, size_t count, off_t offset);
ssize_t __wrap_pread(int fd, void *buf, size_t count, off_t offset);

static const char *race_path;   /* the file to change before the next pread */
static off_t race_size;         /* its new size */

ssize_t __wrap_pread(int fd, void *buf, size_t count, off_t offset)
{
    if (race_path) {
        if (truncate(race_path, race_size) != 0)
            abort();
        race_path = NULL;
    }
    return __real_pread(fd, buf, count, offset);
}

/* A model directory holding only a copy of tf2_module's saved_model.pb. */
static char *model_copy(size_t *len)
{
    unsigned char *pb = fs_read(MODEL, len);
    char *dir = fs_tmpdir();
    fs_write(dir, "saved_model.pb", pb, *len);
    free(pb);
    return dir;
}

static void load_while_resized(off_t delta, const char *needle)
{
    size_t len;
    char *dir = model_copy(&len);
    char *pb = fs_path(dir, "saved_model.pb");
    test_ctx *t = test_ctx_new();
    sm2c_model *m = NULL;
    race_path = pb;
    race_size = (off_t)len + delta;
    assert_int_equal(sm2c_model_load(&t->ctx, dir, NULL, &m), SM2C_ERR_INVALID);
    assert_null(race_path);
    assert_error_contains(t, "saved_model.pb");
    assert_error_contains(t, needle);
    assert_null(strchr(t->diag.first, '\n'));
    sm2c_model_close(m);
    test_ctx_free(t);
    free(pb);
    fs_rm_rf(dir);
}

static void grows_while_read(void **state)
{
    (void)state;
    load_while_resized(100, "changed size while being read");
}

static void shrinks_while_read(void **state)
{
    (void)state;
    load_while_resized(-100, "truncated: wanted");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grows_while_read),
        cmocka_unit_test(shrinks_while_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
