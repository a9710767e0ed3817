/* predict.c: classify the ten sample digits with the model compiled by sm2c.
 *
 *   sm2c compile samples/digits/model -o build/digits --name digits --shape pixels=1,64
 *   cc -std=c99 -O2 -I build/digits build/digits/[a-z]*.c samples/digits/predict.c -lm -o predict
 *   ./predict [images.npy labels.npy]
 *
 * images.npy is float32 [N,64] (8x8 pixels scaled to 0..1), labels.npy int64 [N].
 * The model runs one image at a time through digits_serving_default. */
#include "digits.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_PIXELS DIGITS_SERVING_DEFAULT_PIXELS_ELEMENTS
#define N_CLASSES DIGITS_SERVING_DEFAULT_OUTPUT_0_ELEMENTS
#define MAX_DIMS 4

typedef struct {
    char descr[8];        /* "<f4" or "<i8" */
    int rank;
    long dims[MAX_DIMS];
    long count;           /* elements */
    unsigned char *data;  /* count * item size bytes, little-endian */
} npy;

static int fail(const char *path, const char *what)
{
    fprintf(stderr, "predict: %s: %s\n", path, what);
    return -1;
}

/* Finds 'key': in the header dict and returns what follows it, or NULL. */
static const char *dict_value(const char *h, const char *key)
{
    const char *p = strstr(h, key);
    if (!p)
        return NULL;
    p += strlen(key);
    while (*p == ' ')
        p++;
    return *p == ':' ? p + 1 : NULL;
}

/* Reads a version 1.0 .npy file holding a C-order '<f4' or '<i8' array. */
static int npy_read(const char *path, npy *a)
{
    unsigned char pre[10];
    char header[1024];
    memset(a, 0, sizeof *a);
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(path, strerror(errno));
    if (fread(pre, 1, sizeof pre, f) != sizeof pre || memcmp(pre, "\x93NUMPY", 6)) {
        fclose(f);
        return fail(path, "not a .npy file");
    }
    if (pre[6] != 1 || pre[7] != 0) {
        fclose(f);
        return fail(path, "only .npy version 1.0 is supported");
    }
    size_t hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
    if (hlen >= sizeof header || (10 + hlen) % 16 != 0 || fread(header, 1, hlen, f) != hlen) {
        fclose(f);
        return fail(path, "bad header length");
    }
    header[hlen] = 0;
    if (hlen == 0 || header[hlen - 1] != '\n' || header[0] != '{') {
        fclose(f);
        return fail(path, "malformed header");
    }

    const char *v = dict_value(header, "'descr'");
    while (v && *v == ' ')
        v++;
    if (!v || (strncmp(v, "'<f4'", 5) && strncmp(v, "'<i8'", 5))) {
        fclose(f);
        return fail(path, "dtype must be '<f4' or '<i8'");
    }
    memcpy(a->descr, v + 1, 3);
    v = dict_value(header, "'fortran_order'");
    while (v && *v == ' ')
        v++;
    if (!v || strncmp(v, "False", 5)) {
        fclose(f);
        return fail(path, "fortran_order must be False");
    }
    v = dict_value(header, "'shape'");
    while (v && *v == ' ')
        v++;
    if (!v || *v != '(') {
        fclose(f);
        return fail(path, "missing shape");
    }
    v++;
    a->count = 1;
    for (;;) {
        while (*v == ' ' || *v == ',')
            v++;
        if (*v == ')')
            break;
        char *end;
        errno = 0;
        long d = strtol(v, &end, 10);
        if (end == v || errno || d < 0 || d > 1L << 24 || a->rank == MAX_DIMS ||
            (d && a->count > (1L << 24) / d)) {
            fclose(f);
            return fail(path, "bad or too large shape");
        }
        a->dims[a->rank++] = d;
        a->count *= d;
        v = end;
    }

    size_t item = a->descr[1] == 'f' ? 4 : 8;
    size_t bytes = (size_t)a->count * item;
    a->data = malloc(bytes ? bytes : 1);
    if (!a->data) {
        fclose(f);
        return fail(path, "out of memory");
    }
    int extra = fgetc(f);  /* read one byte past the data: there must be none */
    if (extra != EOF) {
        ungetc(extra, f);
        if (fread(a->data, 1, bytes, f) != bytes) {
            fclose(f);
            free(a->data);
            return fail(path, "file is shorter than its shape");
        }
        extra = fgetc(f);
    } else if (bytes) {
        fclose(f);
        free(a->data);
        return fail(path, "file is shorter than its shape");
    }
    fclose(f);
    if (extra != EOF) {
        free(a->data);
        return fail(path, "file is longer than its shape");
    }
    return 0;
}

/* Little-endian decoding, whatever the host's byte order. */
static float get_f32(const unsigned char *p)
{
    unsigned long u = (unsigned long)p[0] | (unsigned long)p[1] << 8 | (unsigned long)p[2] << 16 |
                      (unsigned long)p[3] << 24;
    float x;
    unsigned int w = (unsigned int)u;
    memcpy(&x, &w, sizeof x);  /* float and unsigned int are 32 bits on every target we build */
    return x;
}

static long long get_i64(const unsigned char *p)
{
    unsigned long long u = 0;
    for (int i = 7; i >= 0; i--)
        u = u << 8 | p[i];
    return (long long)u;
}

int main(int argc, char **argv)
{
    const char *images_path = argc > 1 ? argv[1] : "samples/digits/images.npy";
    const char *labels_path = argc > 2 ? argv[2] : "samples/digits/labels.npy";
    if (argc != 1 && argc != 3) {
        fprintf(stderr, "usage: %s [images.npy labels.npy]\n", argv[0]);
        return 2;
    }
    typedef char float_is_32_bits[sizeof(float) == 4 && sizeof(unsigned int) == 4 ? 1 : -1];
    (void)sizeof(float_is_32_bits);

    npy images, labels;
    if (npy_read(images_path, &images))
        return 1;
    if (npy_read(labels_path, &labels)) {
        free(images.data);
        return 1;
    }
    int status = 1;
    if (strcmp(images.descr, "<f4") || images.rank != 2 || images.dims[1] != N_PIXELS) {
        fprintf(stderr, "predict: %s: want float32 [N,%d]\n", images_path, N_PIXELS);
        goto done;
    }
    if (strcmp(labels.descr, "<i8") || labels.rank != 1 || labels.dims[0] != images.dims[0]) {
        fprintf(stderr, "predict: %s: want int64 [%ld]\n", labels_path, images.dims[0]);
        goto done;
    }

    long n = images.dims[0], correct = 0;
    for (long i = 0; i < n; i++) {
        float pixels[N_PIXELS], probs[N_CLASSES];
        for (int k = 0; k < N_PIXELS; k++)
            pixels[k] = get_f32(images.data + ((size_t)i * N_PIXELS + (size_t)k) * 4);
        int32_t rc = digits_serving_default(pixels, probs);
        if (rc != 0) {
            fprintf(stderr, "predict: image %ld: digits_serving_default returned %ld\n", i, (long)rc);
            goto done;
        }
        int best = 0;
        for (int k = 0; k < N_CLASSES; k++) {
            if (!isfinite(probs[k])) {
                fprintf(stderr, "predict: image %ld: non-finite probability\n", i);
                goto done;
            }
            if (probs[k] > probs[best])
                best = k;
        }
        long long label = get_i64(labels.data + (size_t)i * 8);
        correct += best == label;
        printf("image %ld: predicted %d (p=%.2f), label %lld\n", i, best, (double)probs[best], label);
    }
    printf("%ld/%ld correct\n", correct, n);
    status = 0;
done:
    free(images.data);
    free(labels.data);
    return status;
}
