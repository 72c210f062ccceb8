"""Runs Inputs/round_trip.mlir's i8 and f8 identity matmuls with prec-run and
checks, against numpy, that values come back as quantized: i8 x -> round
half even(127 x) / 127, f8 x -> E4M3(448 x) / 448, saturating beyond the
range [-1, 1]; prints the largest errors.

Usage: round_trip.py MODEL.mlir TMPDIR
"""
import subprocess
import sys

import numpy as np

from f8 import f8_values, to_f8

model, tmp = sys.argv[1], sys.argv[2]
f32 = np.float32
# Every 1/64 step in [-2, 2), halfway points of the i8 grid (ties go to
# even), the range's ends and values past them.
values = np.concatenate([np.arange(-128, 128) / 64.0,
                         (np.arange(-6, 6) + 0.5) / 127.0,
                         [1.0, -1.0, 1e-9, 3.0, -3.0, 1e9]])
x = np.resize(values, 3 * 128).astype(f32).reshape(3, 1, 16, 8)


def run(function, inputs):
    np.savez(f"{tmp}/in.npz", x=inputs)
    subprocess.run(["prec-run", model, "--function", function, "--load-inputs",
                    f"{tmp}/in.npz", "--save-outputs", f"{tmp}/out.npz"],
                   check=True, stdout=subprocess.DEVNULL)
    return np.load(f"{tmp}/out.npz")["result0"]


e4m3 = f8_values(4, 3, has_infinity=False)
for batch in x:
    inside = np.abs(batch) <= 1
    q = np.clip(np.rint(batch * f32(127)), -127, 127)
    expected = (q * 127).astype(f32) * f32(1.0 / 127 / 127)
    y = run("i8", batch)
    assert np.array_equal(y, expected), np.abs(y - expected).max()
    assert np.abs(y - batch)[inside].max() <= 0.5 / 127 + 1e-7
    assert np.all(y[batch > 1] == expected[batch > 1])
    assert np.allclose(y[~inside], np.sign(batch[~inside]), atol=1e-6)
    i8_error = np.abs(y - batch)[inside].max()

    q8 = np.vectorize(lambda v: to_f8(v, e4m3))(batch * f32(448)).astype(f32)
    expected = (q8 * 448).astype(f32) * f32(1.0 / 448 / 448)
    y = run("f8", batch)
    assert np.array_equal(y, expected), np.abs(y - expected).max()
    # E4M3 keeps 3 bits: half a step is 1/16 of the value where it is
    # normal (448 |x| >= 2^-6).
    normal = inside & (np.abs(batch) * 448 >= 2.0 ** -6)
    relative = (np.abs(y - batch) / np.abs(batch))[normal]
    assert relative.max() <= 1 / 16
    assert np.allclose(y[~inside], np.sign(batch[~inside]), atol=1e-6)
    f8_error = relative.max()
print(f"i8 round trip: equal to numpy; largest error {i8_error * 127:.3f} "
      f"steps of 1/127; beyond [-1, 1] saturated to +-1")
print(f"f8 round trip: equal to numpy; largest relative error "
      f"{f8_error:.4f}; beyond [-1, 1] saturated to +-1")
