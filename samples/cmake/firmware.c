/* firmware.c: the digits model on a Cortex-M4F, without an OS: classify one
 * image (a hand-drawn "1" on the 8x8 grid) and return the digit, or -1 when
 * the model reports an error.  No heap and no stdio: the model's buffers are
 * static and its weights const (flash). */
#include "digits.h"

static const float one[DIGITS_SERVING_DEFAULT_PIXELS_ELEMENTS] = {
    0, 0, 0, 0.75f, 1, 0, 0, 0,
    0, 0, 0.5f, 1, 1, 0, 0, 0,
    0, 0, 0, 1, 1, 0, 0, 0,
    0, 0, 0, 1, 1, 0, 0, 0,
    0, 0, 0, 1, 1, 0, 0, 0,
    0, 0, 0, 1, 1, 0, 0, 0,
    0, 0, 0, 1, 1, 0, 0, 0,
    0, 0, 0.5f, 1, 1, 0.5f, 0, 0,
};

int main(void)
{
    static float probs[DIGITS_SERVING_DEFAULT_OUTPUT_0_ELEMENTS];
    if (digits_serving_default(one, probs) != 0)
        return -1;
    int best = 0;
    for (int k = 1; k < DIGITS_SERVING_DEFAULT_OUTPUT_0_ELEMENTS; k++)
        if (probs[k] > probs[best])
            best = k;
    return best;
}
