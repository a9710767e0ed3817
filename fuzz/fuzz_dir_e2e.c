/*
** fuzz_dir_e2e.c (docs/reliability.md section 8, target 17): the whole compiler on
** a directory.  The input is an archive of records [file id: 1 byte][length:
** u32 LE][bytes]; the id picks one of the file names a SavedModel directory
** has (the harness never writes a name taken from the input).  The files are
** unpacked into a private temporary directory, which is compiled to C twice,
** into two output directories beside it.
** Oracle: nothing is written outside the output directory (the input tree is
** unchanged and nothing else appears); a failed compile leaves no output; two
** compiles give byte-identical files.
*/
#include <dirent.h>
#include <sys/stat.h>

#include "codegen/emit_c.h"
#include "fuzz_common.h"
#include "driver/pipeline.h"
#include "load/savedmodel.h"

static const char *const files[] = {
    "saved_model.pb", "variables/variables.index", "variables/variables.data-00000-of-00001",
    "saved_model.pbtxt", "variables/variables.data-00000-of-00002",
    "variables/variables.data-00001-of-00002", "assets/vocab.txt", "fingerprint.pb",
};

/* "path size hash\n" for every file under dir, sorted: what the tree holds. */
typedef struct snapshot {
    char *text;
    size_t len;
} snapshot;

static void snap_add(snapshot *s, const char *line)
{
    size_t n = strlen(line);
    s->text = realloc(s->text, s->len + n + 1);
    FUZZ_CHECK(s->text, "out of memory");
    memcpy(s->text + s->len, line, n + 1);
    s->len += n;
}

static uint64_t file_hash(const char *path, long long *size)
{
    FILE *f = fopen(path, "rb");
    uint64_t h = 1469598103934665603u;
    *size = 0;
    for (int ch; f && (ch = fgetc(f)) != EOF; ++*size)
        h = (h ^ (uint64_t)ch) * 1099511628211u;
    if (f)
        fclose(f);
    return h;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void snap_dir(snapshot *s, const char *root, const char *rel)
{
    char path[8400];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    DIR *d = opendir(path);
    if (!d)
        return;
    char *names[256];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n; i++) {
        char sub[4096], line[4200];
        snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", names[i]);
        snprintf(path, sizeof path, "%s/%s", root, sub);
        struct stat sb;
        lstat(path, &sb);
        if (S_ISDIR(sb.st_mode)) {
            snprintf(line, sizeof line, "%s/\n", sub);
            snap_add(s, line);
            snap_dir(s, root, sub);
        } else {
            long long size;
            uint64_t h = file_hash(path, &size);
            snprintf(line, sizeof line, "%s %o %lld %016llx\n", sub, (unsigned)sb.st_mode, size,
                     (unsigned long long)h);
            snap_add(s, line);
        }
        free(names[i]);
    }
}

static snapshot snap(const char *root, const char *rel)
{
    snapshot s = { NULL, 0 };
    snap_add(&s, "");
    snap_dir(&s, root, rel);
    return s;
}

static void unpack(const char *dir, const uint8_t *data, size_t size)
{
    while (size >= 5) {
        const char *name = files[data[0] % (sizeof files / sizeof *files)];
        size_t len = fuzz_u32(data + 1);
        data += 5, size -= 5;
        if (len > size)
            len = size;
        fuzz_write(dir, name, data, len);
        data += len, size -= len;
    }
}

/* Load and compile `in`, emit C into `out`. */
static sm2c_status compile(const char *in, const char *out)
{
    fuzz_ctx f;
    fuzz_begin(&f);
    sm2c_model *m;
    sm2c_program *p;
    sm2c_compile_opts o = { .name = "model" };
    sm2c_status st = sm2c_model_load(&f.c, in, NULL, &m);
    if (!st)
        st = sm2c_compile_program(&f.c, m, &o, &p);
    if (!st)
        st = sm2c_emit_c(&f.c, p, out);
    sm2c_model_close(m);
    fuzz_end(&f, st);
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *root = fuzz_tmpdir();
    char in[4200], out1[4200], out2[4200];
    snprintf(in, sizeof in, "%s/model", root);
    snprintf(out1, sizeof out1, "%s/out1", root);
    snprintf(out2, sizeof out2, "%s/out2", root);
    FUZZ_CHECK(mkdir(in, 0755) == 0, "mkdir %s", in);
    unpack(in, data, size);
    snapshot before = snap(root, "");

    sm2c_status st1 = compile(in, out1), st2 = compile(in, out2);
    FUZZ_CHECK(st1 == st2, "two compiles gave %d and %d", st1, st2);
    snapshot o1 = snap(out1, ""), o2 = snap(out2, ""), all = snap(root, "");
    /* Sorted, the root holds the input tree first ("model" < "out1"), unchanged. */
    FUZZ_CHECK(strncmp(all.text, before.text, before.len) == 0, "the input tree changed:\n%s",
               all.text);
    FUZZ_CHECK(strcmp(o1.text, o2.text) == 0, "two compiles differ:\n%s---\n%s", o1.text, o2.text);
    if (st1)
        FUZZ_CHECK(o1.len == 0, "a failed compile left files:\n%s", o1.text);
    else
        FUZZ_CHECK(o1.len > 0, "a successful compile wrote nothing");
    /* And after it only the two output directories: "out1/" + each line of o1, same for out2. */
    size_t lines = 0;
    for (const char *p = o1.text; *p; p++)
        lines += *p == '\n';
    size_t dirs = (all.len > before.len) ? strlen("out1/\n") * ((st1 == 0) + (st1 == 0)) : 0;
    if (st1 == 0)
        FUZZ_CHECK(all.len - before.len == dirs + 2 * (o1.len + lines * strlen("out1/")),
                   "files outside the output directories:\n%s", all.text);
    else
        FUZZ_CHECK(all.len - before.len <= 2 * strlen("out1/\n"),
                   "files outside the output directories:\n%s", all.text);
    free(before.text), free(o1.text), free(o2.text), free(all.text);
    fuzz_rmtree(root);
    free(root);
    return 0;
}
