"""Quantized engines against their CPU runs and against a baseline engine,
on the GPU, in one run.

Each ENGINE.cu=CPU.npz pair is an engine (its .weights and .json beside it;
a .weights.json instead is an FFN engine whose weights ffn_weights.py
rebuilds here) and prec-run's outputs of the same legalized program on
INPUTS.npz; an ENGINE.cu alone is timed and compared with the baseline
only. INPUTS `random` draws inputs here: uniform in [0, 1), int8 ones in
[-127, 127]. The first engine is the baseline (e.g. f16). Prints, per
engine, the largest and mean absolute error against its CPU run, against
the baseline's outputs and against each NAME=REFERENCE.npz, and its median
time (200 runs after 20 warm-up runs, the engines interleaved) with the
ratio to the baseline.

Usage: python3 run_quantized.py INPUTS.npz|random ENGINE.cu[=CPU.npz]...
                                [NAME=REFERENCE.npz...]
"""
import os
import sys

import numpy as np
import torch

from engine import DTYPES, Engine, median_ms


def load(cu):
    if os.path.exists(cu[:-3] + ".weights.json") and not os.path.exists(
            cu[:-3] + ".weights"):
        import ffn_weights
        assert ffn_weights.unpack(cu), "rebuilt weights differ from prec's"
    return Engine(cu)


def bind(engine, inputs):
    tensors = []
    for binding in engine.manifest["bindings"]:
        dtype = DTYPES[binding["dtype"]]
        if binding["input"]:
            if binding["name"] not in inputs:
                generator = np.random.default_rng(len(inputs))
                inputs[binding["name"]] = (
                    generator.integers(-127, 128, binding["shape"],
                                       dtype=np.int8)
                    if binding["dtype"] == "i8" else
                    generator.random(binding["shape"], dtype=np.float32))
            tensors.append(torch.from_numpy(inputs[binding["name"]]).to(
                "cuda", dtype).contiguous())
        else:
            tensors.append(torch.empty(binding["shape"], dtype=dtype,
                                       device="cuda"))
    outputs = {b["name"]: t for b, t in zip(engine.manifest["bindings"], tensors)
               if not b["input"]}
    return engine.runner(tensors), outputs


def errors(outputs, expected):
    worst, mean = 0.0, []
    for name, tensor in outputs.items():
        actual = tensor.float().cpu().numpy().astype(np.float64)
        error = np.abs(actual - np.asarray(expected[name], np.float64))
        worst = max(worst, error.max())
        mean.append(error.mean())
    return f"max abs {worst:.3e} mean abs {np.mean(mean):.3e}"


inputs = {} if sys.argv[1] == "random" else dict(np.load(sys.argv[1]))
pairs = [(arg.split("=", 1) + [None])[:2] for arg in sys.argv[2:]]
engines = [(cu, cpu) for cu, cpu in pairs if cu.endswith(".cu")]
references = [(name, np.load(path)) for name, path in pairs
              if not name.endswith(".cu")]
runs = []
for cu, cpu in engines:
    engine = load(cu)
    run, outputs = bind(engine, inputs)
    run()
    torch.cuda.synchronize()
    runs.append((engine, run, outputs, cpu and np.load(cpu)))
baseline = {name: t.float().cpu().numpy() for name, t in runs[0][2].items()}
times = {engine.stem: [] for engine, *_ in runs}
for _ in range(4):  # interleaved rounds: the engines share the GPU's state
    for engine, run, *_ in runs:
        times[engine.stem].append(median_ms(run, warmup=20, runs=50))
base_time = np.median(times[runs[0][0].stem])
for engine, run, outputs, cpu in runs:
    line = [f"{engine.stem:22s}"]
    if cpu is not None:
        line.append(f"vs CPU {errors(outputs, cpu)}")
    if engine is not runs[0][0]:
        line.append(f"vs {runs[0][0].stem} {errors(outputs, baseline)}")
    line += [f"vs {name} {errors(outputs, ref)}" for name, ref in references]
    print("; ".join(line))
    median = np.median(times[engine.stem])
    print(f"{engine.stem:22s} median run {median * 1e3:.1f} us, "
          f"{median / base_time:.2f} x {runs[0][0].stem}'s time")
for engine, *_ in runs:
    engine.destroy()
