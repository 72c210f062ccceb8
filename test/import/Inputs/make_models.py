"""Builds the small ONNX models the import tests use, with onnx's helpers.

Usage: make_models.py OUTPUT_DIR. Each model is written as <name>.onnx next to
the inputs (<name>.in.npz) and the expected outputs (<name>.golden.npz)
computed here with numpy, independently of prec.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(0)


def save(name, nodes, inputs, outputs, initializers=(), opset=17, golden=None):
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(k, TensorProto.FLOAT, v.shape)
         for k, v in inputs.items()],
        [helper.make_tensor_value_info(k, TensorProto.FLOAT, None)
         for k in golden],
        [numpy_helper.from_array(v, k) for k, v in initializers])
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.save(model, os.path.join(out, name + ".onnx"))
    np.savez(os.path.join(out, name + ".in.npz"), **inputs)
    np.savez(os.path.join(out, name + ".golden.npz"), **golden)


def f32(*shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


# Polygraphy's needs_constraints: x -> MatMul -> Add -> Sub -> MatMul.
rot90 = np.array([[0, 1], [1, 0]], np.float32)
fp16_max = np.array([65504], np.float32)
x = np.array([[[1, 1.5], [1.25, 2]]], np.float32)
save("needs_constraints",
     [helper.make_node("MatMul", ["x", "rot90"], ["m"], name="MatMul"),
      helper.make_node("Add", ["m", "fp16_max"], ["a"], name="Add"),
      helper.make_node("Sub", ["a", "fp16_max"], ["s"], name="Sub"),
      helper.make_node("MatMul", ["s", "rot90"], ["y"], name="MatMul_1")],
     {"x": x}, None, [("rot90", rot90), ("fp16_max", fp16_max)],
     golden={"y": ((x @ rot90 + fp16_max) - fp16_max) @ rot90})

# Elementwise arithmetic with broadcasting.
a, b = f32(2, 3, 4), f32(3, 1)
pos = np.abs(f32(2, 3, 4)) + 0.5
save("elementwise",
     [helper.make_node("Add", ["a", "b"], ["add"]),
      helper.make_node("Sub", ["a", "b"], ["sub"]),
      helper.make_node("Mul", ["a", "b"], ["mul"]),
      helper.make_node("Div", ["a", "b"], ["div"]),
      helper.make_node("Pow", ["p", "two"], ["pow"]),
      helper.make_node("Sqrt", ["p"], ["sqrt"]),
      helper.make_node("Exp", ["a"], ["exp"]),
      helper.make_node("Log", ["p"], ["log"]),
      helper.make_node("Neg", ["a"], ["neg"]),
      helper.make_node("Abs", ["a"], ["abs"]),
      helper.make_node("Reciprocal", ["p"], ["reciprocal"])],
     {"a": a, "b": b, "p": pos}, None, [("two", np.array([2], np.float32))],
     golden={"add": a + b, "sub": a - b, "mul": a * b, "div": a / b,
             "pow": pos ** 2, "sqrt": np.sqrt(pos), "exp": np.exp(a),
             "log": np.log(pos), "neg": -a, "abs": np.abs(a),
             "reciprocal": 1 / pos})
