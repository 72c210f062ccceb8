"""Checks prec-run's reduced-precision arithmetic against numpy.

numpy computes float16 operations in float32 and rounds the result, which is
correctly rounded for + - * / and sqrt; bf16, which numpy lacks, is computed
in float64 and rounded to nearest even by hand.
"""
import sys

import numpy as np

from f8 import f8_values, to_f8
from prec_run import run_function

model, tmp = sys.argv[1], sys.argv[2]


def run(function, inputs):
    return run_function(model, function, inputs, tmp)


def bf16_bits(values):
    """float64 values rounded to nearest even bf16, as uint16 bit patterns."""
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    nan = np.isnan(np.asarray(values, dtype=np.float32))
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    rounded[nan] = 0x7FC0
    return rounded.astype(np.uint16)


def bf16_values(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def same_bits(actual, expected):
    actual, expected = np.asarray(actual), np.asarray(expected)
    a = actual.view(np.uint16) if actual.dtype != np.uint16 else actual
    e = expected.view(np.uint16) if expected.dtype != np.uint16 else expected
    both_nan = np.isnan(actual.astype(np.float32) if actual.dtype == np.float16
                        else bf16_values(a)) & \
        np.isnan(expected.astype(np.float32) if expected.dtype == np.float16
                 else bf16_values(e))
    return int(np.sum((a == e) | both_nan))


# Halfway cases, subnormals, overflow and signed zero.
tiny = 2.0 ** -24
a16 = np.array([1, 1 + 2**-10, 65504, 300, 2**-12, 2**-13, 3 * tiny, 1,
                2, 0, -1.5, 7], dtype=np.float16)
b16 = np.array([2**-11, 2**-11, 16, 300, 2**-12, 2**-12, tiny, 3, 3, 0,
                2**-11, -0.1], dtype=np.float16)
with np.errstate(all="ignore"):
    expected16 = [a16 + b16, a16 - b16, a16 * b16, a16 / b16, np.sqrt(a16)]
for name, actual, expected in zip(["add", "sub", "mul", "div", "sqrt"],
                                  run("f16_ops", {"a": a16, "b": b16}),
                                  expected16):
    print(f"f16 {name}: {same_bits(actual, expected)}/12 bit-exact")
add16, _, mul16, _, _ = run("f16_ops", {"a": a16, "b": b16})
print(f"f16 add overflows to inf: 65504 + 16 = {float(add16[2])}")
print(f"f16 mul underflows to subnormal: 2^-12 * 2^-12 = {float(mul16[4]):g}")

# bf16: 8 significant bits; ties at 256 + 1, subnormals near 2^-133.
a_bf = np.array([256, 257, 3.3895e38, 1e20, 2.0**-70, 2.0**-126, 3, 1, 2,
                 0, -1.5, 7], dtype=np.float64)
b_bf = np.array([1, 1, 3e36, 1e20, 2.0**-70, 2.0**-8, 2.0**-126, 3, 3, 0,
                 2.0**-9, -0.1], dtype=np.float64)
a_bits, b_bits = bf16_bits(a_bf), bf16_bits(b_bf)
a_exact, b_exact = bf16_values(a_bits), bf16_values(b_bits)
with np.errstate(all="ignore"):
    expected_bf = [bf16_bits(f(a_exact, b_exact)) for f in
                   (np.add, np.subtract, np.multiply, np.divide)]
    expected_bf.append(bf16_bits(np.sqrt(a_exact)))
for name, actual, expected in zip(["add", "sub", "mul", "div", "sqrt"],
                                  run("bf16_ops", {"a": a_bits, "b": b_bits}),
                                  expected_bf):
    print(f"bf16 {name}: {same_bits(actual, expected)}/12 bit-exact")

# Chains: every intermediate result is rounded.
chain_a16 = np.array([1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 0.5,
                      0.25, 3], dtype=np.float16)
chain_b16 = np.full(12, 65000, dtype=np.float16)
[chain16] = run("f16_chain", {"a": chain_a16, "b": chain_b16})
print(f"f16 chain (a + b) - b: "
      f"{same_bits(chain16, (chain_a16 + chain_b16) - chain_b16)}/12 bit-exact")
chain_a = bf16_bits(np.linspace(1.1, 1.9, 12))
chain_b = bf16_bits(np.full(12, 256.0))
ca, cb = bf16_values(chain_a), bf16_values(chain_b)
[chain_bf] = run("bf16_chain", {"a": chain_a, "b": chain_b})
print(f"bf16 chain (a + b) - b: "
      f"{same_bits(chain_bf, bf16_bits(bf16_values(bf16_bits(ca + cb)) - cb))}"
      f"/12 bit-exact")

# i8: round half to even, saturate.
x = np.array([300, -300, 2.5, 3.5, -2.5, -3.5, 0.4, 0.6, -0.6, 127.5,
              -128.5, -0.0], dtype=np.float32)
tosa_cast, user_cast = run("to_i8", {"x": x})
print(f"tosa.cast to i8: {tosa_cast.tolist()}")
print(f"precision.cast to i8: {user_cast.tolist()}")

# 2048 + 4095 ones: f32 accumulation is exact; in f16, 2048 + 1 rounds back
# to 2048 (the spacing there is 2) and the sum never moves.
a = np.ones((1, 1, 4096), dtype=np.float16)
a[0, 0, 0] = 2048
b = np.ones((1, 4096, 1), dtype=np.float16)
wide, narrow = run("f16_matmul", {"a": a, "b": b})
exact = float(np.sum(a.astype(np.float64)))
print(f"f16 matmul, f32 accumulation: {float(wide.item())} (exact {exact})")
print(f"f16 matmul, f16 accumulation: {float(narrow.item())}")

# 1 + 2^-11 is halfway between two f16 values and rounds (to even) to 1:
# rounding the product first, then adding the bias 2^-11, would round to 1
# again. Added in the f32 accumulator, 1 + 2^-10 is exact in f16.
a = np.array([[[1.0, 2.0 ** -11]]], dtype=np.float16)
b = np.ones((1, 2, 1), dtype=np.float16)
bias = np.full((1, 1, 1), 2.0 ** -11, dtype=np.float16)
(linear,) = run("f16_linear", {"a": a, "b": b, "bias": bias})
print(f"f16 linear, bias in the accumulator: {float(linear.item())!r} "
      f"(rounded twice: {float(np.float16(np.float16(1 + 2.0 ** -11) + bias.item()))!r})")


generator = np.random.default_rng(3)
x = np.concatenate([
    [0.0, -0.0, 1.0, -1.0, 448.0, 449.0, 464.0, 480.0, 1e6, -1e6, np.inf, -np.inf,
     np.nan, 57344.0, 61440.0, 2.0 ** -6, 2.0 ** -9, 2.0 ** -10, 3 * 2.0 ** -10,
     2.0 ** -14, 2.0 ** -16, 2.0 ** -17, 1.0625, 1.1875, 0.0078125 * 1.5],
    generator.choice([-1, 1], 4096 - 25) * 2.0 ** generator.uniform(-20, 18, 4096 - 25),
]).astype(np.float32)
e4m3, e5m2 = run("f8_round_trip", {"x": x})
for name, got, values in [("e4m3fn", e4m3, f8_values(4, 3, False)),
                          ("e5m2", e5m2, f8_values(5, 2, True))]:
    expected = np.array([to_f8(v, values) for v in x], dtype=np.float32)
    same = (got.view(np.uint32) == expected.view(np.uint32)) | (
        np.isnan(got) & np.isnan(expected))
    print(f"f32 -> f8 {name} -> f32: {int(same.sum())}/{len(x)} bit-exact, "
          f"1e6 -> {got[8]}, inf -> {got[10]}, nan -> {got[12]}")

# 0.1 and 0.3 round to 0.1015625 and 0.3125 in E4M3; their products summed
# in f32 with 2 x 3 and 0.5 x 7 (exact in E4M3).
(product,) = run("f8_matmul", {"a": np.array([[[0.1, 2.0, 0.5, 448.0]]], dtype=np.float32),
                              "b": np.array([[[0.3], [3.0], [7.0], [0.0]]], dtype=np.float32)})
print(f"f8 matmul, f32 accumulation: {float(product.item())!r} "
      f"(exact {0.1015625 * 0.3125 + 6.0 + 3.5!r})")
