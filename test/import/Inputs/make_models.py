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
        [helper.make_tensor_value_info(
            k, onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[v.dtype], v.shape)
         for k, v in inputs.items()],
        [helper.make_tensor_value_info(
            k, onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[v.dtype], None)
         for k, v in golden.items()],
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
      helper.make_node("Div", ["a", "two"], ["half"]),
      helper.make_node("Pow", ["p", "two"], ["pow"]),
      helper.make_node("Sqrt", ["p"], ["sqrt"]),
      helper.make_node("Exp", ["a"], ["exp"]),
      helper.make_node("Log", ["p"], ["log"]),
      helper.make_node("Neg", ["a"], ["neg"]),
      helper.make_node("Abs", ["a"], ["abs"]),
      helper.make_node("Reciprocal", ["p"], ["reciprocal"]),
      helper.make_node("Erf", ["a"], ["erf"])],
     {"a": a, "b": b, "p": pos}, None, [("two", np.array([2], np.float32))],
     golden={"add": a + b, "sub": a - b, "mul": a * b, "div": a / b,
             "half": a / 2, "pow": pos ** 2, "sqrt": np.sqrt(pos), "exp": np.exp(a),
             "log": np.log(pos), "neg": -a, "abs": np.abs(a),
             "reciprocal": 1 / pos,
             "erf": np.vectorize(__import__("math").erf)(a).astype(np.float32)})


def conv2d(x, w, b, strides, pads, dilations, group):
    """NCHW convolution by explicit sums (pads: top, left, bottom, right)."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (h + pads[0] + pads[2] - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (wd + pads[1] + pads[3] - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    y = np.zeros((n, o, oh, ow), np.float64)
    per_group = o // group
    for oc in range(o):
        g = oc // per_group
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, g * cg:(g + 1) * cg,
                           i * strides[0]:i * strides[0] + dilations[0] * (kh - 1) + 1:dilations[0],
                           j * strides[1]:j * strides[1] + dilations[1] * (kw - 1) + 1:dilations[1]]
                y[:, oc, i, j] = np.sum(patch * w[oc], axis=(1, 2, 3)) + b[oc]
    return y.astype(np.float32)


def conv_transpose2d(x, w, b, strides, pads):
    """ConvTranspose by scattering (weights [I, O, KH, KW])."""
    n, c, h, wd = x.shape
    _, o, kh, kw = w.shape
    full = np.zeros((n, o, (h - 1) * strides[0] + kh, (wd - 1) * strides[1] + kw))
    for i in range(h):
        for j in range(wd):
            full[:, :, i * strides[0]:i * strides[0] + kh,
                 j * strides[1]:j * strides[1] + kw] += np.einsum(
                     "nc,cokl->nokl", x[:, :, i, j], w)
    y = full[:, :, pads[0]:full.shape[2] - pads[2], pads[1]:full.shape[3] - pads[3]]
    return (y + b[None, :, None, None]).astype(np.float32)


# Convolutions: plain with stride/pad/dilation (its bias aliased through
# Identity, as exporters share weights), grouped, depthwise, transposed.
img = f32(1, 4, 9, 9)
w1, b1 = f32(6, 4, 3, 3), f32(6)
w2, b2 = f32(6, 2, 3, 3), f32(6)
w3, b3 = f32(8, 1, 3, 3), f32(8)
wt, bt = f32(4, 3, 3, 3), f32(3)
save("conv",
     [helper.make_node("Identity", ["b1"], ["b1_alias"]),
      helper.make_node("Conv", ["img", "w1", "b1_alias"], ["plain"],
                       strides=[2, 1], pads=[1, 0, 1, 2], dilations=[1, 2]),
      helper.make_node("Conv", ["img", "w2", "b2"], ["grouped"], group=2,
                       pads=[1, 1, 1, 1]),
      helper.make_node("Conv", ["img", "w3", "b3"], ["depthwise"], group=4),
      helper.make_node("ConvTranspose", ["img", "wt", "bt"], ["transposed"],
                       strides=[2, 2], pads=[1, 1, 1, 1])],
     {"img": img}, None,
     [("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2), ("w3", w3),
      ("b3", b3), ("wt", wt), ("bt", bt)],
     golden={"plain": conv2d(img, w1, b1, [2, 1], [1, 0, 1, 2], [1, 2], 1),
             "grouped": conv2d(img, w2, b2, [1, 1], [1, 1, 1, 1], [1, 1], 2),
             "depthwise": conv2d(img, w3, b3, [1, 1], [0, 0, 0, 0], [1, 1], 4),
             "transposed": conv_transpose2d(img, wt, bt, [2, 2], [1, 1, 1, 1])})

# Gemm (alpha, beta, transposes) and batched, broadcasting MatMul.
ga, gb, gc = f32(3, 5), f32(4, 5), f32(4)
ma, mb = f32(2, 3, 4, 5), f32(5, 6)
mv = f32(5)
save("matmul",
     [helper.make_node("Gemm", ["ga", "gb", "gc"], ["gemm"], alpha=0.5,
                       beta=2.0, transB=1),
      helper.make_node("MatMul", ["ma", "mb"], ["batched"]),
      helper.make_node("MatMul", ["ma", "mv"], ["vector"])],
     {"ga": ga, "ma": ma}, None, [("gb", gb), ("gc", gc), ("mb", mb),
                                  ("mv", mv)],
     golden={"gemm": 0.5 * ga @ gb.T + 2.0 * gc, "batched": ma @ mb,
             "vector": ma @ mv})

# Activations.
act = f32(2, 8) * 4
erf = np.vectorize(__import__("math").erf)
save("activations",
     [helper.make_node("Relu", ["x"], ["relu"]),
      helper.make_node("LeakyRelu", ["x"], ["leaky"], alpha=0.1),
      helper.make_node("Sigmoid", ["x"], ["sigmoid"]),
      helper.make_node("Tanh", ["x"], ["tanh"]),
      helper.make_node("Gelu", ["x"], ["gelu"]),
      helper.make_node("Gelu", ["x"], ["gelu_tanh"], approximate="tanh"),
      helper.make_node("HardSwish", ["x"], ["hardswish"]),
      helper.make_node("HardSigmoid", ["x"], ["hardsigmoid"], alpha=1 / 6),
      helper.make_node("Clip", ["x", "lo", "hi"], ["clip"])],
     {"x": act}, None, [("lo", np.array(-1, np.float32)),
                        ("hi", np.array(2, np.float32))], opset=20,
     golden={"relu": np.maximum(act, 0), "leaky": np.where(act >= 0, act, 0.1 * act),
             "sigmoid": 1 / (1 + np.exp(-act)), "tanh": np.tanh(act),
             "gelu": (0.5 * act * (1 + erf(act / np.sqrt(2)))).astype(np.float32),
             "gelu_tanh": (0.5 * act * (1 + np.tanh(np.sqrt(2 / np.pi) * (
                 act + 0.044715 * act ** 3)))).astype(np.float32),
             "hardswish": act * np.clip(act + 3, 0, 6) / 6,
             "hardsigmoid": np.clip(act / 6 + 0.5, 0, 1),
             "clip": np.clip(act, -1, 2)})

# Normalizations and softmax.
nx = f32(2, 3, 4, 4)
scale, bias, mean, var = f32(3), f32(3), f32(3), np.abs(f32(3)) + 0.5
gamma, beta = f32(4), f32(4)
sx = f32(2, 5) * 3
mu = nx.mean(axis=-1, keepdims=True)
sigma2 = ((nx - mu) ** 2).mean(axis=-1, keepdims=True)
e = np.exp(sx - sx.max(axis=1, keepdims=True))
save("normalization",
     [helper.make_node("BatchNormalization", ["nx", "scale", "bias", "mean", "var"],
                       ["batchnorm"], epsilon=1e-3),
      helper.make_node("LayerNormalization", ["nx", "gamma", "beta"],
                       ["layernorm"], axis=-1, epsilon=1e-5),
      helper.make_node("Softmax", ["sx"], ["softmax"], axis=1),
      helper.make_node("LogSoftmax", ["sx"], ["logsoftmax"], axis=-1)],
     {"nx": nx, "sx": sx}, None,
     [("scale", scale), ("bias", bias), ("mean", mean), ("var", var),
      ("gamma", gamma), ("beta", beta)],
     golden={"batchnorm": ((nx - mean[None, :, None, None]) /
                           np.sqrt(var[None, :, None, None] + 1e-3) *
                           scale[None, :, None, None] + bias[None, :, None, None]),
             "layernorm": (nx - mu) / np.sqrt(sigma2 + 1e-5) * gamma + beta,
             "softmax": e / e.sum(axis=1, keepdims=True),
             "logsoftmax": np.log(e / e.sum(axis=1, keepdims=True))})

# Normalizations on activations of the size transformers reach after
# attention, N(0, 500): their squares overflow f16, so only statistics kept
# in f32 give the right values under enabled=f16.
big = lambda *shape: rng.normal(0, 500, shape).astype(np.float32)


def layer_norm(x, axes, eps, centered=True):
    x = x.astype(np.float64)
    c = x - x.mean(axis=axes, keepdims=True) if centered else x
    return c / np.sqrt((c * c).mean(axis=axes, keepdims=True) + eps)


lx = big(2, 8, 64)
lgamma, lbeta = f32(64), f32(64)
save("ln_big",
     [helper.make_node("LayerNormalization", ["x", "gamma", "beta"], ["y"],
                       name="ln", axis=-1, epsilon=1e-5)],
     {"x": lx}, None, [("gamma", lgamma), ("beta", lbeta)],
     golden={"y": (layer_norm(lx, -1, 1e-5) * lgamma + lbeta).astype(np.float32)})

# The legacy exporter's LayerNorm at opset 13: ReduceMean, Sub, Pow,
# ReduceMean, Add, Sqrt, Div, Mul, Add.
save("ln_decomposed",
     [helper.make_node("ReduceMean", ["x"], ["mean"], name="mean", axes=[-1]),
      helper.make_node("Sub", ["x", "mean"], ["centered"], name="sub"),
      helper.make_node("Pow", ["centered", "two"], ["square"], name="pow"),
      helper.make_node("ReduceMean", ["square"], ["var"], name="var", axes=[-1]),
      helper.make_node("Add", ["var", "eps"], ["var_eps"], name="add_eps"),
      helper.make_node("Sqrt", ["var_eps"], ["std"], name="sqrt"),
      helper.make_node("Div", ["centered", "std"], ["normalized"], name="div"),
      helper.make_node("Mul", ["normalized", "gamma"], ["scaled"], name="gamma"),
      helper.make_node("Add", ["scaled", "beta"], ["y"], name="beta")],
     {"x": lx}, None,
     [("two", np.array(2, np.float32)), ("eps", np.array(1e-5, np.float32)),
      ("gamma", lgamma), ("beta", lbeta)], opset=13,
     golden={"y": (layer_norm(lx, -1, 1e-5) * lgamma + lbeta).astype(np.float32)})

# LLaMA's RMSNorm as exported at opset 18 (ReduceMean takes its axes as an
# input): Pow, ReduceMean, Add, Sqrt, Reciprocal, Mul, Mul.
rweight = f32(64)
save("rmsnorm",
     [helper.make_node("Pow", ["x", "two"], ["square"], name="pow"),
      helper.make_node("ReduceMean", ["square", "axes"], ["ms"], name="mean"),
      helper.make_node("Add", ["ms", "eps"], ["ms_eps"], name="add_eps"),
      helper.make_node("Sqrt", ["ms_eps"], ["rms"], name="sqrt"),
      helper.make_node("Reciprocal", ["rms"], ["inv"], name="reciprocal"),
      helper.make_node("Mul", ["x", "inv"], ["normalized"], name="normalize"),
      helper.make_node("Mul", ["weight", "normalized"], ["y"], name="weight")],
     {"x": lx}, None,
     [("two", np.array(2, np.float32)), ("axes", np.array([-1], np.int64)),
      ("eps", np.array(1e-6, np.float32)), ("weight", rweight)], opset=18,
     golden={"y": (layer_norm(lx, -1, 1e-6, centered=False) *
                   rweight).astype(np.float32)})

# GroupNormalization (opset 21: scale and bias per channel; opset 18: per
# group) and InstanceNormalization, over 8 channels of 4x4.
gx = big(2, 8, 4, 4)
gscale, gbias = f32(8), f32(8)
per_channel = lambda v: v[None, :, None, None]
grouped = layer_norm(gx.reshape(2, 4, 32), -1, 1e-5).reshape(gx.shape)
save("groupnorm",
     [helper.make_node("GroupNormalization", ["x", "scale", "bias"], ["y"],
                       name="gn", num_groups=4, epsilon=1e-5)],
     {"x": gx}, None, [("scale", gscale), ("bias", gbias)], opset=21,
     golden={"y": (grouped * per_channel(gscale) +
                   per_channel(gbias)).astype(np.float32)})
gscale4, gbias4 = f32(4), f32(4)
save("groupnorm18",
     [helper.make_node("GroupNormalization", ["x", "scale", "bias"], ["y"],
                       name="gn", num_groups=4, epsilon=1e-5)],
     {"x": gx}, None, [("scale", gscale4), ("bias", gbias4)], opset=18,
     golden={"y": (grouped * per_channel(np.repeat(gscale4, 2)) +
                   per_channel(np.repeat(gbias4, 2))).astype(np.float32)})
save("instancenorm",
     [helper.make_node("InstanceNormalization", ["x", "scale", "bias"], ["y"],
                       name="in", epsilon=1e-5)],
     {"x": gx}, None, [("scale", gscale), ("bias", gbias)],
     golden={"y": (layer_norm(gx, (2, 3), 1e-5) * per_channel(gscale) +
                   per_channel(gbias)).astype(np.float32)})

# Shape computations and a causal mask that fold at import: the legacy
# exporter's head split (Shape, Gather, Unsqueeze, Concat, Reshape) and a
# mask from positions alone (Range, Unsqueeze, LessOrEqual, Where).
hx = f32(2, 4, 8)
heads = hx.reshape(2, 4, 2, 4).transpose(0, 2, 1, 3)
causal = np.where(np.arange(4)[None, :] <= np.arange(4)[:, None], 0,
                  np.finfo(np.float32).min).astype(np.float32)
i64 = lambda *v: np.array(v, np.int64)
save("folding",
     [helper.make_node("Shape", ["x"], ["shape"], name="shape"),
      helper.make_node("Gather", ["shape", "zero"], ["batch"], name="batch"),
      helper.make_node("Gather", ["shape", "one"], ["length"], name="length"),
      helper.make_node("Unsqueeze", ["batch", "axis0"], ["batch1"], name="unsqueeze"),
      helper.make_node("Concat", ["batch1", "rest"], ["target"], name="target", axis=0),
      helper.make_node("Reshape", ["x", "target"], ["split"], name="split"),
      helper.make_node("Transpose", ["split"], ["heads"], name="heads", perm=[0, 2, 1, 3]),
      helper.make_node("Range", ["zero", "length", "one"], ["positions"], name="range"),
      helper.make_node("Unsqueeze", ["positions", "axis1"], ["rows"], name="rows"),
      helper.make_node("LessOrEqual", ["positions", "rows"], ["allowed"], name="allowed"),
      helper.make_node("Where", ["allowed", "fzero", "fmin"], ["mask"], name="mask"),
      helper.make_node("Add", ["heads", "mask"], ["y"], name="masked")],
     {"x": hx}, None,
     [("zero", i64(0).reshape(())), ("one", i64(1).reshape(())), ("axis0", i64(0)),
      ("axis1", i64(1)), ("rest", i64(-1, 2, 4)),
      ("fzero", np.array(0, np.float32)),
      ("fmin", np.array(np.finfo(np.float32).min, np.float32))],
     golden={"y": heads + causal})

# Embeddings: Gather with indices only known at run time (int64 token ids,
# a negative one among them), along the first axis and a later one.
table = f32(10, 4)
ids = np.array([[1, 9, 0, -1, 3], [2, 2, 7, 5, 4]], np.int64)
columns = np.array([3, -4, 1], np.int32)
save("embedding",
     [helper.make_node("Gather", ["table", "ids"], ["rows"], name="embed"),
      helper.make_node("Gather", ["table", "columns"], ["picked"], name="pick",
                       axis=1)],
     {"ids": ids, "columns": columns}, None, [("table", table)],
     golden={"rows": table[ids],
             "picked": np.ascontiguousarray(table[:, columns])})

# An attention mask computed at run time from int64 attention_mask:
# Equal, Not, Where, Unsqueeze, Expand, comparisons and logic, and a Tile.
amask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], np.int64)
scores = f32(2, 1, 5, 5)
fmin = np.finfo(np.float32).min
padded = (amask == 0)[:, None, None, :]
save("runtime_mask",
     [helper.make_node("Equal", ["mask", "zero"], ["pad"], name="pad"),
      helper.make_node("Unsqueeze", ["pad", "axes"], ["pad4"], name="unsqueeze"),
      helper.make_node("Where", ["pad4", "fmin", "fzero"], ["bias"], name="bias"),
      helper.make_node("Expand", ["bias", "shape"], ["bias_full"], name="expand"),
      helper.make_node("Add", ["scores", "bias_full"], ["masked"], name="masked"),
      helper.make_node("Greater", ["scores", "fzero"], ["positive"], name="positive"),
      helper.make_node("LessOrEqual", ["scores", "half"], ["small"], name="small"),
      helper.make_node("And", ["positive", "small"], ["both"], name="both"),
      helper.make_node("Not", ["both"], ["neither"], name="neither"),
      helper.make_node("Or", ["neither", "pad4"], ["any"], name="any"),
      helper.make_node("Where", ["any", "scores", "fzero"], ["kept"], name="kept"),
      helper.make_node("Tile", ["kept", "repeats"], ["tiled"], name="tile")],
     {"mask": amask, "scores": scores}, None,
     [("zero", np.array(0, np.int64)), ("axes", np.array([1, 2], np.int64)),
      ("fmin", np.array(fmin, np.float32)), ("fzero", np.array(0, np.float32)),
      ("half", np.array(0.5, np.float32)),
      ("shape", np.array([2, 1, 5, 5], np.int64)),
      ("repeats", np.array([1, 2, 1, 1], np.int64))],
     golden={"masked": scores + np.where(padded, fmin, 0).astype(np.float32),
             "tiled": np.tile(np.where(~((scores > 0) & (scores <= 0.5)) | padded,
                                       scores, 0).astype(np.float32),
                              (1, 2, 1, 1))})

# RoBERTa's position ids from input_ids at run time (Equal, Not, Cast,
# CumSum, Mul, Add), a reversed exclusive CumSum of floats, and Pad in each
# mode, with a crop.
tokens = np.array([[0, 5, 7, 9, 1, 1, 1], [0, 4, 4, 4, 4, 4, 2]], np.int64)
ones_mask = (tokens != 1).astype(np.int32)
cx = f32(2, 7)
px = f32(1, 2, 4, 5)
pads = np.array([0, 0, 2, -1, 0, 0, 1, 3], np.int64)


def pad_numpy(x, mode):
    cropped = x[:, :, :, 1:]
    width = [(0, 0), (0, 0), (2, 1), (0, 3)]
    if mode == "constant":
        return np.pad(cropped, width, constant_values=0.5)
    return np.pad(cropped, width, mode={"edge": "edge", "reflect": "reflect",
                                        "wrap": "wrap"}[mode])


save("scans",
     [helper.make_node("Equal", ["tokens", "one"], ["is_pad"], name="is_pad"),
      helper.make_node("Not", ["is_pad"], ["not_pad"], name="not_pad"),
      helper.make_node("Cast", ["not_pad"], ["mask"], name="mask", to=TensorProto.INT32),
      helper.make_node("CumSum", ["mask", "axis1"], ["counts"], name="cumsum"),
      helper.make_node("Mul", ["counts", "mask"], ["kept"], name="kept"),
      helper.make_node("Cast", ["kept"], ["kept64"], name="kept64", to=TensorProto.INT64),
      helper.make_node("Add", ["kept64", "one"], ["positions"], name="positions"),
      helper.make_node("CumSum", ["cx", "axis1"], ["suffix"], name="suffix",
                       exclusive=1, reverse=1)] +
     [helper.make_node("Pad", ["px", "pads"] + (["half"] if mode == "constant" else []),
                       ["pad_" + mode], name="pad_" + mode, mode=mode)
      for mode in ("constant", "edge", "reflect", "wrap")] +
     # Swin's patch merging, x[:, :, 0::2, 1::2], and negative steps.
     [helper.make_node("Slice", ["px", "s_starts", "s_ends", "s_axes", "s_steps"],
                       ["strided"], name="strided"),
      helper.make_node("Slice", ["px", "b_starts", "b_ends", "s_axes", "b_steps"],
                       ["backward"], name="backward"),
      # A step far beyond the axis takes one element.
      helper.make_node("Slice", ["px", "h_starts", "h_ends", "h_axes", "h_steps"],
                       ["one_step"], name="one_step")],
     {"tokens": tokens, "cx": cx, "px": px}, None,
     [("one", np.array(1, np.int64)), ("axis1", np.array(1, np.int64)),
      ("pads", pads), ("half", np.array(0.5, np.float32)),
      ("s_starts", np.array([0, 1], np.int64)),
      ("s_ends", np.array([2**63 - 1, 2**63 - 1], np.int64)),
      ("s_axes", np.array([2, 3], np.int64)), ("s_steps", np.array([2, 2], np.int64)),
      ("b_starts", np.array([-1, 4], np.int64)),
      ("b_ends", np.array([-2**63, 0], np.int64)),
      ("b_steps", np.array([-1, -3], np.int64)),
      ("h_starts", np.array([1], np.int64)), ("h_ends", np.array([5], np.int64)),
      ("h_axes", np.array([3], np.int64)), ("h_steps", np.array([2**62], np.int64))], opset=19,
     golden=dict(
         strided=np.ascontiguousarray(px[:, :, 0::2, 1::2]),
         backward=np.ascontiguousarray(px[:, :, ::-1, 4:0:-3]),
         one_step=np.ascontiguousarray(px[:, :, :, 1:2]),
         positions=(np.cumsum(ones_mask, axis=1) * ones_mask + 1).astype(np.int64),
         suffix=np.ascontiguousarray(
             (np.cumsum(cx[:, ::-1], axis=1)[:, ::-1] - cx).astype(np.float32)),
         **{"pad_" + m: pad_numpy(px, m) for m in
            ("constant", "edge", "reflect", "wrap")}))

# GatherElements with run-time indices (a negative one among them), and
# GatherND with known indices, without and with a batch dimension.
gdata = f32(3, 4)
gidx = np.array([[2, -1, 0, 1], [0, 0, 2, 2]], np.int64)
ndata = f32(2, 3, 4)
nd_idx = np.array([[[1, 2]], [[0, -1]]], np.int64)
nd_batch = np.array([[2], [0]], np.int64)
save("gathers",
     [helper.make_node("GatherElements", ["gdata", "gidx"], ["elements"],
                       name="elements", axis=0),
      helper.make_node("GatherND", ["ndata", "nd_idx"], ["nd"], name="nd"),
      helper.make_node("GatherND", ["ndata", "nd_batch"], ["nd_batched"],
                       name="nd_batched", batch_dims=1)],
     {"gdata": gdata, "gidx": gidx, "ndata": ndata}, None,
     [("nd_idx", nd_idx), ("nd_batch", nd_batch)],
     golden={"elements": np.take_along_axis(gdata, gidx % 3, axis=0),
             "nd": np.stack([ndata[1, 2], ndata[0, -1]])[:, None, :],
             "nd_batched": np.stack([ndata[0, 2], ndata[1, 0]])})

# Einsum as transformers write it, Trilu and Mod of run-time tensors,
# Sin and Cos (rotary embeddings).
q, k = f32(2, 3, 4, 5), f32(2, 3, 6, 5)
w2, v1 = f32(5, 7), f32(7)
tri = f32(2, 4, 5)
ia = np.array([[7, -7, 5, 0], [-3, 9, -8, 1]], np.int64)
ib = np.array([3, 3, -2, 4], np.int64)
fa, fb = f32(2, 4) * 10, np.abs(f32(2, 4)) + 0.5
save("einsum",
     [helper.make_node("Einsum", ["q", "k"], ["scores"], name="scores",
                       equation="bhid,bhjd->bhij"),
      helper.make_node("Einsum", ["q", "w2"], ["projected"], name="projected",
                       equation="bhid, de -> bhie"),
      helper.make_node("Einsum", ["v1", "v1"], ["outer"], name="outer",
                       equation="i,j->ij"),
      helper.make_node("Einsum", ["q"], ["summed"], name="summed",
                       equation="bhid->hb"),
      helper.make_node("Einsum", ["q", "k"], ["implicit"], name="implicit",
                       equation="bhid,bhjd"),
      helper.make_node("Trilu", ["tri"], ["upper"], name="upper"),
      helper.make_node("Trilu", ["tri", "minus_one"], ["lower"], name="lower",
                       upper=0),
      helper.make_node("Mod", ["ia", "ib"], ["python_mod"], name="python_mod"),
      helper.make_node("Mod", ["ia", "ib"], ["c_mod"], name="c_mod", fmod=1),
      helper.make_node("Mod", ["fa", "fb"], ["float_mod"], name="float_mod", fmod=1),
      helper.make_node("Sin", ["fa"], ["sin"], name="sin"),
      helper.make_node("Cos", ["fa"], ["cos"], name="cos"),
      helper.make_node("Dropout", ["fa", "ratio"], ["dropped"], name="dropout")],
     {"q": q, "k": k, "tri": tri, "ia": ia, "fa": fa, "fb": fb}, None,
     [("w2", w2), ("v1", v1), ("minus_one", np.array(-1, np.int64)),
      ("ib", ib), ("ratio", np.array(0.1, np.float32))],
     golden={"scores": np.einsum("bhid,bhjd->bhij", q, k),
             "projected": np.einsum("bhid,de->bhie", q, w2),
             "outer": np.einsum("i,j->ij", v1, v1),
             "summed": np.ascontiguousarray(np.einsum("bhid->hb", q)),
             "implicit": np.einsum("bhid,bhjd", q, k),
             "upper": np.triu(tri), "lower": np.tril(tri, -1),
             "python_mod": np.mod(ia, ib), "c_mod": np.fmod(ia, ib),
             "float_mod": np.fmod(fa, fb).astype(np.float32),
             "sin": np.sin(fa), "cos": np.cos(fa), "dropped": fa})

# A T5-style FFN whose activations pass 65504 on real data: plain f16 gives
# Inf, f16 with the ranges a calibration observed keeps those ops in f32.
fx = f32(4, 16)
fw1 = (f32(16, 64) * 3e4).astype(np.float32)
fw2 = (f32(64, 16) * 1e-4).astype(np.float32)
save("big_ffn",
     [helper.make_node("MatMul", ["x", "w1"], ["h"], name="wi"),
      helper.make_node("Relu", ["h"], ["a"], name="relu"),
      helper.make_node("MatMul", ["a", "w2"], ["y"], name="wo")],
     {"x": fx}, None, [("w1", fw1), ("w2", fw2)],
     golden={"y": np.maximum(fx @ fw1, 0) @ fw2})
np.savez(os.path.join(out, "big_ffn.calib.npz"), x=f32(16, 16))

# Pooling.
px = f32(1, 3, 6, 6)


def pool(x, k, s, p, op):
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)),
                constant_values=-np.inf if op == "max" else np.nan)
    oh = (x.shape[2] + 2 * p - k) // s + 1
    y = np.zeros((x.shape[0], x.shape[1], oh, oh), np.float32)
    for i in range(oh):
        for j in range(oh):
            win = xp[:, :, i * s:i * s + k, j * s:j * s + k]
            y[:, :, i, j] = win.max(axis=(2, 3)) if op == "max" else np.nanmean(win, axis=(2, 3))
    return y


save("pooling",
     [helper.make_node("MaxPool", ["px"], ["maxpool"], kernel_shape=[3, 3],
                       strides=[2, 2], pads=[1, 1, 1, 1]),
      helper.make_node("AveragePool", ["px"], ["avgpool"], kernel_shape=[2, 2],
                       strides=[2, 2]),
      helper.make_node("AveragePool", ["px"], ["avgpool_padded"],
                       kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1]),
      helper.make_node("GlobalAveragePool", ["px"], ["global"])],
     {"px": px}, None,
     golden={"maxpool": pool(px, 3, 2, 1, "max"), "avgpool": pool(px, 2, 2, 0, "avg"),
             "avgpool_padded": pool(px, 3, 1, 1, "avg"),
             "global": px.mean(axis=(2, 3), keepdims=True)})

# Shapes and data movement.
t = f32(2, 3, 4)
save("shapes",
     [helper.make_node("Flatten", ["t"], ["flatten"], axis=1),
      helper.make_node("Reshape", ["t", "shape"], ["reshape"]),
      helper.make_node("Transpose", ["t"], ["transpose"], perm=[2, 0, 1]),
      helper.make_node("Concat", ["t", "t"], ["concat"], axis=1),
      helper.make_node("Split", ["t", "split"], ["split0", "split1"], axis=2),
      helper.make_node("Slice", ["t", "starts", "ends", "axes"], ["slice"]),
      helper.make_node("Unsqueeze", ["t", "uaxes"], ["unsqueeze"]),
      helper.make_node("Squeeze", ["unsqueeze", "uaxes"], ["squeeze"]),
      helper.make_node("Gather", ["t", "indices"], ["gather"], axis=1),
      helper.make_node("Identity", ["t"], ["identity"]),
      helper.make_node("Shape", ["t"], ["shape_of"]),
      helper.make_node("Reshape", ["t", "shape_of"], ["same_shape"]),
      helper.make_node("Constant", [], ["three"],
                       value=numpy_helper.from_array(np.full((2, 3, 4), 3, np.float32))),
      helper.make_node("Mul", ["t", "three"], ["times_three"])],
     {"t": t}, None,
     [("shape", np.array([4, 0, -1], np.int64)),
      ("split", np.array([1, 3], np.int64)),
      ("starts", np.array([1, -3], np.int64)),
      # PyTorch exports "to the end" as INT64_MAX.
      ("ends", np.array([3, 2**63 - 1], np.int64)),
      ("axes", np.array([1, 2], np.int64)),
      ("uaxes", np.array([0, 3], np.int64)),
      ("indices", np.array([[2, 0], [1, -1]], np.int64))],
     golden={"flatten": t.reshape(2, 12), "reshape": t.reshape(4, 3, 2),
             "transpose": t.transpose(2, 0, 1), "concat": np.concatenate([t, t], 1),
             "split0": t[:, :, :1], "split1": t[:, :, 1:], "slice": t[:, 1:3, 1:],
             "unsqueeze": t[None, :, :, None], "squeeze": t,
             "gather": np.take(t, [[2, 0], [1, -1]], axis=1), "identity": t,
             "same_shape": t, "times_three": t * 3})

# Relu on integers clamps at the integer type's bounds, not float's (found
# by prec-fuzz-onnx: FLT_MAX was cast to int64).
ix = np.array([-3, -1, 0, 2, 5], np.float32)
save("integer_relu",
     [helper.make_node("Cast", ["ix"], ["i32"], to=TensorProto.INT32),
      helper.make_node("Relu", ["i32"], ["relu"]),
      helper.make_node("Cast", ["relu"], ["iy"], to=TensorProto.FLOAT)],
     {"ix": ix}, None, golden={"iy": np.maximum(ix, 0)})

# Reductions, with axes as attributes (opset 17) and as inputs (opset 18).
r = f32(2, 3, 4)
for opset in (17, 18):
    axes_nodes = []
    inits = [("sum_axes", np.array([1], np.int64))]
    if opset >= 18:
        inits += [("mean_axes", np.array([-1], np.int64)),
                  ("max_axes", np.array([0, 2], np.int64))]
        mean = helper.make_node("ReduceMean", ["r", "mean_axes"], ["mean"])
        mx = helper.make_node("ReduceMax", ["r", "max_axes"], ["max"], keepdims=0)
    else:
        mean = helper.make_node("ReduceMean", ["r"], ["mean"], axes=[-1])
        mx = helper.make_node("ReduceMax", ["r"], ["max"], axes=[0, 2], keepdims=0)
    save(f"reductions{opset}",
         [mean, mx, helper.make_node("ReduceSum", ["r", "sum_axes"], ["sum"])],
         {"r": r}, None, inits, opset=opset,
         golden={"mean": r.mean(axis=-1, keepdims=True), "max": r.max(axis=(0, 2)),
                 "sum": r.sum(axis=1, keepdims=True)})

# Casts (user intent) and int8 quantize / dequantize.
q = f32(3, 4) * 3
q16 = q.astype(np.float16)
quantized = np.clip(np.round(q / 0.05) + 3, -128, 127).astype(np.int8)
graph = helper.make_graph(
    [helper.make_node("Cast", ["q"], ["half"], to=TensorProto.FLOAT16),
     helper.make_node("Cast", ["half"], ["roundtrip"], to=TensorProto.FLOAT),
     helper.make_node("QuantizeLinear", ["q", "qscale", "qzero"], ["int8"]),
     helper.make_node("DequantizeLinear", ["int8", "qscale", "qzero"], ["dequantized"])],
    "casts",
    [helper.make_tensor_value_info("q", TensorProto.FLOAT, q.shape)],
    [helper.make_tensor_value_info("roundtrip", TensorProto.FLOAT, None),
     helper.make_tensor_value_info("int8", TensorProto.INT8, None),
     helper.make_tensor_value_info("dequantized", TensorProto.FLOAT, None)],
    [numpy_helper.from_array(np.array(0.05, np.float32), "qscale"),
     numpy_helper.from_array(np.array(3, np.int8), "qzero")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(out, "casts.onnx"))
np.savez(os.path.join(out, "casts.in.npz"), q=q)
np.savez(os.path.join(out, "casts.golden.npz"), roundtrip=q16.astype(np.float32),
         int8=quantized,
         dequantized=((quantized.astype(np.float32) - 3) * np.float32(0.05)))

# A large weight (stored as a resource blob) kept in an external data file.
big_w, big_x = f32(64, 48), f32(2, 64)
save("external",
     [helper.make_node("MatMul", ["big_x", "big_w"], ["big_y"], name="Dense")],
     {"big_x": big_x}, None, [("big_w", big_w)], golden={"big_y": big_x @ big_w})
model = onnx.load(os.path.join(out, "external.onnx"))
onnx.save(model, os.path.join(out, "external.onnx"), save_as_external_data=True,
          all_tensors_to_one_file=True, location="external.weights",
          size_threshold=0)

# External data entries that lie (found by prec-fuzz-onnx: a non-number
# offset threw out of the importer; offset + length could wrap int64) or
# point outside the model's folder.
for name, key, value in [("external_bad_offset", "offset", "12x"),
                         ("external_bad_length", "length", str(2**64)),
                         ("external_past_end", "length", str(2**63 - 1)),
                         ("external_escapes", "location", "../external.weights"),
                         ("external_absolute", "location", "/etc/passwd")]:
    lying = onnx.load(os.path.join(out, "external.onnx"), load_external_data=False)
    entries = lying.graph.initializer[0].external_data
    for entry in entries:
        if entry.key == key:
            entry.value = value
            break
    else:
        entries.add(key=key, value=value)
    onnx.save(lying, os.path.join(out, name + ".onnx"))

# Models that must be refused.
def bad(name, nodes, inputs, opset=17, outputs=("y",), initializers=()):
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(k, TensorProto.FLOAT, v) for k, v in inputs.items()],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outputs],
        list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.save(model, os.path.join(out, name + ".onnx"))


bad("unsupported", [helper.make_node("Hardmax", ["x"], ["y"], name="hm")], {"x": [2, 3]})
# Several nodes prec cannot import, one that depends on them and one fine.
bad("capability",
    [helper.make_node("Hardmax", ["x"], ["h1"], name="hm1"),
     helper.make_node("Hardmax", ["x"], ["h2"], name="hm2"),
     helper.make_node("Relu", ["h1"], ["r"], name="after_hm1"),
     helper.make_node("Softmax", ["x"], ["s"], name="softmax", axis=5),
     helper.make_node("Tanh", ["x"], ["y"], name="fine")],
    {"x": [2, 3]}, outputs=("y",))
bad("dynamic", [helper.make_node("Relu", ["x"], ["y"], name="r")], {"x": ["batch", 3]})
bad("old_opset", [helper.make_node("Relu", ["x"], ["y"], name="r")], {"x": [2, 3]}, opset=12)
bad("auto_pad", [helper.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[2, 2],
                                  auto_pad="SAME_UPPER")], {"x": [1, 1, 4, 4]})
bad("undefined_input", [helper.make_node("Add", ["x", "nowhere"], ["y"], name="add")], {"x": [2]})
bad("concat_axis", [helper.make_node("Concat", ["x", "x"], ["y"], name="join", axis=2)],
    {"x": [2, 3]})
bad("dynamic_reshape", [helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
    {"x": [2, 3], "s": [2]})
bad("concat_empty", [helper.make_node("Concat", [], ["y"], name="join", axis=0)], {"x": [2]})
bad("concat_shapes", [helper.make_node("Concat", ["x", "z"], ["y"], name="join", axis=0)],
    {"x": [2, 3], "z": [2]})
bad("no_output", [helper.make_node("Relu", ["x"], [], name="r")], {"x": [2]})
bad("reshape_overflow", [helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
    {"x": [2, 3]}, initializers=[numpy_helper.from_array(
        np.array([2**62, 3], np.int64), "s")])
# The same folded from a constant, INT64_MAX in its shape (found by
# prec-fuzz-onnx: as a double it rounds past int64).
bad("reshape_int64_max", [helper.make_node("Reshape", ["c", "s"], ["y"], name="reshape")],
    {}, initializers=[numpy_helper.from_array(np.zeros([0], np.float32), "c"),
                      numpy_helper.from_array(np.array([2**63 - 1], np.int64), "s")])
# Initializers whose dims disagree with their data (found by prec-fuzz-onnx:
# a tensor claiming 2^34 elements was allocated before its data was counted).
def tensor(name, dims, **fields):
    t = TensorProto(name=name, data_type=TensorProto.FLOAT, dims=dims)
    for field, value in fields.items():
        if field == "raw_data":
            t.raw_data = value
        else:
            getattr(t, field).extend(value)
    return t


add = [helper.make_node("Add", ["x", "w"], ["y"], name="add")]
bad("tensor_huge", add, {"x": [2]}, initializers=[tensor("w", [2**17, 2**17], raw_data=b"\0" * 8)])
bad("tensor_ragged", add, {"x": [2]}, initializers=[tensor("w", [2], raw_data=b"\0" * 7)])
bad("tensor_negative", add, {"x": [2]},
    initializers=[tensor("w", [-2, -1], float_data=[1.0, 2.0])])
bad("input_huge", [helper.make_node("Relu", ["x"], ["y"], name="r")], {"x": [2**20, 2**20]})
# Windows ONNX leaves undefined (found by prec-fuzz-onnx: a zero stride
# divided by zero).
def pool(name, **attributes):
    bad(name, [helper.make_node("MaxPool", ["x"], ["y"], name="pool", **attributes)],
        {"x": [1, 1, 4, 4]})


pool("pool_zero_stride", kernel_shape=[2, 2], strides=[0, 1])
pool("pool_negative_pad", kernel_shape=[2, 2], pads=[0, -1, 0, 0])
pool("pool_wide_window", kernel_shape=[5, 2])
def conv(name, weights=(2, 1, 3, 3), op="Conv", **attributes):
    bad(name, [helper.make_node(op, ["x", "w"], ["y"], name="conv", **attributes)],
        {"x": [1, 2, 4, 4]}, initializers=[numpy_helper.from_array(f32(*weights), "w")])


conv("conv_zero_dilation", dilations=[1, 0])
conv("conv_group_zero", group=0)
conv("conv_group_split", weights=(3, 1, 3, 3), group=2)
conv("conv_transpose_channels", weights=(3, 2, 3, 3), op="ConvTranspose")
conv("conv_transpose_output_padding", weights=(2, 2, 3, 3), op="ConvTranspose",
     output_padding=[1, 0])
conv("conv_transpose_empty", weights=(2, 2, 3, 3), op="ConvTranspose", pads=[3, 3, 3, 3])
# Attributes and constant inputs that do not fit their input.
def known(name, values, dtype=np.int64):
    return numpy_helper.from_array(np.array(values, dtype), name)


bad("transpose_perm", [helper.make_node("Transpose", ["x"], ["y"], name="t", perm=[0, 0])],
    {"x": [2, 3]})
bad("batchnorm_channels",
    [helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], name="bn")],
    {"x": [1, 3, 2, 2]},
    initializers=[known(n, [1, 1], np.float32) for n in ["s", "b", "m", "v"]])
bad("split_sizes", [helper.make_node("Split", ["x", "sizes"], ["y", "z"], name="split")],
    {"x": [4]}, outputs=("y", "z"), initializers=[known("sizes", [1, 2])])
bad("split_parts", [helper.make_node("Split", ["x"], ["y", "z"], name="split", num_outputs=0)],
    {"x": [4]}, opset=18, outputs=("y", "z"))
bad("slice_lengths", [helper.make_node("Slice", ["x", "starts", "ends"], ["y"], name="slice")],
    {"x": [4, 4]}, initializers=[known("starts", [0, 0]), known("ends", [1])])
bad("slice_empty", [helper.make_node("Slice", ["x", "starts", "ends"], ["y"], name="slice")],
    {"x": [4, 4]}, initializers=[known("starts", [3, 0]), known("ends", [1, 4])])
bad("squeeze_axis", [helper.make_node("Squeeze", ["x", "axes"], ["y"], name="squeeze")],
    {"x": [1, 3]}, initializers=[known("axes", [5])])
bad("gather_tiled", [helper.make_node("Gather", ["x", "i"], ["y"], name="gather", axis=1)],
    {"x": [2**20, 16]}, initializers=[known("i", [0] * 32)])
bad("quantize_zero_point",
    [helper.make_node("QuantizeLinear", ["x", "scale", "zero"], ["y"], name="q")],
    {"x": [4]}, initializers=[known("scale", 0.5, np.float32), known("zero", [0, 0], np.int8)])
bad("layernorm_scale",
    [helper.make_node("LayerNormalization", ["x", "g"], ["y"], name="ln", axis=-1)],
    {"x": [2, 3]}, initializers=[known("g", np.ones((4, 3)), np.float32)])
ones = lambda n: known("s", np.ones(n), np.float32)
zeros = lambda n: known("b", np.zeros(n), np.float32)
bad("groupnorm_groups",
    [helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"], name="gn", num_groups=3)],
    {"x": [2, 8, 4]}, opset=21, initializers=[ones(8), zeros(8)])
bad("groupnorm_scale",
    [helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"], name="gn", num_groups=4)],
    {"x": [2, 8, 4]}, opset=18, initializers=[ones(8), zeros(8)])
bad("instancenorm_rank",
    [helper.make_node("InstanceNormalization", ["x", "s", "b"], ["y"], name="in")],
    {"x": [2, 8]}, initializers=[ones(8), zeros(8)])
bad("instancenorm_scale",
    [helper.make_node("InstanceNormalization", ["x", "s", "b"], ["y"], name="in")],
    {"x": [2, 8, 4]}, initializers=[ones(4), zeros(8)])
bad("layernorm_opset13",
    [helper.make_node("LayerNormalization", ["x", "s"], ["y"], name="ln")],
    {"x": [2, 3]}, opset=13, initializers=[known("s", np.ones(3), np.float32)])
bad("empty_output",
    [helper.make_node("Reshape", ["c", "s"], ["y"], name="reshape")], {},
    initializers=[known("c", np.zeros((2, 0)), np.float32),
                  known("s", [0, -1])])
bad("dropout_mask",
    [helper.make_node("Dropout", ["x"], ["y", "mask"], name="dropout")],
    {"x": [2, 3]})
bad("empty_tensor", add, {"x": [2]}, initializers=[known("w", np.zeros(0), np.float32)])
bad("shape_not_integer", [helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
    {"x": [2, 3]}, initializers=[known("s", [1.5, 4], np.float32)])
with open(os.path.join(out, "truncated.onnx"), "wb") as f:
    f.write(open(os.path.join(out, "conv.onnx"), "rb").read()[:150])
with open(os.path.join(out, "text.onnx"), "w") as f:
    f.write("this is not a protobuf\n")

# Convolutions with elementwise ops between them: the importer's layout
# transposes are pushed through them and cancel.
cx = f32(1, 3, 8, 8)
cw1, cw2 = f32(4, 3, 3, 3), f32(4, 4, 3, 3)
zeros = np.zeros(4, np.float32)
c1 = np.maximum(conv2d(cx, cw1, zeros, [1, 1], [1, 1, 1, 1], [1, 1], 1), 0)
save("chain",
     [helper.make_node("Conv", ["cx", "cw1"], ["c1"], pads=[1, 1, 1, 1]),
      helper.make_node("Relu", ["c1"], ["r1"]),
      helper.make_node("Conv", ["r1", "cw2"], ["c2"], pads=[1, 1, 1, 1]),
      helper.make_node("Relu", ["c2"], ["out"])],
     {"cx": cx}, None, [("cw1", cw1), ("cw2", cw2)],
     golden={"out": np.maximum(conv2d(c1, cw2, zeros, [1, 1], [1, 1, 1, 1], [1, 1], 1), 0)})


# The same convolutions with weights over 1024 values, which the importer
# keeps as resource blobs: transposed, sliced per group and reshaped there.
img16 = f32(1, 16, 6, 6)
bw1, bb1 = f32(24, 16, 3, 3), f32(24)
bw2, bb2 = f32(24, 8, 3, 3), f32(24)
bw3, bb3 = f32(32, 1, 6, 6), f32(32)
bwt, bbt = f32(16, 8, 3, 3), f32(8)
save("conv_blobs",
     [helper.make_node("Conv", ["img16", "bw1", "bb1"], ["plain"], pads=[1, 1, 1, 1]),
      helper.make_node("Conv", ["img16", "bw2", "bb2"], ["grouped"], group=2),
      helper.make_node("Conv", ["img16", "bw3", "bb3"], ["depthwise"], group=16),
      helper.make_node("ConvTranspose", ["img16", "bwt", "bbt"], ["transposed"],
                       strides=[2, 2])],
     {"img16": img16}, None,
     [("bw1", bw1), ("bb1", bb1), ("bw2", bw2), ("bb2", bb2), ("bw3", bw3),
      ("bb3", bb3), ("bwt", bwt), ("bbt", bbt)],
     golden={"plain": conv2d(img16, bw1, bb1, [1, 1], [1, 1, 1, 1], [1, 1], 1),
             "grouped": conv2d(img16, bw2, bb2, [1, 1], [0] * 4, [1, 1], 2),
             "depthwise": conv2d(img16, bw3, bb3, [1, 1], [0] * 4, [1, 1], 16),
             "transposed": conv_transpose2d(img16, bwt, bbt, [2, 2], [0] * 4)})

# Initializers of every type prec reads, each in raw bytes and in its typed
# field (float_data, double_data, int64_data, or int32_data holding int8,
# uint8, bool and the bits of f16/bf16), small and over 1024 values; each is
# an output, so its constant is compared value for value. DOUBLE becomes f32.
encoded, encoded_golden = [], {}
for dtype, values in [
        (TensorProto.FLOAT, lambda n: f32(n)),
        (TensorProto.DOUBLE, lambda n: rng.uniform(-1, 1, n)),
        (TensorProto.FLOAT16, lambda n: f32(n).astype(np.float16)),
        (TensorProto.BFLOAT16, lambda n: rng.integers(-64, 64, n) / 8),
        (TensorProto.INT8, lambda n: rng.integers(-128, 128, n).astype(np.int8)),
        (TensorProto.UINT8, lambda n: rng.integers(0, 256, n).astype(np.uint8)),
        (TensorProto.INT32, lambda n: rng.integers(-2**31, 2**31, n).astype(np.int32)),
        (TensorProto.INT64, lambda n: rng.integers(-2**40, 2**40, n)),
        (TensorProto.BOOL, lambda n: rng.integers(0, 2, n).astype(bool))]:
    for count in [6, 1030]:
        for raw in [False, True]:
            data = values(count)
            name = "%s_%d_%s" % (TensorProto.DataType.Name(dtype).lower(),
                                 count, "raw" if raw else "typed")
            if dtype == TensorProto.BFLOAT16:
                # Exact in bf16: its raw bytes are the top half of f32's.
                floats = np.asarray(data, np.float32)
                bits = (floats.view(np.uint32) >> 16).astype(np.uint16)
                tensor = helper.make_tensor(
                    name, dtype, [2, count // 2],
                    bits.tobytes() if raw else floats.tolist(), raw)
                expected = floats
            elif raw:
                tensor = helper.make_tensor(name, dtype, [2, count // 2],
                                            np.asarray(data).tobytes(), True)
                expected = data
            else:
                tensor = helper.make_tensor(name, dtype, [2, count // 2],
                                            np.asarray(data).tolist(), False)
                expected = data
            if dtype == TensorProto.DOUBLE:
                expected = np.asarray(expected, np.float32)
            encoded.append(tensor)
            encoded_golden[name] = np.asarray(expected).reshape(2, count // 2)
graph = helper.make_graph(
    [], "tensor_encodings", [],
    [helper.make_tensor_value_info(
        k, onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[v.dtype], None)
     for k, v in encoded_golden.items()], encoded)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(out, "tensor_encodings.onnx"))
np.savez(os.path.join(out, "tensor_encodings.in.npz"))
np.savez(os.path.join(out, "tensor_encodings.golden.npz"), **encoded_golden)

# GatherND with run-time indices: GPT-2's pooling of each sequence's last
# token (batch_dims=1, one index per batch, negative from the end) and a
# two-component lookup into a 3-D tensor (batch_dims=0).
hidden = f32(2, 5, 4)
last = np.array([[4], [-3]], np.int64)
cube = f32(3, 4, 5)
pairs = np.array([[2, 1], [0, -1], [-3, 3]], np.int64)
save("gather_nd",
     [helper.make_node("GatherND", ["hidden", "last"], ["pooled"], batch_dims=1),
      helper.make_node("GatherND", ["cube", "pairs"], ["picked"])],
     {"hidden": hidden, "last": last, "cube": cube, "pairs": pairs}, None,
     opset=13,
     golden={"pooled": np.stack([hidden[b, last[b, 0]] for b in range(2)]),
             "picked": np.stack([cube[i, j] for i, j in pairs])})


# 1-D convolutions (the feature encoders of Whisper and wav2vec2), as 2-D
# ones of height 1: strided, padded and dilated; depthwise; grouped;
# transposed.
def conv1d(x, w, b, stride, pads, dilation, group):
    return conv2d(x[:, :, None, :], w[:, :, None, :], b, [1, stride],
                  [0, pads[0], 0, pads[1]], [1, dilation], group)[:, :, 0, :]


def conv_transpose1d(x, w, b, stride, pads):
    return conv_transpose2d(x[:, :, None, :], w[:, :, None, :], b, [1, stride],
                            [0, pads[0], 0, pads[1]])[:, :, 0, :]


signal = f32(1, 4, 20)
c1w, c1b = f32(6, 4, 3), f32(6)
c2w, c2b = f32(8, 1, 5), f32(8)
c3w, c3b = f32(6, 2, 3), f32(6)
ctw, ctb = f32(4, 3, 4), f32(3)
save("conv1d",
     [helper.make_node("Conv", ["signal", "c1w", "c1b"], ["plain"], strides=[2],
                       pads=[1, 2], dilations=[2]),
      helper.make_node("Conv", ["signal", "c2w", "c2b"], ["depthwise"], group=4,
                       pads=[2, 2]),
      helper.make_node("Conv", ["signal", "c3w", "c3b"], ["grouped"], group=2),
      helper.make_node("ConvTranspose", ["signal", "ctw", "ctb"], ["transposed"],
                       strides=[2], pads=[1, 1], output_padding=[1])],
     {"signal": signal}, None,
     [("c1w", c1w), ("c1b", c1b), ("c2w", c2w), ("c2b", c2b), ("c3w", c3w),
      ("c3b", c3b), ("ctw", ctw), ("ctb", ctb)],
     golden={"plain": conv1d(signal, c1w, c1b, 2, [1, 2], 2, 1),
             "depthwise": conv1d(signal, c2w, c2b, 1, [2, 2], 1, 4),
             "grouped": conv1d(signal, c3w, c3b, 1, [0, 0], 1, 2),
             # output_padding keeps the last column pads [1, 1] cut.
             "transposed": conv_transpose1d(signal, ctw, ctb, 2, [1, 0])})
bad("conv1d_weights", [helper.make_node("Conv", ["x", "w"], ["y"], name="conv")],
    {"x": [1, 2, 8]}, initializers=[numpy_helper.from_array(f32(2, 2, 3, 3), "w")])
bad("conv3d", [helper.make_node("Conv", ["x", "w"], ["y"], name="conv")],
    {"x": [1, 2, 4, 4, 4]},
    initializers=[numpy_helper.from_array(f32(2, 2, 3, 3, 3), "w")])

# IsNaN (SDPA exports zero fully masked rows with it), Sign, and the
# reductions ReduceMin, ReduceL1, ReduceL2 (wav2vec2's weight norm) and
# ReduceSumSquare, with axes as an input (opset 18).
special = f32(3, 4)
special[0, 1] = np.nan
special[2, 3] = 0
vals = f32(2, 3, 4)
save("nan_sign_norms",
     [helper.make_node("IsNaN", ["special"], ["isnan"]),
      helper.make_node("Sign", ["vals"], ["sign"]),
      helper.make_node("ReduceMin", ["vals", "axis1"], ["rmin"]),
      helper.make_node("ReduceL1", ["vals", "axis1"], ["l1"], keepdims=0),
      helper.make_node("ReduceL2", ["vals", "axes02"], ["l2"]),
      helper.make_node("ReduceSumSquare", ["vals", "axis1"], ["sumsq"])],
     {"special": special, "vals": vals}, None,
     [("axis1", np.array([1], np.int64)), ("axes02", np.array([0, 2], np.int64))],
     opset=18,
     golden={"isnan": np.isnan(special), "sign": np.sign(vals),
             "rmin": vals.min(1, keepdims=True),
             "l1": np.abs(vals).sum(1),
             "l2": np.sqrt((vals ** 2).sum((0, 2), keepdims=True)),
             "sumsq": (vals ** 2).sum(1, keepdims=True)})

# An empty slice concatenated back (Phi-3's pass-through part of the head
# when rotary embeddings cover all of it): the concat drops it.
whole = f32(2, 4)
save("empty_slice",
     [helper.make_node("Slice", ["whole", "four", "end"], ["rest"], name="rest"),
      helper.make_node("Neg", ["whole"], ["rotated"]),
      helper.make_node("Concat", ["rotated", "rest"], ["joined"], axis=1)],
     {"whole": whole}, None,
     [("four", np.array([4], np.int64)), ("end", np.array([2**63 - 1], np.int64)),
      ("axis", np.array([1], np.int64))],
     golden={"joined": -whole})
bad("empty_slice_used",
    [helper.make_node("Slice", ["x", "starts", "ends"], ["rest"], name="slice"),
     helper.make_node("Add", ["rest", "x"], ["y"], name="add")],
    {"x": [4, 4]}, initializers=[known("starts", [4]), known("ends", [5])])

# Rotary embeddings as LLaMA's exports write them (heads moved out, the
# halves rotated by Slice, Neg and Concat), and a Tile read by a Mul: the
# engines read through the moves instead of copying.
rx = f32(2, 6, 4, 16)
rcos, rsin = np.cos(f32(6, 16) * 3), np.sin(f32(6, 16) * 3)
rt = rx.transpose(0, 2, 1, 3)
save("rotary",
     [helper.make_node("Transpose", ["x"], ["t"], name="heads",
                       perm=[0, 2, 1, 3]),
      helper.make_node("Slice", ["t", "zero", "half", "minus_one"], ["x1"],
                       name="low"),
      helper.make_node("Slice", ["t", "half", "dim", "minus_one"], ["x2"],
                       name="high"),
      helper.make_node("Neg", ["x2"], ["nx2"], name="negate"),
      helper.make_node("Concat", ["nx2", "x1"], ["rotated"], name="rotate",
                       axis=-1),
      helper.make_node("Mul", ["t", "cos"], ["by_cos"], name="by_cos"),
      helper.make_node("Mul", ["rotated", "sin"], ["by_sin"], name="by_sin"),
      helper.make_node("Add", ["by_cos", "by_sin"], ["embedded"], name="rope"),
      helper.make_node("Tile", ["x", "repeats"], ["tiled"], name="tile"),
      helper.make_node("Mul", ["tiled", "two"], ["doubled"], name="double")],
     {"x": rx}, None,
     [("zero", np.array([0], np.int64)), ("half", np.array([8], np.int64)),
      ("dim", np.array([16], np.int64)), ("minus_one", np.array([-1], np.int64)),
      ("cos", rcos.astype(np.float32)), ("sin", rsin.astype(np.float32)),
      ("repeats", np.array([1, 1, 2, 1], np.int64)),
      ("two", np.array([2], np.float32))],
     golden={"embedded": rt * rcos + np.concatenate(
                 [-rt[..., 8:], rt[..., :8]], axis=-1) * rsin,
             "doubled": np.tile(rx, (1, 1, 2, 1)) * 2})
