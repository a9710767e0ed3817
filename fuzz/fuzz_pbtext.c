/*
** fuzz_pbtext.c: the protobuf text format (saved_model.pbtxt) parser.
** The first byte picks the message type (SavedModel most often); the rest is
** the text.  Text that translates must give wire bytes that the binary path
** then unpacks, as sm2c_model_load does.
** Oracle: no crash or UB; errors come with an error line.
*/
#include "fuzz_common.h"
#include "graph.pb-c.h"
#include "load/pbwire.h"
#include "saved_model.pb-c.h"
#include "saved_object_graph.pb-c.h"
#include "tensor.pb-c.h"

static const ProtobufCMessageDescriptor *const messages[] = {
    &tensorflow__saved_model__descriptor, &tensorflow__saved_model__descriptor,
    &tensorflow__saved_model__descriptor, &tensorflow__saved_model__descriptor,
    &tensorflow__meta_graph_def__descriptor, &tensorflow__graph_def__descriptor,
    &tensorflow__saved_object_graph__descriptor, &tensorflow__tensor_proto__descriptor,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const ProtobufCMessageDescriptor *desc = messages[data[0] % (sizeof messages / sizeof *messages)];
    fuzz_ctx f;
    fuzz_begin(&f);
    /* The parser gets what sm2c_read_file gives it: a NUL-terminated copy. */
    char *text = sm2c_arena_alloc(f.arena, size);
    memcpy(text, data + 1, size - 1);
    sm2c_buf wire;
    sm2c_status st = sm2c_pbtext_to_wire(&f.c, "saved_model.pbtxt", text, size - 1, desc, &wire);
    ProtobufCMessage *msg;
    if (!st)
        st = sm2c_pb_unpack(&f.c, "saved_model.pbtxt", desc, wire.data, wire.len, &msg);
    fuzz_end(&f, st);
    return 0;
}
