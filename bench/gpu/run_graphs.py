"""Engines replayed as CUDA graphs (`<engine>_run_graph`) against plain runs
and against PyTorch, on test/models' exports: launch-bound transformers and
CNNs at batch 1 or 2.

  python3 run_graphs.py prepare BIN WORK   # here: prec's tools
  python3 run_graphs.py check WORK         # on the GPU machine

`prepare` imports every export of test/models/manifest.json, legalizes it
with enabled=f16 for sm_90 and emits its engine under WORK; the ResNet
export again with its convolutions on cuDNN (--conv=cudnn); and a ResNet
engine with a dynamic batch (--batch=1:2:4, imported at batch 4).

`check`, for each engine: the outputs of run and run_graph are
bit-identical, also after the output bindings move to new memory (the graph
is captured again); then the median times of run and run_graph, and of the
same model in PyTorch f16: eager, and eager captured in a torch.cuda.CUDAGraph
(the peer for launch overhead, where the model can be captured);
torch.compile(mode="reduce-overhead") for the legacy exports of the
families in COMPILED. It prints one markdown table with the ratios
run_graph / run and run_graph / the fastest PyTorch time. The dynamic-batch engine
checks run_graph against run at every batch, the batch changing between
replays.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "..", "..", "test", "models")
COMPILED = {"bert", "gpt2", "llama", "vit", "resnet"}
DYNAMIC = "resnet_legacy_dynamic"


def build_engine(bin_dir, work, onnx, stem, import_flags=(), emit_flags=()):
    """Imports test/models' `onnx`, legalizes it to f16 for sm_90 and emits
    the engine WORK/STEM.cu; whether every step succeeded."""
    tool = lambda name: os.path.join(bin_dir, name)
    base = os.path.join(work, stem)
    steps = [
        [tool("prec-translate"), "--import-onnx", os.path.join(MODELS, onnx),
         *import_flags, "-o", base + ".mlir"],
        [tool("prec-opt"), base + ".mlir",
         "--prec-legalize=enabled=f16 target=sm_90", "-o", base + ".f16.mlir"],
        [tool("prec-translate"), "--emit-cuda", base + ".f16.mlir",
         "--output-dir=" + work, "--engine-name=" + stem, *emit_flags]]
    built = all(subprocess.run(step, capture_output=True).returncode == 0
                for step in steps)
    for suffix in (".mlir", ".f16.mlir"):
        if os.path.exists(base + suffix):
            os.remove(base + suffix)
    return built


def prepare(bin_dir, work):
    os.makedirs(work, exist_ok=True)
    engines = []
    for entry in json.load(open(os.path.join(MODELS, "manifest.json"))):
        stem = entry["onnx"][:-5].replace("-", "_")
        if build_engine(bin_dir, work, entry["onnx"], stem):
            engines.append({"stem": stem, "family": entry["family"],
                            "inputs": entry["inputs"]})
    # cuDNN's convolutions captured too.
    if not build_engine(bin_dir, work, "resnet-legacy.onnx",
                        "resnet_legacy_cudnn", emit_flags=["--conv=cudnn"]):
        sys.exit("the cuDNN ResNet engine was not built")
    engines.append({"stem": "resnet_legacy_cudnn", "family": "resnet",
                    "inputs": "resnet.in.npz"})
    if not build_engine(bin_dir, work, "resnet-legacy.onnx", DYNAMIC,
                        import_flags=["--input-shape", "input:4x3x64x64"],
                        emit_flags=["--batch=1:2:4"]):
        sys.exit("the dynamic-batch ResNet engine was not built")
    json.dump(engines, open(os.path.join(work, "engines.json"), "w"), indent=1)
    print(f"{len(engines)} engines and {DYNAMIC} in {work}")


def outputs_of(run, outputs):
    import torch
    for tensor in outputs.values():
        tensor.fill_(float("nan") if tensor.is_floating_point() else -1)
    run()
    torch.cuda.synchronize()
    return {name: tensor.clone() for name, tensor in outputs.items()}


def same(a, b):
    import torch
    return all(torch.equal(a[name].view(torch.uint8), b[name].view(torch.uint8))
               for name in a)


def check_engine(cu, inputs):
    """Whether run_graph matches run bit for bit, before and after the
    outputs move; and both median times."""
    from engine import Engine, median_ms
    engine = Engine(cu)
    tensors, outputs = engine.bind(inputs)
    plain = outputs_of(engine.runner(tensors), outputs)
    identical = same(plain, outputs_of(engine.runner(tensors, graph=True),
                                       outputs))
    moved, moved_outputs = engine.bind(inputs)
    identical &= same(plain, outputs_of(engine.runner(moved, graph=True),
                                        moved_outputs))
    run_ms = median_ms(engine.runner(tensors), warmup=10, runs=50)
    graph_ms = median_ms(engine.runner(tensors, graph=True), warmup=10, runs=50)
    engine.destroy()
    return identical, run_ms, graph_ms


def graphed_ms(model, args):
    """Median ms of `model(*args)` captured in a torch.cuda.CUDAGraph, or
    None where the model cannot be captured (Hugging Face models copy
    host tensors to the GPU as they run)."""
    import torch
    from engine import median_ms
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            model(*args)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(graph):
            model(*args)
    except RuntimeError:
        torch.cuda.synchronize()
        return None
    return median_ms(graph.replay, warmup=5, runs=50)


def torch_times(family, inputs, compiled):
    """PyTorch f16 eager, eager replayed as a CUDA graph, and (if
    `compiled`) torch.compile reduce-overhead: median ms."""
    import torch
    from engine import median_ms
    sys.path.insert(0, MODELS)
    import make_models
    build = dict(make_models.FAMILIES)[family]
    model, _, _ = make_models.build_family(build)
    model = model.half().cuda().eval()
    args = [torch.from_numpy(v).cuda() for v in inputs.values()]
    args = [a.half() if a.is_floating_point() else a for a in args]
    times = {}
    with torch.no_grad():
        times["eager"] = median_ms(lambda: model(*args), warmup=5, runs=50)
        times["graph"] = graphed_ms(model, args)
        if compiled:
            fast = torch.compile(model, mode="reduce-overhead")
            times["compile"] = median_ms(lambda: fast(*args), warmup=5, runs=50)
    return times


def check_dynamic(work):
    """run_graph against run at each batch, set_batch between replays."""
    import torch
    from engine import Engine
    engine = Engine(os.path.join(work, DYNAMIC + ".cu"))
    generator = torch.Generator().manual_seed(1)
    x = torch.rand(4, 3, 64, 64, generator=generator).cuda()
    y = torch.empty(4, 10, device="cuda")
    results = []
    for batch in (2, 4, 1, 2):
        assert engine.set_batch(batch) == 0
        plain = outputs_of(engine.runner([x, y]), {"y": y})
        graphed = outputs_of(engine.runner([x, y], graph=True), {"y": y})
        results.append(same({"y": plain["y"][:batch]},
                            {"y": graphed["y"][:batch]}))
    engine.destroy()
    print(f"{DYNAMIC}: run_graph == run at batches 2, 4, 1, 2: {results}")
    return all(results)


def check(work):
    import numpy as np
    sys.path.insert(0, HERE)
    engines = json.load(open(os.path.join(work, "engines.json")))
    print("| model | identical | run ms | run_graph ms | graph / run | "
          "PyTorch eager ms | PyTorch graph ms | torch.compile ms | "
          "run_graph / fastest PyTorch |")
    print("|---|---|---|---|---|---|---|---|---|")
    ok = True
    for entry in engines:
        inputs = dict(np.load(os.path.join(MODELS, entry["inputs"])))
        identical, run_ms, graph_ms = check_engine(
            os.path.join(work, entry["stem"] + ".cu"), inputs)
        peer = torch_times(entry["family"], inputs,
                           entry["family"] in COMPILED and
                           entry["stem"].endswith("legacy"))
        ok &= identical
        ms = lambda key: f"{peer[key]:.3f}" if peer.get(key) else "-"
        best = min(t for t in (peer["eager"], peer["graph"],
                               peer.get("compile")) if t)
        print(f"| {entry['stem']} | {'yes' if identical else 'NO'} | "
              f"{run_ms:.3f} | {graph_ms:.3f} | {graph_ms / run_ms:.2f} | "
              f"{ms('eager')} | {ms('graph')} | {ms('compile')} | "
              f"{graph_ms / best:.2f} |", flush=True)
    return check_dynamic(work) and ok


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(0 if check(sys.argv[2]) else 1)
