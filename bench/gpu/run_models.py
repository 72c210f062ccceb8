"""test/models' exports as f16 engines, against PyTorch f32 and f16.

  python3 run_models.py prepare BIN WORK   # here: prec's tools
  python3 run_models.py check WORK         # on the GPU machine

`prepare` takes every export of test/models/manifest.json through prec:
import, the CPU run in f32 against PyTorch's f32 outputs, legalization with
enabled=f16 for sm_90, the CPU run of that program, and its CUDA engine; it
writes them under WORK with WORK/table.json holding the CPU columns. `check`
builds and runs each engine on the GPU and rebuilds the PyTorch model
(test/models/make_models.py, same seed) to run it in f16 on the GPU as the
peer; it prints one markdown table: the largest absolute error of each run
against PyTorch f32, relative to the output's largest magnitude, the engine
against its CPU run, and the median times of the engine and of PyTorch f16
eager measured in the same process.
"""
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "..", "..", "test", "models")


def max_error(actual, expected):
    """Largest absolute error over all outputs, and the outputs' largest
    magnitude."""
    error = scale = 0.0
    for name in expected:
        a = np.asarray(actual[name], np.float64)
        e = np.asarray(expected[name], np.float64)
        error = max(error, float(np.abs(a - e).max()))
        scale = max(scale, float(np.abs(e).max()))
    return error, scale


def prepare(bin_dir, work):
    os.makedirs(work, exist_ok=True)
    tool = lambda name: os.path.join(bin_dir, name)
    rows = []
    for entry in json.load(open(os.path.join(MODELS, "manifest.json"))):
        stem = entry["onnx"][:-5].replace("-", "_")
        base = os.path.join(work, stem)
        inputs = os.path.join(MODELS, entry["inputs"])
        expected = dict(np.load(os.path.join(MODELS, entry["outputs"])))
        row = {"family": entry["family"], "exporter": entry["exporter"],
               "stem": stem, "inputs": entry["inputs"],
               "outputs": entry["outputs"]}
        rows.append(row)
        imported = subprocess.run(
            [tool("prec-translate"), "--import-onnx",
             os.path.join(MODELS, entry["onnx"]), "-o", base + ".mlir"],
            capture_output=True, text=True)
        row["import"] = imported.returncode == 0
        if not row["import"]:
            continue
        for policy, suffix in (("", "cpu_f32"), ("enabled=f16 target=sm_90",
                                                 "cpu_f16")):
            program = base + ".mlir"
            if policy:
                program = base + ".f16.mlir"
                subprocess.run([tool("prec-opt"), base + ".mlir",
                                "--prec-legalize=" + policy, "-o", program],
                               check=True, capture_output=True)
            subprocess.run([tool("prec-run"), program, "--load-inputs", inputs,
                            "--save-outputs", f"{base}.{suffix}.npz"],
                           check=True, capture_output=True)
            row[suffix] = max_error(np.load(f"{base}.{suffix}.npz"), expected)
        emitted = subprocess.run([tool("prec-translate"), "--emit-cuda",
                                  base + ".f16.mlir", "--output-dir=" + os.path.dirname(base),
                                  "--engine-name=" + os.path.basename(base)],
                                 capture_output=True, text=True)
        row["emit"] = emitted.returncode == 0
        os.remove(base + ".mlir")
        os.remove(base + ".f16.mlir")
        print(stem, row.get("cpu_f32"), row.get("cpu_f16"), row["emit"],
              flush=True)
    json.dump(rows, open(os.path.join(work, "table.json"), "w"), indent=1)


def torch_f16(family, inputs):
    """PyTorch's own f16 run of the family on the GPU, and its time."""
    import torch
    from engine import median_ms
    sys.path.insert(0, MODELS)
    import make_models
    build = dict(make_models.FAMILIES)[family]
    model, _, _ = make_models.build_family(build)
    model = model.half().cuda()
    args = [torch.from_numpy(v).cuda() for v in inputs.values()]
    args = [a.half() if a.is_floating_point() else a for a in args]
    with torch.no_grad():
        out = model(*args)
        ms = median_ms(lambda: model(*args), warmup=5, runs=20)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return [o.float().cpu().numpy() for o in outs], ms


def run_engine(cu, inputs):
    import torch
    from engine import Engine, median_ms
    engine = Engine(cu)
    tensors, outputs = engine.bind(inputs)
    run = engine.runner(tensors)
    run()
    torch.cuda.synchronize()
    result = {k: v.float().cpu().numpy() for k, v in outputs.items()}
    ms = median_ms(run, warmup=5, runs=20)
    engine.destroy()
    return result, ms


def check(work):
    rows = json.load(open(os.path.join(work, "table.json")))
    fmt = lambda e: "-" if e is None else f"{e[0] / e[1]:.1e}"
    print("| model | exporter | import | CPU f32 | CPU f16 | engine f16 | "
          "engine vs CPU f16 | PyTorch f16 | engine ms | PyTorch f16 ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    failed = False
    for row in rows:
        base = os.path.join(work, row["stem"])
        inputs = dict(np.load(os.path.join(MODELS, row["inputs"])))
        expected = dict(np.load(os.path.join(MODELS, row["outputs"])))
        engine = against_cpu = engine_ms = None
        if row.get("emit"):
            try:
                result, engine_ms = run_engine(base + ".cu", inputs)
                engine = max_error(result, expected)
                against_cpu = max_error(result,
                                        dict(np.load(base + ".cpu_f16.npz")))
            except Exception as error:  # report the row, go on
                print(f"{row['stem']}: engine failed: {error}", flush=True)
        failed |= engine is None
        peer, peer_ms = torch_f16(row["family"], inputs)
        peer_error = max_error(dict(zip(expected, peer)), expected)
        print(f"| {row['family']} | {row['exporter']} | "
              f"{'yes' if row['import'] else 'no'} | {fmt(row.get('cpu_f32'))}"
              f" | {fmt(row.get('cpu_f16'))} | {fmt(engine)} | "
              f"{fmt(against_cpu)} | {fmt(peer_error)} | "
              f"{'-' if engine_ms is None else f'{engine_ms:.3f}'} | "
              f"{peer_ms:.3f} |", flush=True)
    return not failed


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(0 if check(sys.argv[2]) else 1)
