"""Makes the small models of tests/cli/test_cli.sh (run from the repository
root with .venv/bin/python tests/cli/data/make_models.py):

  odd_names.onnx       Relu -> Abs whose names hold quotes, a backslash and a
                       line break (--dot must escape them)
  unsupported_op.onnx  a Relu and an op of a domain oinfer lacks (--list-ops
                       lists it as unsupported; a run fails)
  endless_loop.onnx    a Loop with trip count INT64_MAX and no condition
                       (--timeout must stop it)
"""
import onnx
from onnx import TensorProto, helper

HERE = "tests/cli/data"
x = 'x "in"'
mid = 'a\\b "q"\nz'
relu = helper.make_node("Relu", [x], [mid], name='re"lu\\1')
abs_ = helper.make_node("Abs", [mid], ["y"], name="abs")
g = helper.make_graph([relu, abs_], "odd_names", [helper.make_tensor_value_info(x, TensorProto.FLOAT, [2])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), f"{HERE}/odd_names.onnx")

foo = helper.make_node("FooBar", ["h"], ["y"], name="foo", domain="com.example")
relu = helper.make_node("Relu", ["x"], ["h"], name="relu")
g = helper.make_graph([relu, foo], "unsupported_op", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.example", 3)]),
          f"{HERE}/unsupported_op.onnx")

# Loop(M = INT64_MAX, cond = "") carrying x -> x + 1: runs until stopped.
one = helper.make_tensor("one", TensorProto.FLOAT, [], [1.0])
body = helper.make_graph(
    [helper.make_node("Identity", ["cond_in"], ["cond_out"], name="keep_going"),
     helper.make_node("Add", ["v_in", "one"], ["v_out"], name="step")],
    "body",
    [helper.make_tensor_value_info("i", TensorProto.INT64, []), helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
     helper.make_tensor_value_info("v_in", TensorProto.FLOAT, [1])],
    [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []), helper.make_tensor_value_info("v_out", TensorProto.FLOAT, [1])],
    [one])
m = helper.make_tensor("M", TensorProto.INT64, [], [2**63 - 1])
loop = helper.make_node("Loop", ["M", "", "x"], ["y"], name="forever", body=body)
g = helper.make_graph([loop], "endless_loop", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])], [m])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), f"{HERE}/endless_loop.onnx")
