/*
** placement_main.c: the firmware of tests/cli/placement_m4.sh.  Calls the
** model's train entry point twice (its variables carried from the first call
** to the second, in the default state) and prints each call's status and
** loss as bit patterns, then the status of a call through the context API
** with the caller's two workspaces, and its loss.
** fw_case.h (written by the test) gives the inputs as float bit patterns:
** fw_x_bits[M_TRAIN_X_SIZE / 4], fw_y_bits[M_TRAIN_Y_SIZE / 4].
*/
#include <stdint.h>
#include <string.h>

#include "m.h"
#include "fw_case.h"
#include "semihost.h"

static float x[M_TRAIN_X_SIZE / 4], y[M_TRAIN_Y_SIZE / 4];
static uint8_t workspace[M_WORKSPACE_SIZE + 1] __attribute__((aligned(64)));
static uint8_t fast_workspace[M_FAST_WORKSPACE_SIZE + 1] __attribute__((aligned(64)));
static m_ctx ctx;

static void put_hex(const char *label, uint32_t v)
{
    char s[16];
    for (int i = 7; i >= 0; i--, v >>= 4)
        s[i] = "0123456789abcdef"[v & 15u];
    s[8] = '\n';
    s[9] = 0;
    semihost_write(label);
    semihost_write(s);
}

static void report(const char *label, int32_t status, float loss)
{
    uint32_t u;
    memcpy(&u, &loss, 4);
    put_hex("status ", (uint32_t)status);
    put_hex(label, u);
}

int main(void)
{
    float loss = 0;
    int32_t status;
    memcpy(x, fw_x_bits, sizeof x);
    memcpy(y, fw_y_bits, sizeof y);
    status = m_train(x, y, &loss);
    report("loss1 ", status, loss);
    status = m_train(x, y, &loss);
    report("loss2 ", status, loss);
    m_ctx_init(&ctx, workspace, fast_workspace);
    status = m_train_ctx(&ctx, x, y, &loss);
    report("ctx1 ", status, loss);
    return 0;
}
