#!/usr/bin/env python3
"""Write the text-format fixtures that tests/unit/test_pbtext.c checks.

Run with the project venv (tests/models/requirements.txt):
    .venv/bin/python tests/models/gen_pbtext.py [OUT_DIR]

OUT_DIR defaults to tests/data/pbtext.  Each case is built with TensorFlow's
own python protos and written twice:

    <case>.pbtxt   google.protobuf.text_format.MessageToString(msg)
    <case>.pb      msg.SerializeToString(deterministic=True)

The test translates <case>.pbtxt with sm2c_pbtext_to_wire(), unpacks both
with sm2c_pb_unpack() and compares protobuf-c's packing of the two.  Map
entries come out sorted by key in both files (text_format sorts them and so
does deterministic serialization), so the packings match byte for byte.
Cases named metagraph_* are MetaGraphDef messages; the others SavedModel.
Only fields of sm2c's proto subset (proto/*.proto) are used.
"""
import math
import os
import struct
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
from google.protobuf import text_format  # noqa: E402
from tensorflow.core.framework import types_pb2  # noqa: E402
from tensorflow.core.protobuf import meta_graph_pb2  # noqa: E402
from tensorflow.core.protobuf import saved_model_pb2  # noqa: E402
from tensorflow.core.protobuf import struct_pb2  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "data", "pbtext")


def shape(node_shape, dims):
    for d in dims:
        node_shape.dim.add(size=d)


def add_placeholder(graph, name, dtype, dims):
    n = graph.node.add(name=name, op="Placeholder")
    n.attr["dtype"].type = dtype
    shape(n.attr["shape"].shape, dims)
    return n


def meta_graph_basic():
    """A TF1-style graph: ops, attrs of every kind, signatures, collections."""
    sm = saved_model_pb2.SavedModel(saved_model_schema_version=1)
    mg = sm.meta_graphs.add()
    info = mg.meta_info_def
    info.tags.extend(["serve", "gpu"])
    info.tensorflow_version = "2.21.0"
    info.tensorflow_git_version = "v2.21.0-0-g0"
    info.stripped_default_attrs = True
    info.function_aliases["serve_fn"] = "__inference_serve_12"
    op = info.stripped_op_list.op.add(name="Add")
    op.input_arg.add(name="x", type_attr="T")
    op.input_arg.add(name="y", type_attr="T")
    op.output_arg.add(name="z", type_attr="T")
    a = op.attr.add(name="T", type="type")
    a.allowed_values.list.type.extend([types_pb2.DT_BFLOAT16, types_pb2.DT_FLOAT,
                                       types_pb2.DT_INT64, types_pb2.DT_STRING])
    a = op.attr.add(name="N", type="int", has_minimum=True, minimum=-3)
    a.default_value.i = -9223372036854775808
    op.is_commutative = True

    g = mg.graph_def
    g.versions.producer = 1645
    g.versions.min_consumer = 12
    g.versions.bad_consumers.extend([3, 7])
    add_placeholder(g, "x", types_pb2.DT_FLOAT, [-1, 3])
    add_placeholder(g, "y", types_pb2.DT_FLOAT_REF, [])
    c = g.node.add(name="w", op="Const", device="/device:CPU:0")
    c.attr["dtype"].type = types_pb2.DT_FLOAT
    t = c.attr["value"].tensor
    t.dtype = types_pb2.DT_FLOAT
    shape(t.tensor_shape, [3, 2])
    t.tensor_content = struct.pack("<6f", 1.0, -2.5, 0.0, 1e-30, 3.4e38, -0.0)
    add = g.node.add(name="add", op="Add", input=["x", "w:0", "^y"])
    add.attr["T"].type = types_pb2.DT_FLOAT
    add.attr["_class"].list.s.extend([b"loc:@w", b"quote\" and \\ back"])
    add.attr["_output_shapes"].list.shape.add().dim.add(size=-1)
    add.attr["_output_shapes"].list.shape.add(unknown_rank=True)
    add.attr["N"].i = -1
    add.attr["alpha"].f = 1e-05
    add.attr["flag"].b = False
    add.attr["s"].s = b"\x00\x01\xff\n\t'"
    add.attr["f"].func.name = "some_fn"
    add.attr["f"].func.attr["Tin"].list.type.extend([types_pb2.DT_INT32, 9999])
    add.attr["empty_list"].list.SetInParent()
    add.attr["placeholder"].placeholder = "T"

    mg.saver_def.filename_tensor_name = "save/Const:0"
    mg.saver_def.restore_op_name = "save/restore_all"
    mg.saver_def.max_to_keep = 5
    mg.saver_def.keep_checkpoint_every_n_hours = 10000.0
    mg.saver_def.sharded = True
    mg.saver_def.version = 2

    mg.collection_def["variables"].bytes_list.value.extend([b"\n\x01w", b""])
    mg.collection_def["train_op"].node_list.value.append("add")
    mg.collection_def["steps"].int64_list.value.extend([0, -1, 2**62])
    mg.collection_def["rates"].float_list.value.extend([0.5, -math.inf])

    for key, method in (("serving_default", "tensorflow/serving/predict"),
                        ("classify", "tensorflow/serving/classify")):
        sig = mg.signature_def[key]
        sig.method_name = method
        sig.inputs["x"].name = "x:0"
        sig.inputs["x"].dtype = types_pb2.DT_FLOAT
        shape(sig.inputs["x"].tensor_shape, [-1, 3])
        sig.inputs["y"].coo_sparse.values_tensor_name = "v:0"
        sig.outputs["out"].name = "add:0"
        sig.outputs["out"].dtype = types_pb2.DT_FLOAT
    mg.asset_file_def.add(filename="vocab.txt").tensor_info.name = "asset:0"
    return sm


def structured(values):
    """Nested StructuredValues: tuple(list(...), dict{...}, named tuple)."""
    v = struct_pb2.StructuredValue()
    tup = v.tuple_value
    lst = tup.values.add().list_value
    for x in values:
        lst.values.add().int64_value = x
    lst.values.add().float64_value = -0.1
    lst.values.add().string_value = "caf\u00e9 \u2713"
    lst.values.add().bool_value = True
    lst.values.add().none_value.SetInParent()
    lst.values.add().tensor_dtype_value = types_pb2.DT_HALF
    inner = lst.values.add().list_value.values.add().list_value.values.add()
    inner.tuple_value.SetInParent()
    d = tup.values.add().dict_value
    spec = d.fields["x"].tensor_spec_value
    spec.name = "x"
    spec.dtype = types_pb2.DT_INT64
    shape(spec.shape, [-1])
    d.fields["a"].tensor_shape_value.unknown_rank = True
    b = d.fields["bounded"].bounded_tensor_spec_value
    b.name = "b"
    b.dtype = types_pb2.DT_FLOAT
    b.minimum.dtype = types_pb2.DT_FLOAT
    b.minimum.float_val.append(-1.5)
    b.maximum.dtype = types_pb2.DT_FLOAT
    b.maximum.float_val.append(math.inf)
    nt = tup.values.add().named_tuple_value
    nt.name = "Point"
    nt.values.add(key="x").value.float64_value = 1e300
    nt.values.add(key="y").value.int64_value = -(2**63)
    ts = tup.values.add().type_spec_value
    ts.type_spec_class = struct_pb2.TypeSpecProto.RAGGED_TENSOR_SPEC
    ts.type_spec_class_name = "RaggedTensorSpec"
    ts.num_flat_components = 2
    ts.type_state.tuple_value.values.add().tensor_shape_value.dim.add(size=4)
    return v


def object_graph():
    """A TF2-style object graph and function library: nested lists and maps."""
    sm = saved_model_pb2.SavedModel(saved_model_schema_version=1)
    mg = sm.meta_graphs.add()
    mg.meta_info_def.tags.append("serve")
    lib = mg.graph_def.library
    fn = lib.function.add()
    fn.signature.name = "__inference_call_42"
    fn.signature.input_arg.add(name="x", type=types_pb2.DT_FLOAT)
    fn.signature.input_arg.add(name="h", type=types_pb2.DT_RESOURCE)
    fn.signature.output_arg.add(name="identity", type=types_pb2.DT_FLOAT)
    fn.signature.is_stateful = True
    fn.signature.control_output.append("assign")
    fn.ret["identity"] = "Identity:output:0"
    fn.control_ret["assign"] = "assign"
    fn.attr["_input_shapes"].list.shape.add().dim.add(size=2)
    fn.attr["_noinline"].b = True
    fn.arg_attr[0].attr["_user_specified_name"].s = b"x"
    fn.arg_attr[1].attr["_output_shapes"].list.shape.add()
    fn.resource_arg_unique_id[1] = 0
    fn.resource_arg_unique_id[4294967295] = 4294967295
    body = fn.node_def.add(name="Identity", op="Identity", input=["x"])
    body.attr["T"].type = types_pb2.DT_FLOAT
    call = fn.node_def.add(name="call", op="StatefulPartitionedCall")
    f = call.attr["f"].func
    f.name = "__inference_inner_7"
    f.attr["nested"].list.func.add(name="g").attr["k"].list.func.add(name="h")
    lib.gradient.add(function_name="__inference_call_42", gradient_func="grad")

    og = mg.object_graph_def
    root = og.nodes.add()
    root.children.add(node_id=1, local_name="v")
    root.children.add(node_id=2, local_name="signatures")
    root.user_object.identifier = "_generic_user_object"
    root.user_object.version.producer = 1
    root.user_object.version.min_consumer = 1
    var = og.nodes.add()
    var.variable.dtype = types_pb2.DT_FLOAT
    shape(var.variable.shape, [2, 2])
    var.variable.trainable = True
    # sm2c's proto declares synchronization and aggregation as int32, TF as
    # enums: text would name them (VARIABLE_SYNCHRONIZATION_NONE), so leave
    # synchronization at 0 and give aggregation a number TF prints as such.
    var.variable.aggregation = -1
    var.variable.name = "v"
    var.saveable_objects["VARIABLE_VALUE"].save_function = 3
    var.saveable_objects["VARIABLE_VALUE"].restore_function = 4
    sig = og.nodes.add()
    sig.bare_concrete_function.concrete_function_name = "__inference_call_42"
    sig.bare_concrete_function.argument_keywords.extend(["x", "y"])
    sig.bare_concrete_function.allowed_positional_arguments = -2
    sig.bare_concrete_function.function_spec.jit_compile = 2
    fnode = og.nodes.add()
    fnode.function.concrete_functions.extend(["__inference_call_42", "__inference_call_43"])
    fnode.function.function_spec.is_method = True
    fnode.function.function_spec.fullargspec.CopyFrom(structured([1, -1]))
    og.nodes.add().constant.operation = "Const_1"
    og.nodes.add().captured_tensor.name = "cap"
    og.nodes.add().asset.asset_file_def_index = 0
    og.nodes.add().resource.device = "/cpu:0"
    cf = og.concrete_functions["__inference_call_42"]
    cf.bound_inputs.extend([1, -5])
    cf.canonicalized_input_signature.CopyFrom(structured([0, 2**40]))
    cf.output_signature.dict_value.fields["output_0"].tensor_spec_value.dtype = types_pb2.DT_FLOAT
    og.concrete_functions["__inference_call_43"].SetInParent()
    return sm


def tensors():
    """TensorProtos of many dtypes, tensor_content with every byte value."""
    sm = saved_model_pb2.SavedModel(saved_model_schema_version=1)
    g = sm.meta_graphs.add().graph_def

    def const(name, dtype, dims):
        n = g.node.add(name=name, op="Const")
        n.attr["dtype"].type = dtype
        t = n.attr["value"].tensor
        t.dtype = dtype
        shape(t.tensor_shape, dims)
        return t

    const("bytes", types_pb2.DT_UINT8, [256]).tensor_content = bytes(range(256))
    const("ints", types_pb2.DT_INT32, [5]).int_val.extend([0, -1, 2**31 - 1, -(2**31), 7])
    const("i64", types_pb2.DT_INT64, [3]).int64_val.extend([-(2**63), 2**63 - 1, -2])
    const("u32", types_pb2.DT_UINT32, [2]).uint32_val.extend([0, 2**32 - 1])
    const("u64", types_pb2.DT_UINT64, [2]).uint64_val.extend([2**64 - 1, 1])
    const("f", types_pb2.DT_FLOAT, [9]).float_val.extend(
        [0.1, -0.0, 1e-45, 3.4028234663852886e38, math.inf, -math.inf, math.nan, 1e-05, 2.5])
    const("d", types_pb2.DT_DOUBLE, [4]).double_val.extend([0.1, -1e-300, 5e-324, 1.7976931348623157e308])
    const("h", types_pb2.DT_HALF, [2]).half_val.extend([0x3c00, 0xfbff])
    const("b", types_pb2.DT_BOOL, [3]).bool_val.extend([True, False, True])
    const("c64", types_pb2.DT_COMPLEX64, [1]).scomplex_val.extend([1.5, -2.0])
    const("c128", types_pb2.DT_COMPLEX128, [1]).dcomplex_val.extend([0.25, 1e10])
    s = const("s", types_pb2.DT_STRING, [4])
    s.string_val.extend([b"", b"\x00\x80\xfe", "na\u00efve".encode(), b"tab\there"])
    r = const("r", types_pb2.DT_RESOURCE, [])
    r.resource_handle_val.add(device="/cpu:0", container="c", name="n", hash_code=2**64 - 3,
                              maybe_type_name="T")
    e = const("f8", types_pb2.DT_FLOAT8_E4M3FN, [3])
    e.float8_val = b"\x00\x7e\xff"
    const("unknown_dtype", 9999, [1]).version_number = -7
    return sm


def metagraph_small():
    """A bare MetaGraphDef (not wrapped in a SavedModel)."""
    mg = meta_graph_pb2.MetaGraphDef()
    mg.meta_info_def.tags.append("train")
    add_placeholder(mg.graph_def, "in", types_pb2.DT_STRING, [-1])
    mg.signature_def["predict"].inputs["examples"].name = "in:0"
    mg.signature_def["predict"].method_name = "tensorflow/serving/predict"
    info = mg.signature_def["predict"].outputs["t"].composite_tensor
    info.type_spec.type_spec_class = struct_pb2.TypeSpecProto.SPARSE_TENSOR_SPEC
    info.components.add(name="a:0")
    info.components.add(name="b:1", dtype=types_pb2.DT_INT64)
    d = mg.signature_def["predict"].defaults["k"]
    d.dtype = types_pb2.DT_INT32
    d.int_val.append(-42)
    return mg


CASES = {
    "meta_graph_basic": (meta_graph_basic, False),
    "object_graph": (object_graph, False),
    "tensors": (tensors, False),
    "unicode_utf8": (meta_graph_basic, True),  # raw UTF-8 in the text, not octal
    "metagraph_small": (metagraph_small, False),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT
    os.makedirs(out, exist_ok=True)
    for case, (build, as_utf8) in CASES.items():
        msg = build()
        if as_utf8:
            msg.meta_graphs[0].graph_def.node[0].device = "/\u8bbe\u5907:0 \U0001f600"
        text = text_format.MessageToString(msg, as_utf8=as_utf8)
        with open(os.path.join(out, case + ".pbtxt"), "w", encoding="utf-8") as f:
            f.write("# Generated by tests/models/gen_pbtext.py; do not edit.\n" + text)
        with open(os.path.join(out, case + ".pb"), "wb") as f:
            f.write(msg.SerializeToString(deterministic=True))
        # The text must mean the same message to TensorFlow too.
        again = type(msg)()
        text_format.Parse(text, again)
        assert again.SerializeToString(deterministic=True) == msg.SerializeToString(
            deterministic=True), case
        print(f"{case}: {len(text)} text bytes, {msg.ByteSize()} wire bytes")


if __name__ == "__main__":
    main()
