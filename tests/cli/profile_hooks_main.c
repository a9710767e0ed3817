/* profile_hooks.sh: the e2e cnn built with -DCNN_PROFILE=hook.  Records every
** hook call of two calls of cnn_serving_default and checks them: two calls per
** kernel step per call (begin, then end), step indices in order, the kernel and
** node of each step, and at the end the step's output (the last step's is the
** entry's output).  Exits 0 when all hold, else prints what differs. */
#include <stdio.h>
#include <string.h>

#include "cnn.h"

#define N_STEPS 6
static const char *const kernels[N_STEPS] = {
    "sm2c_rt_pad_copy_f32", "sm2c_rt_conv2d_f32", "sm2c_rt_max_pool_f32",
    "sm2c_rt_conv2d_f32", "sm2c_rt_matvec_f32", "sm2c_rt_softmax_f32",
};
/* the fused Conv2D + BiasAdd + Relu is its Relu (the last node it computes); the
** padded copy before it is that node's helper, and carries its name */
static const char *const nodes[N_STEPS] = {
    "sequential_1_1/re_lu_1/Relu", "sequential_1_1/re_lu_1/Relu",
    "sequential_1_1/max_pooling2d_1/MaxPool2d", "sequential_1_1/conv2d_1_2/BiasAdd",
    "sequential_1_1/dense_3_1/BiasAdd", "sequential_1_1/dense_3_1/Softmax",
};

static int calls, failures;
static const void *last_output;
static int64_t last_bytes;

static void fail(const char *what, int call, int32_t step)
{
    if (failures++ < 10)
        fprintf(stderr, "hook call %d (step %d): %s\n", call, (int)step, what);
}

void hook(const char *entry, int32_t step, const char *kernel, const char *node, int32_t end,
          const void *output, int64_t output_bytes)
{
    int k = calls++;
    int32_t want_step = (k / 2) % N_STEPS;
    if (strcmp(entry, "serving_default") != 0)
        fail("entry is not serving_default", k, step);
    if (step != want_step)
        fail("step index out of order", k, step);
    if (end != (k % 2))
        fail("begin and end do not alternate", k, step);
    if (step >= 0 && step < N_STEPS && (strcmp(kernel, kernels[step]) || strcmp(node, nodes[step])))
        fail("kernel or node name differs", k, step);
    if (end ? !output || output_bytes <= 0 : output != NULL || output_bytes != 0)
        fail("output pointer or size wrong", k, step);
    if (end) {
        last_output = output;
        last_bytes = output_bytes;
    }
}

int main(void)
{
    static float image[1 * 16 * 16 * 3], out[10];
    for (int i = 0; i < 1 * 16 * 16 * 3; i++)
        image[i] = (float)(i % 17) / 17.0f;
    for (int r = 0; r < 2; r++)
        if (cnn_serving_default(image, out) != 0)
            fail("the entry point failed", calls, -1);
    if (calls != 2 * 2 * N_STEPS)
        fprintf(stderr, "%d hook calls, want %d\n", calls, 2 * 2 * N_STEPS), failures++;
    if (last_output != (const void *)out || last_bytes != (int64_t)sizeof out)
        fail("the last step's output is not the entry's output", calls, N_STEPS - 1);
    printf("%d hook calls, %d failures\n", calls, failures);
    return failures ? 1 : 0;
}
