"""Precision names as prec spells them, from strings or torch dtypes."""
from .errors import Error

_TORCH_NAMES = {"float32": "f32", "float16": "f16", "bfloat16": "bf16",
                "int8": "i8", "float8_e4m3fn": "f8E4M3FN",
                "float8_e5m2": "f8E5M2"}


def precision_name(precision):
    """"f16" for "f16", "half" or torch.half; prec checks the names."""
    if isinstance(precision, str):
        return precision
    text = str(precision)
    if text.startswith("torch."):
        name = _TORCH_NAMES.get(text[len("torch."):])
        if name:
            return name
    raise Error(f"prec has no precision for {precision!r}")


def precision_names(precisions):
    if precisions is None:
        return []
    if isinstance(precisions, str) or not hasattr(precisions, "__iter__"):
        precisions = [precisions]
    return [precision_name(p) for p in precisions]
