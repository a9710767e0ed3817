#!/usr/bin/env python3
"""Write the SavedModels of the scaling and deep-nesting tests (issue 32).

No TensorFlow needed: each model is a saved_model.pbtxt written as text.

    gen_scale.py OUT_DIR KIND N

KIND is one of
    signatures  N signatures, each returning one Neg of the one input
    chain       one signature over a chain of N Neg nodes in the main graph
    body        one signature calling a function whose body is a chain of N Neg nodes
    matmuls     one signature over a chain of N MatMuls, each by a 2x2 constant (no
                step can write in place: N arena buffers for the planner)
    calls       a chain of N functions, f0 calling f1 ... calling f(N-1)
    nesting     a graph whose node has an attr nested N messages deep
                (AttrValue.func.attr[...] repeated)
    ifs         If inside If, N deep: f_i's then branch is f_(i+1), its else a Neg
OUT_DIR/saved_model.pbtxt is written (OUT_DIR is created).
"""
import os
import sys

HEAD = 'saved_model_schema_version: 1\nmeta_graphs {\n  meta_info_def { tags: "serve" }\n'
FLOAT = 'attr { key: "T" value { type: DT_FLOAT } }'


def placeholder(name="x"):
    return ('    node { name: "%s" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }'
            ' attr { key: "shape" value { shape { dim { size: 2 } } } } }\n' % name)


def signature(key, out):
    return ('  signature_def { key: "%s" value {\n'
            '    inputs { key: "x" value { name: "x:0" dtype: DT_FLOAT tensor_shape { dim { size: 2 } } } }\n'
            '    outputs { key: "y" value { name: "%s" dtype: DT_FLOAT tensor_shape { dim { size: 2 } } } }\n'
            '    method_name: "tensorflow/serving/predict" } }\n' % (key, out))


def call(name, inp, fname):
    return ('    node { name: "%s" op: "StatefulPartitionedCall" input: "%s"'
            ' attr { key: "f" value { func { name: "%s" } } }'
            ' attr { key: "Tin" value { list { type: DT_FLOAT } } }'
            ' attr { key: "Tout" value { list { type: DT_FLOAT } } } }\n' % (name, inp, fname))


def graph(nodes, library=""):
    return ("  graph_def {\n    versions { producer: 1000 }\n" + "".join(nodes) + library + "  }\n")


def signatures(n):
    nodes = [placeholder()]
    nodes += ['    node { name: "n%d" op: "Neg" input: "x" %s }\n' % (i, FLOAT) for i in range(n)]
    sigs = [signature("s%d" % i, "n%d:0" % i) for i in range(n)]
    return HEAD + graph(nodes) + "".join(sigs) + "}\n"


def chain(n):
    nodes = [placeholder()]
    prev = "x"
    for i in range(n):
        nodes.append('    node { name: "n%d" op: "Neg" input: "%s" %s }\n' % (i, prev, FLOAT))
        prev = "n%d" % i
    return HEAD + graph(nodes) + signature("serving_default", prev + ":0") + "}\n"


def matmuls(n):
    nodes = ['    node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }'
             ' attr { key: "shape" value { shape { dim { size: 1 } dim { size: 2 } } } } }\n']
    prev = "x"
    for i in range(n):
        nodes.append('    node { name: "w%d" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }'
                     ' attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 }'
                     ' dim { size: 2 } } float_val: 0.5 } } } }\n' % i)
        nodes.append('    node { name: "m%d" op: "MatMul" input: "%s" input: "w%d" %s }\n' % (i, prev, i, FLOAT))
        prev = "m%d" % i
    sig = ('  signature_def { key: "serving_default" value {\n'
           '    inputs { key: "x" value { name: "x:0" dtype: DT_FLOAT tensor_shape { dim { size: 1 } dim { size: 2 } } } }\n'
           '    outputs { key: "y" value { name: "%s:0" dtype: DT_FLOAT tensor_shape { dim { size: 1 } dim { size: 2 } } } }\n'
           '    method_name: "tensorflow/serving/predict" } }\n' % prev)
    return HEAD + graph(nodes) + sig + "}\n"


def function(name, body, ret):
    return ('      function {\n        signature { name: "%s" input_arg { name: "a" type: DT_FLOAT }'
            ' output_arg { name: "b" type: DT_FLOAT } }\n%s        ret { key: "b" value: "%s" }\n'
            '      }\n' % (name, "".join(body), ret))


def body(n):
    lines = []
    prev = "a"
    for i in range(n):
        lines.append('        node_def { name: "n%d" op: "Neg" input: "%s" %s }\n' % (i, prev, FLOAT))
        prev = "n%d:y:0" % i
    lib = "    library {\n" + function("f", lines, prev) + "    }\n"
    nodes = [placeholder(), call("call", "x", "f")]
    return HEAD + graph(nodes, lib) + signature("serving_default", "call:0") + "}\n"


def calls(n):
    funcs = []
    for i in range(n):
        if i + 1 < n:
            b = ['        node_def { name: "c" op: "StatefulPartitionedCall" input: "a"'
                 ' attr { key: "f" value { func { name: "f%d" } } }'
                 ' attr { key: "Tin" value { list { type: DT_FLOAT } } }'
                 ' attr { key: "Tout" value { list { type: DT_FLOAT } } } }\n' % (i + 1)]
            ret = "c:output:0"
        else:
            b = ['        node_def { name: "c" op: "Neg" input: "a" %s }\n' % FLOAT]
            ret = "c:y:0"
        funcs.append(function("f%d" % i, b, ret))
    lib = "    library {\n" + "".join(funcs) + "    }\n"
    nodes = [placeholder(), call("call", "x", "f0")]
    return HEAD + graph(nodes, lib) + signature("serving_default", "call:0") + "}\n"


def nesting(n):
    # Each level is AttrValue -> NameAttrList -> map entry: three messages.
    levels = max(1, n // 3)
    inner = "i: 1"
    text = inner
    open_ = 'func { name: "g" attr { key: "k" value { '
    text = open_ * levels + inner + " } } }" * levels
    nodes = [placeholder(),
             '    node { name: "n" op: "Neg" input: "x" %s attr { key: "_deep" value { %s } } }\n'
             % (FLOAT, text)]
    return HEAD + graph(nodes) + signature("serving_default", "n:0") + "}\n"


def ifs(n):
    def fn(name, body, ret):
        return ('      function {\n        signature { name: "%s" input_arg { name: "c" type: DT_BOOL }'
                ' input_arg { name: "a" type: DT_FLOAT } output_arg { name: "b" type: DT_FLOAT } }\n'
                '%s        ret { key: "b" value: "%s" }\n      }\n' % (name, "".join(body), ret))

    def if_node(name, c, a, then):
        return ('%s { name: "%s" op: "If" input: "%s" input: "%s" input: "%s"'
                ' attr { key: "then_branch" value { func { name: "%s" } } }'
                ' attr { key: "else_branch" value { func { name: "leaf" } } }'
                ' attr { key: "Tcond" value { type: DT_BOOL } }'
                ' attr { key: "Tin" value { list { type: DT_BOOL type: DT_FLOAT } } }'
                ' attr { key: "Tout" value { list { type: DT_FLOAT } } } }\n' % (name[0], name[1], c, c, a, then))

    funcs = [fn("leaf", ['        node_def { name: "n" op: "Neg" input: "a" %s }\n' % FLOAT], "n:y:0")]
    for i in range(n):
        then = "f%d" % (i + 1) if i + 1 < n else "leaf"
        funcs.append(fn("f%d" % i, [if_node(("        node_def", "i"), "c", "a", then)], "i:output:0"))
    lib = "    library {\n" + "".join(funcs) + "    }\n"
    nodes = [placeholder(),
             '    node { name: "c" op: "Placeholder" attr { key: "dtype" value { type: DT_BOOL } }'
             ' attr { key: "shape" value { shape { } } } }\n',
             if_node(("    node", "top"), "c", "x", "f0")]
    sig = ('  signature_def { key: "serving_default" value {\n'
           '    inputs { key: "c" value { name: "c:0" dtype: DT_BOOL tensor_shape { } } }\n'
           '    inputs { key: "x" value { name: "x:0" dtype: DT_FLOAT tensor_shape { dim { size: 2 } } } }\n'
           '    outputs { key: "y" value { name: "top:0" dtype: DT_FLOAT tensor_shape { dim { size: 2 } } } }\n'
           '    method_name: "tensorflow/serving/predict" } }\n')
    return HEAD + graph(nodes, lib) + sig + "}\n"


KINDS = {"ifs": ifs, "matmuls": matmuls, "signatures": signatures, "chain": chain, "body": body, "calls": calls, "nesting": nesting}


def main():
    if len(sys.argv) != 4 or sys.argv[2] not in KINDS:
        sys.exit(__doc__)
    out, kind, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "saved_model.pbtxt"), "w") as f:
        f.write(KINDS[kind](n))


if __name__ == "__main__":
    main()
