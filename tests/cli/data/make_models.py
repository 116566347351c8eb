"""Makes the small models of tests/cli/test_cli.sh (run from the repository
root with .venv/bin/python tests/cli/data/make_models.py):

  odd_names.onnx       Relu -> Abs whose names hold quotes, a backslash and a
                       line break (--dot must escape them)
  unsupported_op.onnx  a Relu and an op of a domain oinfer lacks (--list-ops
                       lists it as unsupported; a run fails)
  endless_loop.onnx    a Loop with trip count INT64_MAX and no condition
                       (--timeout must stop it)
  extract.onnx         for --extract: x -> Add(W1) -> a -> Relu -> b -> Mul(W2)
                       -> m; an If on `cond` whose branches read m, a and b
                       from the outer scope -> y_if; a model-local function
                       Scale2 (Mul by a Constant 2) on b -> s; z = y_if + s;
                       a second output n = Neg(x)
  extract_ext.onnx     the same model with its weights in extract_ext.data
                       (external data)
  extract_ir3.onnx     IR version 3 (initializers listed as graph inputs too):
                       x -> Add(w) -> a -> Relu -> b -> Mul(w) -> c, with
                       value_info declaring a as [q] and b as [3]
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
# ---- extract.onnx / extract_ext.onnx --------------------------------------
import numpy as np
from onnx import numpy_helper

f32 = TensorProto.FLOAT
w1 = numpy_helper.from_array(np.array([-0.5, 0.25, 0.75], dtype=np.float32), "W1")
w2 = numpy_helper.from_array(np.array([1.5, -2.0, 3.0], dtype=np.float32), "W2")
unused = numpy_helper.from_array(np.ones([4], dtype=np.float32), "unused_w")
then_g = helper.make_graph([helper.make_node("Add", ["m", "a"], ["t_out"], name="then_add")], "then_branch", [],
                          [helper.make_tensor_value_info("t_out", f32, None)])
else_g = helper.make_graph([helper.make_node("Sub", ["m", "b"], ["e_out"], name="else_sub")], "else_branch", [],
                           [helper.make_tensor_value_info("e_out", f32, None)])
scale2 = helper.make_function(
    "local.fn", "Scale2", ["v"], ["r"],
    [helper.make_node("Constant", [], ["two"], value=helper.make_tensor("two_t", f32, [], [2.0])),
     helper.make_node("Mul", ["v", "two"], ["r"])],
    [helper.make_opsetid("", 17)])
nodes = [
    helper.make_node("Add", ["x", "W1"], ["a"], name="add_w1"),
    helper.make_node("Relu", ["a"], ["b"], name="relu"),
    helper.make_node("Mul", ["b", "W2"], ["m"], name="mul_w2"),
    helper.make_node("If", ["cond"], ["y_if"], name="branch", then_branch=then_g, else_branch=else_g),
    helper.make_node("Scale2", ["b"], ["s"], name="scale2", domain="local.fn"),
    helper.make_node("Add", ["y_if", "s"], ["z"], name="add_z"),
    helper.make_node("Neg", ["x"], ["n"], name="neg"),
]
g = helper.make_graph(nodes, "extract", [helper.make_tensor_value_info("x", f32, ["batch", 3]),
                                         helper.make_tensor_value_info("cond", TensorProto.BOOL, [])],
                      [helper.make_tensor_value_info("z", f32, ["batch", 3]),
                       helper.make_tensor_value_info("n", f32, ["batch", 3])],
                      initializer=[w1, w2, unused])
model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("local.fn", 1)],
                          functions=[scale2], producer_name="make_models.py")
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, f"{HERE}/extract.onnx")
import os
if os.path.exists(f"{HERE}/extract_ext.data"):  # onnx.save appends to an existing data file
    os.remove(f"{HERE}/extract_ext.data")
onnx.save(model, f"{HERE}/extract_ext.onnx", save_as_external_data=True, all_tensors_to_one_file=True,
          location="extract_ext.data", size_threshold=0)

# ---- extract_ir3.onnx -----------------------------------------------------
w = numpy_helper.from_array(np.array([1, 2, 3], np.float32), "w")
nodes = [helper.make_node("Add", ["x", "w"], ["a"], name="add"), helper.make_node("Relu", ["a"], ["b"], name="relu"),
         helper.make_node("Mul", ["b", "w"], ["c"], name="mul")]
g = helper.make_graph(nodes, "ir3", [helper.make_tensor_value_info("x", f32, [3]), helper.make_tensor_value_info("w", f32, [3])],
                      [helper.make_tensor_value_info("c", f32, [3])], initializer=[w],
                      value_info=[helper.make_tensor_value_info("a", f32, ["q"]), helper.make_tensor_value_info("b", f32, [3])])
model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 7)], producer_name="make_models.py")
model.ir_version = 3
onnx.checker.check_model(model)
onnx.save(model, f"{HERE}/extract_ir3.onnx")
