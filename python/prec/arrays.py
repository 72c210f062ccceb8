"""Arrays as prec takes them: numpy, or anything numpy converts (torch
tensors included, copied to the host)."""
import numpy as np


def to_numpy(value):
    if hasattr(value, "detach"):  # a torch tensor
        value = value.detach().cpu().numpy()
    return np.asarray(value)
