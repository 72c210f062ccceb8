"""Full-size transformers as prec engines against PyTorch eager (SDPA) and
torch.compile, timed in the same process.

  python3 run_transformers.py export WORK [MODEL...]       # GPU machine: ONNX
  python3 run_transformers.py prepare BIN WORK [MODEL...]  # here: engines
  python3 run_transformers.py check WORK [MODEL...]        # GPU machine: times
  python3 run_transformers.py profile WORK [MODEL...]      # GPU machine: kernels

MODEL picks among MODELS (all by default). Each model's engine is f16, but
llama_2layer_f8's: its Linears (the q, k, v, o, gate, up and down
projections) run in f8 E4M3 with per-tensor scales, those of the activations
from a calibration (minmax) on two other prompts, and its PyTorch peers run
in bf16.

Weights come from ffn_weights' integer formula (`fill`), so the GPU machine
rebuilds the very model the export came from. Those weights compress about
1000x, which is how a 440 MB export and its engines' weights travel: `export`
leaves WORK/<model>.onnx.xz, `prepare` imports it once per shape, calibrates
it where the model asks, emits the engine and leaves its weights as
.weights.xz. `check` prints, per shape, the times of the engine (`run` and
`run_graph`), of PyTorch eager and of torch.compile (each the best median of
three interleaved rounds), the ratio of torch.compile's time to the engine
graph's, and the largest absolute error of the engine and of PyTorch (in its
dtype) against PyTorch f32, relative to the output's largest magnitude. `profile` prints, per shape, the engine graph's
and torch.compile's GPU kernels by GPU time per run (over 10 runs), in two
tables, each layer's instances of an engine kernel as one row.
"""
import lzma
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from typing import Callable

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

def bert_base():
    from transformers import BertConfig, BertModel
    return BertModel(BertConfig(), add_pooling_layer=False)


def llama_2layer():
    """LLaMA-8B's decoder layers (hidden 4096, 32 heads, 8 KV heads, MLP
    14336), two of them, under LLaMA-2's vocabulary."""
    from transformers import LlamaConfig, LlamaModel
    return LlamaModel(LlamaConfig(
        vocab_size=32000, hidden_size=4096, intermediate_size=14336,
        num_hidden_layers=2, num_attention_heads=32, num_key_value_heads=8,
        max_position_embeddings=4096, use_cache=False))


@dataclass(frozen=True)
class Model:
    """builder: the PyTorch model; shapes: the (batch, sequence) shapes
    timed; half: exported in f16 (an f32 export of LLaMA's layers would pass
    ONNX's 2 GB); export: the export it is prepared from (its own name by
    default); policy: prec-legalize's options; calibration_samples: prompts
    a calibration observes before legalization (0: none); peer_dtype: the
    dtype PyTorch's eager and torch.compile peers run in."""
    builder: Callable
    shapes: list
    half: bool
    export: str = ""
    policy: str = "enabled=f16 target=sm_90"
    calibration_samples: int = 0
    peer_dtype: str = "float16"


F8_LINEARS = ("enabled=f16,f8E4M3FN layer-precisions=*proj/MatMul:f8E4M3FN "
              "target=sm_90")
MODELS = {
    "bert_base": Model(bert_base, [(1, 128), (32, 128), (8, 512)], False),
    "llama_2layer": Model(llama_2layer, [(1, 2048)], True),
    "llama_2layer_f8": Model(llama_2layer, [(1, 2048)], True,
                             export="llama_2layer", policy=F8_LINEARS,
                             calibration_samples=2, peer_dtype="bfloat16"),
}


def export_of(name):
    return MODELS[name].export or name


def fill(module):
    """Every parameter and buffer of floating type from ffn_weights' formula
    (as [first dimension, the rest]), salted by its position; norm scales
    are 1 + the formula."""
    import torch
    from ffn_weights import weight
    state = module.state_dict()
    with torch.no_grad():
        for salt, (name, tensor) in enumerate(state.items()):
            if not tensor.is_floating_point():
                continue
            rows = tensor.shape[0] if tensor.dim() > 1 else 1
            values = weight(rows, tensor.numel() // rows, salt * 101)
            values = torch.from_numpy(values).to(tensor.dtype)
            if tensor.dim() == 1 and "norm" in name.lower() and \
                    name.endswith("weight"):
                values += 1
            tensor.copy_(values.reshape(tensor.shape))
    return module


def build(name):
    """The model with formula weights, returning its last hidden state alone
    (the export's one output), as test/models' exports do."""
    sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "models"))
    from make_models import TextLastHidden
    return TextLastHidden(fill(MODELS[name].builder())).eval()


def inputs(batch, sequence, salt=0):
    """Token ids and a padding mask: every other sample loses its last
    quarter. Another salt gives other prompts (a calibration's)."""
    rng = np.random.default_rng(batch * 1000 + sequence + salt * 7919)
    ids = rng.integers(3, 30000, size=(batch, sequence), dtype=np.int64)
    mask = np.ones((batch, sequence), dtype=np.int64)
    mask[1::2, sequence - sequence // 4:] = 0
    return {"input_ids": ids, "attention_mask": mask}


def compress(path):
    with open(path, "rb") as source, lzma.open(path + ".xz", "wb",
                                               preset=1) as target:
        shutil.copyfileobj(source, target, 1 << 24)
    os.remove(path)


def decompress(path):
    with lzma.open(path + ".xz", "rb") as source, open(path, "wb") as target:
        shutil.copyfileobj(source, target, 1 << 24)


def bound_engine(work, stem, feed):
    """The engine `stem` in WORK, its weights decompressed unless they are
    already, newer than their archive, created and bound to `feed`:
    (engine, tensors, outputs)."""
    from engine import Engine
    base = os.path.join(work, stem)
    weights = base + ".weights"
    if (not os.path.exists(weights)
            or os.path.getmtime(weights) < os.path.getmtime(weights + ".xz")):
        decompress(weights)
    engine = Engine(base + ".cu")
    tensors, outputs = engine.bind(feed)
    return engine, tensors, outputs


def export(work, names):
    import torch
    os.makedirs(work, exist_ok=True)
    for name in sorted({export_of(name) for name in names}):
        half = MODELS[name].half
        model = build(name)
        if half:
            model = model.half().cuda()
        example = inputs(2, 16)
        path = os.path.join(work, name + ".onnx")
        dynamic = {"input_ids": {0: "batch", 1: "sequence"},
                   "attention_mask": {0: "batch", 1: "sequence"}}
        device = next(model.parameters()).device
        torch.onnx.export(model, tuple(torch.from_numpy(v).to(device)
                                       for v in example.values()), path,
                          input_names=list(example), output_names=["hidden"],
                          dynamic_axes=dynamic, opset_version=17,
                          dynamo=False)
        compress(path)
        print(name, os.path.getsize(path + ".xz"), "bytes", flush=True)


def best_medians(functions, rounds=3):
    """Each function's median time, the best of `rounds` rounds that take
    the functions in turn, so that a slow spell of the GPU falls on all."""
    from engine import median_ms
    best = [float("inf")] * len(functions)
    for _ in range(rounds):
        best = [min(b, median_ms(f)) for b, f in zip(best, functions)]
    return best


def engine_stem(name, batch, sequence):
    return f"{name}_{batch}x{sequence}"


def calibrate(tool, base, batch, sequence, samples):
    """A minmax calibration of the imported model on `samples` other
    prompts; returns its path. One left by an earlier prepare is used again
    (legalization refuses it if the model has changed since)."""
    calibration = base + ".calibration.json"
    if os.path.exists(calibration):
        return calibration
    data = base + ".calibration.npz"
    np.savez(data, **inputs(batch * samples, sequence, salt=1))
    subprocess.run([tool("prec-calibrate"), base + ".mlir", "--data=" + data,
                    "--algorithm=minmax", "-o", calibration], check=True,
                   stdout=subprocess.DEVNULL)
    os.remove(data)
    return calibration


def prepare(bin_dir, work, names):
    tool = lambda name: os.path.join(bin_dir, name)
    for name in names:
        model = MODELS[name]
        onnx = os.path.join(work, export_of(name) + ".onnx")
        if not os.path.exists(onnx):
            decompress(onnx)
        for batch, sequence in model.shapes:
            stem = engine_stem(name, batch, sequence)
            base = os.path.join(work, stem)
            shape = f"{batch}x{sequence}"
            subprocess.run([tool("prec-translate"), "--import-onnx", onnx,
                            f"--input-shape=input_ids:{shape}",
                            f"--input-shape=attention_mask:{shape}",
                            "-o", base + ".mlir"], check=True)
            policy = model.policy
            if model.calibration_samples:
                calibration = calibrate(tool, base, batch, sequence,
                                        model.calibration_samples)
                policy += " calibration=" + calibration
            subprocess.run([tool("prec-opt"), base + ".mlir",
                            "--prec-legalize=" + policy,
                            "--emit-bytecode", "-o", base + ".legal.mlirbc"],
                           check=True)
            subprocess.run([tool("prec-translate"), "--emit-cuda",
                            base + ".legal.mlirbc", "--output-dir=" + work,
                            "--engine-name=" + stem], check=True)
            os.remove(base + ".mlir")
            os.remove(base + ".legal.mlirbc")
            compress(base + ".weights")
            print(stem, flush=True)
    for name in names:
        onnx = os.path.join(work, export_of(name) + ".onnx")
        if os.path.exists(onnx):
            os.remove(onnx)


def check(work, names):
    from concurrent.futures import ThreadPoolExecutor

    import torch
    from engine import build_library
    with ThreadPoolExecutor() as pool:  # nvcc takes a minute an engine
        list(pool.map(build_library, [
            os.path.join(work, engine_stem(name, *shape) + ".cu")
            for name in names for shape in MODELS[name].shapes]))
    # The engine runs as launched on the stream and as one CUDA graph: a
    # user calls either, so both are compared.
    print("| model | batch x sequence | engine ms | engine graph ms | "
          "eager ms | torch.compile ms | torch.compile / engine | "
          "torch.compile / engine graph | engine error | PyTorch error | "
          "PyTorch dtype |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        model = MODELS[name]
        reference = build(name).cuda()
        half = build(name).to(getattr(torch, model.peer_dtype)).cuda()
        # Static shapes: compiled again for each shape, as fast as it gets.
        compiled = torch.compile(half, dynamic=False)
        for batch, sequence in model.shapes:
            feed = inputs(batch, sequence)
            args = [torch.from_numpy(v).cuda() for v in feed.values()]
            engine, tensors, outputs = bound_engine(
                work, engine_stem(name, batch, sequence), feed)
            run, graph = engine.runner(tensors), engine.runner(tensors, True)
            with torch.no_grad():
                expected = reference(*args).double()
                eager = half(*args)
                compiled(*args)
                graph()
                torch.cuda.synchronize()
                actual = next(iter(outputs.values())).double()
                scale = expected.abs().max().item()
                error = lambda out: (out.double() - expected).abs().max() \
                    .item() / scale
                times = best_medians((run, graph, lambda: half(*args),
                                      lambda: compiled(*args)))
            engine.destroy()
            print(f"| {name} | {batch} x {sequence} | "
                  + " | ".join(f"{t:.3f}" for t in times)
                  + f" | {times[3] / times[0]:.2f} | {times[3] / times[1]:.2f}"
                  f" | {error(actual):.1e} | "
                  f"{error(eager):.1e} | {model.peer_dtype} |", flush=True)


def kernels_by_kind(events):
    """GPU time and launches per kind of kernel: an engine names its kernels
    k<N>_<op> (and functors such as k<N>_attention_logit) per layer, so that
    without the number every layer's instance of a kernel counts as one.
    Kernels of one signature ending at the same op (an elementwise add and a
    row kernel ending at an add, reading as many buffers) count as one."""
    kinds = {}
    for e in events:
        if e.device_time_total > 0:
            kind = re.sub(r"\bk\d+_", "k*_", e.key)
            time, count = kinds.get(kind, (0.0, 0))
            kinds[kind] = (time + e.device_time_total, count + e.count)
    return kinds


def kernel_events(function, runs):
    """The profiler's events of `runs` runs of `function` after 5 warm-up
    runs, one per kernel name, their times the sums over the runs."""
    import torch
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as trace_of
    with torch.no_grad():
        for _ in range(5):
            function()
        torch.cuda.synchronize()
        with trace_of(activities=[ProfilerActivity.CUDA]) as trace:
            for _ in range(runs):
                function()
            torch.cuda.synchronize()
    return trace.key_averages()


def print_kernel_profile(title, function, runs=10):
    """`function`'s kernels by kind (kernels_by_kind), by GPU time per run
    over `runs` runs after 5 warm-up runs, as a Markdown table."""
    kernels = kernels_by_kind(kernel_events(function, runs))
    total = sum(time for time, _ in kernels.values()) / runs
    print(f"## {title}, per run: {total / 1000:.3f} ms of GPU time\n"
          "| kernel | us per run | launches per run |\n|---|---|---|")
    for kind, (time, count) in sorted(kernels.items(),
                                      key=lambda k: -k[1][0])[:40]:
        print(f"| {kind[:80]} | {time / runs:.1f} | {count / runs:g} |")
    print(flush=True)


def profile(work, names):
    import torch
    for name in names:
        model = MODELS[name]
        half = build(name).to(getattr(torch, model.peer_dtype)).cuda()
        compiled = torch.compile(half, dynamic=False)
        for batch, sequence in model.shapes:
            stem = engine_stem(name, batch, sequence)
            feed = inputs(batch, sequence)
            args = [torch.from_numpy(v).cuda() for v in feed.values()]
            engine, tensors, _ = bound_engine(work, stem, feed)
            print_kernel_profile(f"{stem}: engine graph",
                                 engine.runner(tensors, True))
            print_kernel_profile(f"{stem}: torch.compile",
                                 lambda: compiled(*args))
            engine.destroy()


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "prepare":
        bin_dir, arguments = arguments[0], arguments[1:]
    work, names = arguments[0], arguments[1:] or list(MODELS)
    if command == "export":
        export(work, names)
    elif command == "prepare":
        prepare(bin_dir, work, names)
    elif command == "profile":
        profile(work, names)
    else:
        check(work, names)
