/* test_pb.h: protobuf helpers shared by the decoding tests. */
#ifndef SM2C_TEST_PB_H
#define SM2C_TEST_PB_H

#include "load/pbwire.h"

/* The unpacked message, or NULL with the error in the context's diagnostics. */
static inline ProtobufCMessage *unpack_or_null(sm2c_ctx *c, const char *display,
                                               const ProtobufCMessageDescriptor *d,
                                               const void *buf, size_t len)
{
    ProtobufCMessage *m;
    return sm2c_pb_unpack(c, display, d, buf, len, &m) == SM2C_OK ? m : NULL;
}

#endif
