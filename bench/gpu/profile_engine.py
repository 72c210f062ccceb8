"""Where an engine's time goes: runs it on random inputs (shapes and types
from its manifest) under torch.profiler and prints its kernels and library
calls by total GPU time over 20 runs, after 5 warm-up runs.

Usage: python3 profile_engine.py ENGINE.cu
"""
import sys

import torch

from engine import DTYPES, Engine
from run_transformers import kernel_events


engine = Engine(sys.argv[1])
torch.manual_seed(0)
tensors = []
for binding in engine.manifest["bindings"]:
    dtype = DTYPES[binding["dtype"]]
    if binding["input"] and dtype.is_floating_point:
        tensors.append(torch.randn(binding["shape"], device="cuda").to(dtype))
    else:
        tensors.append(torch.zeros(binding["shape"], dtype=dtype, device="cuda"))
run_engine = engine.runner(tensors)
print(kernel_events(run_engine, runs=20).table(
    sort_by="device_time_total", row_limit=15, max_name_column_width=70))
engine.destroy()
