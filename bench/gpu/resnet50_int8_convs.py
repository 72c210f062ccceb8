"""Prints a module of int8 convolutions, each on its own int8 input, with
random int8 weights (seed 0).

`timing`: ResNet-50's convolutions that do not read their input as a
matrix (the 3x3 ones and a strided 1x1 one) at batch 64, with zero biases
(a quantized convolution adds its bias after scaling). prec-translate
emits it with --conv=im2col (im2col + cuBLASLt) and without (prec's
implicit GEMM); run_quantized.py compares the two engines' int32 outputs
(they must be equal: integer sums) and times them in one run.
`edges`: at batch 2, shapes whose tiles are partial in every dimension,
with random int32 biases, to compare with prec-run on the CPU.

Usage: python3 resnet50_int8_convs.py timing|edges > convs.mlir
"""
import sys

import numpy as np

timing = sys.argv[1] == "timing"
# C, HW, K (filters), R, stride
SHAPES = [(64, 56, 64, 3, 1), (128, 56, 128, 3, 2), (128, 28, 128, 3, 1),
          (256, 28, 256, 3, 2), (256, 14, 256, 3, 1), (512, 14, 512, 3, 2),
          (512, 7, 512, 3, 1), (256, 56, 512, 1, 2)] if timing else [
          (48, 9, 40, 3, 2), (32, 11, 200, 3, 1), (16, 12, 73, 5, 1)]
BATCH = 64 if timing else 2

generator = np.random.default_rng(0)


def hex_constant(values, type_):
    return (f'"tosa.const"() <{{values = dense<"0x{values.tobytes().hex().upper()}"> '
            f': {type_}}}> : () -> {type_}')


arguments, results, body, returned = [], [], [], []
for n, (c, hw, k, r, stride) in enumerate(SHAPES):
    pad = r // 2
    # TOSA wants (H - 1 + pads - (R - 1)) divisible by the stride: the
    # bottom and right pads are cut or grown to make it so.
    rest = (hw - 1 + 2 * pad - (r - 1)) % stride
    bottom = pad - rest if rest <= pad else pad + stride - rest
    out = (hw - 1 + pad + bottom - (r - 1)) // stride + 1
    x = f"tensor<{BATCH}x{hw}x{hw}x{c}xi8>"
    w = f"tensor<{k}x{r}x{r}x{c}xi8>"
    b = f"tensor<{k}xi32>"
    y = f"tensor<{BATCH}x{out}x{out}x{k}xi32>"
    arguments.append(f'%x{n}: {x} loc("x{n}")')
    results.append(y)
    weights = generator.integers(-127, 128, (k, r, r, c), dtype=np.int8)
    bias = (np.zeros((k,), np.int32) if timing else
            generator.integers(-1000, 1000, (k,), dtype=np.int32))
    body.append(f"  %w{n} = {hex_constant(weights, w)}")
    body.append(f"  %b{n} = {hex_constant(bias, b)}")
    body.append(
        f"  %y{n} = tosa.conv2d %x{n}, %w{n}, %b{n}, %zp, %zp {{acc_type = i32, "
        f"dilation = array<i64: 1, 1>, pad = array<i64: {pad}, {bottom}, {pad}, "
        f"{bottom}>, stride = array<i64: {stride}, {stride}>}} : ({x}, {w}, {b}, "
        f'tensor<1xi8>, tensor<1xi8>) -> {y} loc("conv{n}_c{c}_hw{hw}_k{k}_r{r}_s{stride}")')
    returned.append(f"%y{n}")
print(f"func.func @main({', '.join(arguments)}) -> ({', '.join(results)}) {{")
print('  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>')
print("\n".join(body))
print(f"  return {', '.join(returned)} : {', '.join(results)}")
print("}")
