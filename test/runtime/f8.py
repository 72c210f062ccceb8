"""8-bit floats in Python, independently of prec: every value of a format,
and rounding to nearest even with saturation (what prec and the GPU do)."""
import numpy as np


def f8_values(exponent_bits, mantissa_bits, has_infinity):
    """Every finite non-negative value of an 8-bit float, by code."""
    bias = (1 << (exponent_bits - 1)) - 1
    values = {}
    for code in range(128):
        exponent, mantissa = code >> mantissa_bits, code & ((1 << mantissa_bits) - 1)
        top = exponent == (1 << exponent_bits) - 1
        if top and (has_infinity or mantissa == (1 << mantissa_bits) - 1):
            continue  # infinity or NaN
        if exponent == 0:
            values[code] = mantissa * 2.0 ** (1 - bias - mantissa_bits)
        else:
            values[code] = (1 + mantissa / (1 << mantissa_bits)) * 2.0 ** (exponent - bias)
    return values


def to_f8(x, values):
    """x rounded to nearest even among `values`, saturating (NaN stays)."""
    if np.isnan(x):
        return np.nan
    largest = max(values.values())
    magnitude = min(abs(float(x)), largest)
    code = min(values, key=lambda c: (abs(values[c] - magnitude), c & 1))
    return np.copysign(values[code], x)
