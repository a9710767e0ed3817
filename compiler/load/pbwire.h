/*
** pbwire.h: decoding protobuf messages safely, binary and text.
**
** protobuf-c's unpack() recurses without a depth limit and says nothing about
** what is wrong, so every binary input is first walked by a non-recursive
** scanner that follows our descriptors: it checks the wire format, the nesting
** depth and the strings, and reports `file: protobuf parse error at offset N:
** reason` (docs/reliability.md P1-P4).  Text format is translated to the binary wire
** format using the same descriptors, then takes the same path.
*/
#ifndef SM2C_PBWIRE_H
#define SM2C_PBWIRE_H

#include <protobuf-c/protobuf-c.h>

#include "base/fileio.h"
#include "base/tensor.h"

/* Validate buf against `desc` (see above) without allocating per field. */
sm2c_status sm2c_pb_prescan(sm2c_ctx *c, const char *display, const uint8_t *buf, size_t len,
                            const ProtobufCMessageDescriptor *desc);

/* Prescan (which also bounds what unpack will allocate by limits->decoded_bytes),
** unpack into the arena, then reject duplicate keys in every map field. */
sm2c_status sm2c_pb_unpack(sm2c_ctx *c, const char *display, const ProtobufCMessageDescriptor *desc,
                           const uint8_t *buf, size_t len, ProtobufCMessage **out);

/* Translate protobuf text format (as TensorFlow writes saved_model.pbtxt) into
** the binary wire format of message `desc`.  Errors name `display:line:col`. */
sm2c_status sm2c_pbtext_to_wire(sm2c_ctx *c, const char *display, const char *text, size_t len,
                                const ProtobufCMessageDescriptor *desc, sm2c_buf *out);

#endif
