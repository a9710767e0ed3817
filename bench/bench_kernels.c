/*
** bench_kernels.c: GFLOP/s of the convolution kernels on the layer shapes of
** the benchmark's models (bench/gen_bench_models.py), one thread.
**
** build: cc -std=c99 -O3 -march=native -Iruntime -Iruntime/include \
**            bench/bench_kernels.c runtime/conv_f32.c runtime/matmul_f32.c \
**            runtime/matvec_f32.c -lm -o bench_kernels
** usage: bench_kernels [SAMPLES [FILTER]]   (only layers whose name contains
**        FILTER; median over SAMPLES of ~30 ms of thread
**        CPU time each; the min and max are printed beside it)
*/
#define _POSIX_C_SOURCE 200112L /* clock_gettime, posix_memalign */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sm2c_rt.h"

typedef struct {
    const char *name;
    int depthwise;
    int32_t h, w, c, k, oc, stride;
} layer;

static const layer LAYERS[] = {
    {"ds_cnn conv1 10x4 s2 1->64", 0, 49, 10, 1, 0, 64, 2}, /* k 0: 10x4 */
    {"ds_cnn 1x1 64->64 25x5", 0, 25, 5, 64, 1, 64, 1},
    {"ds_cnn dw 3x3 64 25x5", 1, 25, 5, 64, 3, 64, 1},
    {"resnet8 3x3 3->16 32x32", 0, 32, 32, 3, 3, 16, 1},
    {"resnet8 3x3 16->16 32x32", 0, 32, 32, 16, 3, 16, 1},
    {"resnet8 3x3 s2 16->32 32x32", 0, 32, 32, 16, 3, 32, 2},
    {"resnet8 3x3 32->32 16x16", 0, 16, 16, 32, 3, 32, 1},
    {"resnet8 3x3 64->64 8x8", 0, 8, 8, 64, 3, 64, 1},
    {"vww 3x3 s2 3->8 96x96", 0, 96, 96, 3, 3, 8, 2},
    {"vww 1x1 8->16 48x48", 0, 48, 48, 8, 1, 16, 1},
    {"vww 1x1 64->128 12x12", 0, 12, 12, 64, 1, 128, 1},
    {"vww 1x1 256->256 3x3", 0, 3, 3, 256, 1, 256, 1},
    {"vww dw 3x3 16 48x48", 1, 48, 48, 16, 3, 16, 1},
    {"mnv2 3x3 s2 3->32 224x224", 0, 224, 224, 3, 3, 32, 2},
    {"mnv2 1x1 32->16 112x112", 0, 112, 112, 32, 1, 16, 1},
    {"mnv2 1x1 24->144 56x56", 0, 56, 56, 24, 1, 144, 1},
    {"mnv2 1x1 144->24 56x56", 0, 56, 56, 144, 1, 24, 1},
    {"mnv2 1x1 96->576 14x14", 0, 14, 14, 96, 1, 576, 1},
    {"mnv2 1x1 576->96 14x14", 0, 14, 14, 576, 1, 96, 1},
    {"mnv2 1x1 32->192 28x28", 0, 28, 28, 32, 1, 192, 1},
    {"mnv2 1x1 320->1280 7x7", 0, 7, 7, 320, 1, 1280, 1},
    {"mnv2 1x1 160->960 7x7", 0, 7, 7, 160, 1, 960, 1},
    {"mnv2 1x1 960->160 7x7", 0, 7, 7, 960, 1, 160, 1},
    {"mnv2 1x1 16->96 112x112", 0, 112, 112, 16, 1, 96, 1},
    {"mnv2 dw 3x3 32 112x112", 1, 112, 112, 32, 3, 32, 1},
    {"mnv2 dw 3x3 s2 144 56x56", 1, 56, 56, 144, 3, 144, 2},
    {"mnv2 dw 3x3 s2 96 112x112", 1, 112, 112, 96, 3, 96, 2},
    {"mnv2 dw 3x3 144 56x56", 1, 56, 56, 144, 3, 144, 1},
    {"mnv2 dw 3x3 960 7x7", 1, 7, 7, 960, 3, 960, 1},
    {"resnet50 7x7 s2 3->64 224x224", 0, 224, 224, 3, 7, 64, 2},
    {"resnet50 3x3 64->64 56x56", 0, 56, 56, 64, 3, 64, 1},
    {"resnet50 1x1 64->256 56x56", 0, 56, 56, 64, 1, 256, 1},
    {"resnet50 3x3 256->256 14x14", 0, 14, 14, 256, 3, 256, 1},
    {"resnet50 1x1 1024->256 14x14", 0, 14, 14, 1024, 1, 256, 1},
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); /* shared machine: CPU time */
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* 64-byte aligned, as the generated code's weights and arena are: a
** 16-byte aligned buffer splits most 64-byte loads across two cache lines
** and ran the depthwise layers 20-30% slower. */
static float *aligned_floats(size_t n)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, n * sizeof(float) + 64)) {
        fprintf(stderr, "bench_kernels: out of memory\n");
        exit(1);
    }
    return p;
}

static float *random_floats(size_t n, uint32_t seed)
{
    float *p = aligned_floats(n);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        p[i] = (float)(seed >> 8) / 16777216.0f - 0.5f;
    }
    return p;
}

/* SAME padding, the window parameters of sm2c_rt.h; returns the FLOPs. */
static double params(const layer *l, int32_t *p)
{
    const int32_t kh = l->k ? l->k : 10, kw = l->k ? l->k : 4;
    const int32_t oh = (l->h + l->stride - 1) / l->stride, ow = (l->w + l->stride - 1) / l->stride;
    const int32_t ph = (oh - 1) * l->stride + kh - l->h, pw = (ow - 1) * l->stride + kw - l->w;

    p[SM2C_RT_WIN_N] = 1, p[SM2C_RT_WIN_H] = l->h, p[SM2C_RT_WIN_W] = l->w;
    p[SM2C_RT_WIN_C] = l->c, p[SM2C_RT_WIN_KH] = kh, p[SM2C_RT_WIN_KW] = kw;
    p[SM2C_RT_WIN_OH] = oh, p[SM2C_RT_WIN_OW] = ow, p[SM2C_RT_WIN_OC] = l->oc;
    p[SM2C_RT_WIN_SH] = l->stride, p[SM2C_RT_WIN_SW] = l->stride;
    p[SM2C_RT_WIN_DH] = 1, p[SM2C_RT_WIN_DW] = 1;
    p[SM2C_RT_WIN_PT] = ph > 0 ? ph / 2 : 0, p[SM2C_RT_WIN_PL] = pw > 0 ? pw / 2 : 0;
    p[SM2C_RT_WIN_FC] = l->depthwise ? 1 : l->c;
    return 2.0 * oh * ow * l->oc * kh * kw * (l->depthwise ? 1 : l->c);
}

int main(int argc, char **argv)
{
    const int samples = argc > 1 ? atoi(argv[1]) : 7;
    const char *filter = argc > 2 ? argv[2] : "";
    size_t i;

    for (i = 0; i < sizeof LAYERS / sizeof LAYERS[0]; i++) {
        const layer *l = &LAYERS[i];
        int32_t p[SM2C_RT_WIN_PARAMS];
        const double flops = params(l, p);
        const int32_t kh = p[SM2C_RT_WIN_KH], kw = p[SM2C_RT_WIN_KW];
        float *x = random_floats((size_t)l->h * l->w * l->c, 1);
        float *w = random_floats((size_t)kh * kw * l->c * (l->depthwise ? 1 : l->oc), 2);
        float *b = random_floats((size_t)l->oc, 3);
        float *y = aligned_floats((size_t)p[SM2C_RT_WIN_OH] * p[SM2C_RT_WIN_OW] * l->oc);
        double t[64];
        int calls = 1, s;

        if (!strstr(l->name, filter)) {
            free(x), free(w), free(b), free(y);
            continue;
        }

        for (double t0 = now(); now() - t0 < 0.03; calls *= 2)
            for (int k = 0; k < calls; k++)
                (l->depthwise ? sm2c_rt_depthwise_conv2d_f32 : sm2c_rt_conv2d_f32)(
                    x, w, b, y, p, SM2C_RT_ACT_RELU, 0.0f, 0.0f);
        for (s = 0; s < samples && s < 64; s++) {
            double t0 = now();
            for (int k = 0; k < calls; k++)
                (l->depthwise ? sm2c_rt_depthwise_conv2d_f32 : sm2c_rt_conv2d_f32)(
                    x, w, b, y, p, SM2C_RT_ACT_RELU, 0.0f, 0.0f);
            t[s] = (now() - t0) / calls;
        }
        qsort(t, (size_t)s, sizeof t[0], cmp);
        printf("| %s | %.2f | %.1f | %.1f–%.1f |\n", l->name, flops / 1e6, flops / t[s / 2] / 1e9,
               flops / t[s - 1] / 1e9, flops / t[0] / 1e9);
        free(x), free(w), free(b), free(y);
    }
    return 0;
}
