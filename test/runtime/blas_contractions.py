"""Checks the CPU's BLAS-backed contractions (prec-blas-contractions)
against numpy in float64 on the same operand values: matmuls in f32
through a slice, f16 (subnormals, an infinity) with a bias, bf16 rounded to
nearest even by hand; convolutions in f32 (stride, dilation, unequal
padding) and f16. Only the summation order may differ: the error is bounded
by depth * 2^-24 * sum |a||b| per element, and infinities and NaNs land
where numpy's do.
"""
import sys

import numpy as np

from prec_run import run_function

model, tmp = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(7)


def run(function, inputs):
    return run_function(model, function, inputs, tmp)[0]


def bf16(values):
    """float32 values rounded to nearest even bf16, as float64."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return rounded.astype(np.uint32).view(np.float32).astype(np.float64)


def report(name, got, a, b, bias=0.0, product=np.matmul, depth=None):
    a, b = a.astype(np.float64), b.astype(np.float64)
    exact = product(a, b) + bias
    depth = depth or a.shape[-1]
    bound = depth * 2.0**-24 * (product(np.abs(a), np.abs(b)) + np.abs(bias))
    finite = np.isfinite(exact)
    same_specials = np.array_equal(np.isnan(got), np.isnan(exact)) and \
        np.array_equal(got[~finite & ~np.isnan(exact)],
                       exact[~finite & ~np.isnan(exact)])
    within = bool(np.all(np.abs(got[finite] - exact[finite]) <= bound[finite]))
    print(f"{name}: {got.shape}, within the summation bound: {within}, "
          f"non-finite as numpy: {same_specials}, max |error| "
          f"{np.abs(got[finite] - exact[finite]).max():.3g}")


a = rng.uniform(-1, 1, (2, 40, 80)).astype(np.float32)
b = rng.uniform(-1, 1, (2, 70, 45)).astype(np.float32)
report("f32 through a slice", run("f32_sliced", {"a": a, "b": b}),
       a[:, 5:38, 3:73], b)

a = rng.uniform(-4, 4, (3, 17, 64)).astype(np.float16)
a[0, 0, :8] = np.float16(2.0**-20)  # subnormal
a[1, 2, 3] = np.float16(np.inf)
b = rng.uniform(-4, 4, (3, 64, 29)).astype(np.float16)
bias = rng.uniform(-1, 1, (1, 1, 29)).astype(np.float32)
report("f16 with a bias", run("f16_bias", {"a": a, "b": b, "bias": bias}),
       a, b, bias.astype(np.float64))

a = rng.uniform(-2, 2, (1, 9, 50)).astype(np.float32)
b = rng.uniform(-2, 2, (1, 50, 12)).astype(np.float32)
report("bf16", run("bf16", {"a": a, "b": b}), bf16(a), bf16(b))


def conv(stride, dilation, pad):
    """NHWC x FHWC convolution in float64, `pad` ((top, bottom), (left,
    right)) with zeros."""
    def product(x, w):
        x = np.pad(x, ((0, 0), pad[0], pad[1], (0, 0)))
        kh, kw = w.shape[1:3]
        out_h = (x.shape[1] - dilation * (kh - 1) - 1) // stride + 1
        out_w = (x.shape[2] - dilation * (kw - 1) - 1) // stride + 1
        y = np.zeros((x.shape[0], out_h, out_w, w.shape[0]))
        for i in range(kh):
            for j in range(kw):
                window = x[:, i * dilation:i * dilation + stride * out_h:stride,
                           j * dilation:j * dilation + stride * out_w:stride, :]
                y += window @ w[:, i, j, :].T
        return y
    return product


x = rng.uniform(-1, 1, (2, 11, 13, 5)).astype(np.float32)
w = rng.uniform(-1, 1, (7, 3, 3, 5)).astype(np.float32)
bias = np.array([0.5, -1.0, 0.25, 2.0, 0.0, -0.5, 1.0])
report("f32 convolution", run("conv_f32", {"x": x, "w": w}), x, w, bias,
       conv(2, 2, ((1, 1), (2, 2))), depth=3 * 3 * 5)

x = rng.uniform(-2, 2, (1, 8, 8, 16)).astype(np.float16)
w = rng.uniform(-2, 2, (4, 3, 3, 16)).astype(np.float16)
report("f16 convolution", run("conv_f16", {"x": x, "w": w}), x, w, 0.0,
       conv(1, 1, ((1, 1), (1, 1))), depth=3 * 3 * 16)
