/* version.c: which runtime this is. */
#include "sm2c_rt.h"

const char *sm2c_rt_version(void)
{
    return SM2C_RT_VERSION;
}
