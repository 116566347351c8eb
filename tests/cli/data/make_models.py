"""Makes the small models of tests/cli/test_cli.sh (run from the repository
root with .venv/bin/python tests/cli/data/make_models.py):

  odd_names.onnx       Relu -> Abs whose names hold quotes, a backslash and a
                       line break (--dot must escape them)
  unsupported_op.onnx  a Relu and an op of a domain oinfer lacks (--list-ops
                       lists it as unsupported; a run fails)
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
