"""Checks prec-run on matmuls pinned to f8 E4M3 and i8 against the same
quantization computed here with numpy: per-tensor input scale from the
region's input_range, weights per tensor (f8) or per output channel (i8),
f32 accumulation, dequantization, f16 storage and a bias in f16 (for f8
added in f32 before the one rounding, as prec-fuse-bias has the CPU and the
GPU do). Prints the largest difference in units of f16's spacing.
"""
import subprocess
import sys

import numpy as np

from f8 import f8_values, to_f8

model, tmp = sys.argv[1], sys.argv[2]
subprocess.run(["prec-opt", model, "--prec-legalize=target=cpu enabled=f16",
                "-o", f"{tmp}.legal.mlir"], check=True)
weights = np.array([[0.5, -1.0, 0.25], [1.0, 2.0, -0.5], [0.125, 0.0, 1.5],
                    [-2.0, 0.75, 0.5], [0.3, -1.1, 0.2], [1.3, 1.9, -0.7],
                    [0.1, 0.05, 1.4], [-1.7, 0.6, 0.45]], dtype=np.float32)
bias = np.array([0.1, 0.2, 0.3], dtype=np.float32).astype(np.float16)
x = np.random.default_rng(5).uniform(-4.5, 4.5, (1, 4, 8)).astype(np.float32)
np.savez(f"{tmp}.in.npz", x=x)


def run(function):
    subprocess.run(["prec-run", f"{tmp}.legal.mlir", "--function", function,
                    "--load-inputs", f"{tmp}.in.npz", "--save-outputs",
                    f"{tmp}.{function}.npz"], check=True, stdout=subprocess.DEVNULL)
    return np.load(f"{tmp}.{function}.npz")["result0"][0]


def f32_sum(products):
    """Products summed in f32, in order, as the CPU does."""
    total = np.float32(0)
    for product in products:
        total = np.float32(total + np.float32(product))
    return total


e4m3 = f8_values(4, 3, False)
scale_x = np.float32(4.0 / 448.0)
scale_w = np.float32(np.abs(weights).max() / 448.0)
xq = np.vectorize(lambda v: to_f8(v, e4m3))(x[0] * np.float32(1.0 / scale_x))
wq = np.vectorize(lambda v: to_f8(v, e4m3))(weights / scale_w)
alpha = np.float32(scale_x * scale_w)
f8 = np.array([[np.float16(np.float32(np.float32(f32_sum(xq[i] * wq[:, j]) * alpha)
                                      + np.float32(bias[j])))
                for j in range(3)] for i in range(4)])

scale_x = np.float32(4.0 / 127.0)
channel = np.abs(weights).max(axis=0) / 127.0
xq = np.clip(np.rint(np.float32(x[0] * np.float32(1.0 / scale_x))), -127, 127)
wq = np.clip(np.rint(weights / channel), -127, 127)
dequantize = (scale_x * channel).astype(np.float32)
i8 = np.array([[np.float16(np.float16(np.float32(np.float32(xq[i] @ wq[:, j]) * dequantize[j]))
                           + bias[j])
                for j in range(3)] for i in range(4)])



def report(name, label, expected):
    """prec-run's result of @name against `expected`, in f16 ulps."""
    got = run(name)
    ulp = np.spacing(np.abs(expected).astype(np.float16)).astype(np.float64)
    worst = np.max(np.abs(got - expected.astype(np.float64)) / ulp)
    print(f"{label} vs numpy: largest difference {worst:.0f} f16 ulp, "
          f"outputs up to {np.abs(expected).max():.2f}")


report("f8", "f8 linear", f8)
report("i8", "i8 linear", i8)

# The convolutions: OHWI weights, per output channel (i8) or per tensor
# (f8), f32 sums of the 3x3x2 window in (y, x, c) order, the bias added
# after scaling, in f32, then one rounding to f16.
conv_weights = np.array(
    [[[[0.5, -0.3], [0.2, 0.1], [-0.7, 0.4]], [[0.3, 0.9], [-0.2, 0.6], [0.05, -0.4]],
      [[0.8, -0.1], [0.35, 0.25], [-0.6, 0.15]]],
     [[[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], [[-0.1, -0.2], [-0.3, -0.4], [-0.5, -0.6]],
      [[0.7, 0.0], [0.0, 0.7], [0.2, -0.2]]],
     [[[1.5, -1.0], [0.0, 0.5], [0.25, -0.75]], [[0.6, 0.6], [-0.9, 0.3], [0.45, 0.1]],
      [[-0.05, 0.95], [0.4, -0.35], [0.2, 0.3]]]], dtype=np.float32)
conv_bias = np.array([0.1, -0.2, 0.3], dtype=np.float32)
image = np.random.default_rng(6).uniform(-2.2, 2.2, (1, 4, 4, 2)).astype(np.float32)
np.savez(f"{tmp}.in.npz", x=image)


def conv(xq, wq, scales):
    padded = np.pad(xq, ((1, 1), (1, 1), (0, 0)))
    out = np.zeros((4, 4, 3), dtype=np.float16)
    for i in range(4):
        for j in range(4):
            for o in range(3):
                window = padded[i:i + 3, j:j + 3, :].reshape(-1) * wq[o].reshape(-1)
                scaled = np.float32(f32_sum(window) * scales[o])
                out[i, j, o] = np.float16(np.float32(scaled + conv_bias[o]))
    return out


scale_x = np.float32(2.0 / 448.0)
scale_w = np.float32(np.abs(conv_weights).max() / 448.0)
xq = np.vectorize(lambda v: to_f8(v, e4m3))(image[0] * np.float32(1.0 / scale_x))
wq = np.vectorize(lambda v: to_f8(v, e4m3))(conv_weights / scale_w)
f8_conv = conv(xq, wq, [np.float32(scale_x * scale_w)] * 3)

scale_x = np.float32(2.0 / 127.0)
channel = np.abs(conv_weights).reshape(3, -1).max(axis=1) / 127.0
xq = np.clip(np.rint(np.float32(image[0] * np.float32(1.0 / scale_x))), -127, 127)
wq = np.clip(np.rint(conv_weights / channel[:, None, None, None]), -127, 127)
i8_conv = conv(xq, wq, (scale_x * channel).astype(np.float32))

report("f8_conv", "f8_conv", f8_conv)
report("i8_conv", "i8_conv", i8_conv)
