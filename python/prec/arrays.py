"""Arrays as prec takes them: numpy, or anything numpy converts (torch
tensors included, copied to the host)."""
import numpy as np


def to_numpy(value):
    if hasattr(value, "detach"):  # a torch tensor
        value = value.detach().cpu().numpy()
    value = np.asarray(value)
    if value.dtype.byteorder == ">":  # prec reads little-endian data
        value = value.astype(value.dtype.newbyteorder("<"))
    return value
