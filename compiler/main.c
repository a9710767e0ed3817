/* main.c: the sm2c command line (placeholder until the CLI lands). */
#include <stdio.h>
int main(void)
{
    puts("sm2c " SM2C_VERSION);
    return 0;
}
