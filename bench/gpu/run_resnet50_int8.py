"""ResNet-50 at batch 64 with its bottleneck convolutions in int8,
calibrated, against the f16 engine of the same export and PyTorch, in one
run on the GPU.

  export WORK          (there) ResNet-50 with weights from ffn_weights'
                       formula, scaled per layer (see `fill`), exported at
                       batch 64 in f32 (legacy exporter, opset 17); the
                       .onnx.xz is a few kilobytes.
  prepare BIN WORK     (here) imports it, calibrates it (minmax, one batch
                       of 64 other images), legalizes it three times (f16;
                       f16 with every convolution, the stem's and the four
                       stages', pinned to i8 by layer-precisions; and the
                       same with the residual stream in i8,
                       quantize-residuals) and emits
                       the engines, their weights compressed.
  check WORK           (there) runs the engines, PyTorch f32 (the
                       reference), f16 eager and torch.compile on the same
                       images: each one's largest error relative to the
                       largest logit, and the best medians of three rounds.
  profile WORK         (there) each engine's kernels as a CUDA graph, and
                       torch.compile's, by GPU time a run.
  convolutions WORK    (there) the int8 engines' kernels one at a time
                       (copies with early launch off, so that no kernel's
                       time includes waiting for the one before it), by
                       GPU time a run; each convolution with its shape and
                       tera-operations a second.
  compare OLD NEW      (there) the int8 engines of two builds (OLD holds
                       only resnet50_i8, e.g. emitted before a change) and
                       NEW's f16 engine as graphs, best medians of
                       interleaved rounds, and the largest difference
                       between the two int8 engines' outputs.
"""
import os
import re
import subprocess
import sys

import numpy as np

from run_transformers import (best_medians, bound_engine, compress,
                              decompress, kernel_events, print_kernel_profile)

HERE = os.path.dirname(os.path.abspath(__file__))
BATCH = 64
STEM = "resnet50"
I8_LAYERS = "/conv1/Conv:i8,/layer*/Conv:i8"
I8_POLICY = (f"enabled=f16,i8 constraints=obey layer-precisions={I8_LAYERS} "
             "target=sm_90")
ENGINES = {"resnet50_f16": "enabled=f16 target=sm_90",
           "resnet50_i8": I8_POLICY,
           "resnet50_i8_residuals": I8_POLICY + " quantize-residuals=true"}


def fill(model):
    """Formula weights (ffn_weights.weight, uniform in +-1/64) scaled so
    that each convolution and the classifier keep their input's variance
    (uniform in +-sqrt(3 / fan_in)); batch norms with scale and variance 1
    and mean 0, so that the exporter's folding of each into its convolution
    scales every filter alike and the weights stay a formula (they compress
    a thousandfold), and the formula as their shift."""
    import torch
    from ffn_weights import weight
    with torch.no_grad():
        for salt, (name, tensor) in enumerate(model.state_dict().items()):
            if not tensor.is_floating_point():
                continue
            rows = tensor.shape[0] if tensor.dim() > 1 else 1
            values = torch.from_numpy(
                weight(rows, tensor.numel() // rows, salt * 101)
                .astype(np.float32)).reshape(tensor.shape)
            if tensor.dim() > 1:
                values *= 64 * (3 / (tensor.numel() // rows)) ** 0.5
            elif name.endswith(("weight", "running_var")):
                values = torch.ones_like(values)
            elif name.endswith("running_mean"):
                values = torch.zeros_like(values)
            tensor.copy_(values)
    return model


def build():
    import torchvision
    return fill(torchvision.models.resnet50(weights=None)).eval()


def images(salt=0):
    return np.random.default_rng(salt).random(
        (BATCH, 3, 224, 224), dtype=np.float32)


def export(work):
    import torch
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, STEM + ".onnx")
    torch.onnx.export(build(), (torch.from_numpy(images()),), path,
                      input_names=["x"], output_names=["logits"],
                      opset_version=17, dynamo=False)
    compress(path)
    print(STEM, os.path.getsize(path + ".xz"), "bytes")


def prepare(bin_dir, work):
    tool = lambda name: os.path.join(bin_dir, name)
    base = os.path.join(work, STEM)
    decompress(base + ".onnx")
    subprocess.run([tool("prec-translate"), "--import-onnx", base + ".onnx",
                    "-o", base + ".mlir"], check=True)
    data = base + ".calibration.npz"
    np.savez(data, x=images(salt=1))
    calibration = base + ".calibration.json"
    subprocess.run([tool("prec-calibrate"), base + ".mlir", "--data=" + data,
                    "--algorithm=minmax", "-o", calibration], check=True,
                   stdout=subprocess.DEVNULL)
    for name, policy in ENGINES.items():
        if "i8" in policy:
            policy += " calibration=" + calibration
        legal = os.path.join(work, name + ".legal.mlirbc")
        subprocess.run([tool("prec-opt"), base + ".mlir",
                        "--prec-legalize=" + policy, "--emit-bytecode", "-o",
                        legal], check=True)
        subprocess.run([tool("prec-translate"), "--emit-cuda", legal,
                        "--output-dir=" + work, "--engine-name=" + name],
                       check=True)
        os.remove(legal)
        compress(os.path.join(work, name + ".weights"))
        print(name, flush=True)
    for leftover in (base + ".onnx", base + ".mlir", data):
        os.remove(leftover)


def check(work):
    import torch
    feed = {"x": images()}
    x = torch.from_numpy(feed["x"]).cuda()
    reference = build().cuda()
    half = build().half().cuda()
    compiled = torch.compile(half, dynamic=False)
    with torch.no_grad():
        expected = reference(x).double()
        scale = expected.abs().max().item()
        error = lambda out: (out.double() - expected).abs().max().item() / scale
        eager = half(x.half())
        compiled(x.half())
        runs, errors, engines = {}, {}, []
        for name in ENGINES:
            engine, tensors, outputs = bound_engine(work, name, feed)
            engines.append(engine)
            runs[name] = engine.runner(tensors)
            runs[name + " graph"] = engine.runner(tensors, True)
            runs[name]()
            torch.cuda.synchronize()
            errors[name] = error(next(iter(outputs.values())))
        runs["eager f16"] = lambda: half(x.half())
        runs["torch.compile f16"] = lambda: compiled(x.half())
        errors["eager f16"] = errors["torch.compile f16"] = error(eager)
        times = dict(zip(runs, best_medians(list(runs.values()))))
    print(f"ResNet-50, batch {BATCH}, largest logit {scale:.3f}")
    print("| run | ms | resnet50_f16 / run | error from f32 |\n|---|---|---|---|")
    for name, ms in times.items():
        engine_name = name.split(" ")[0]
        f16 = times["resnet50_f16" + (" graph" if "graph" in name else "")]
        print(f"| {name} | {ms:.3f} | {f16 / ms:.2f} | "
              f"{errors.get(engine_name, errors.get(name)):.1e} |")
    for engine in engines:
        engine.destroy()


def profile(work):
    import torch
    feed = {"x": images()}
    x = torch.from_numpy(feed["x"]).cuda().half()
    compiled = torch.compile(build().half().cuda(), dynamic=False)
    for name in ENGINES:
        engine, tensors, _ = bound_engine(work, name, feed)
        print_kernel_profile(f"{name}: engine graph",
                             engine.runner(tensors, True))
        engine.destroy()
    print_kernel_profile("torch.compile f16", lambda: compiled(x))


# An implicit-GEMM convolution's geometry in the engine's text: its name
# (the kernel's) and prec_conv_geometry's fields.
GEOMETRY = re.compile(r"struct (k\d+_\w+?)_geometry \{\s*static constexpr "
                      r"prec_conv_geometry value\{([^}]*)\}")


def convolutions(work):
    from engine import Engine
    from run_early_launch import serial_copy
    feed = {"x": images()}
    for name in ("resnet50_i8", "resnet50_i8_residuals"):
        base = os.path.join(work, name)
        if not os.path.exists(base + ".weights"):
            decompress(base + ".weights")
        cu = serial_copy(base)
        geometries = {kernel: [int(v) for v in values.split(",")]
                      for kernel, values in GEOMETRY.findall(open(cu).read())}
        engine = Engine(cu)
        tensors, _ = engine.bind(feed)
        runs = 10
        events = kernel_events(engine.runner(tensors, True), runs)
        engine.destroy()
        times = sorted(((e.device_time_total / runs, e.key)
                        for e in events if e.device_time_total > 0),
                       reverse=True)
        print(f"## {name}, one kernel at a time: "
              f"{sum(t for t, _ in times) / 1000:.3f} ms of GPU time a run\n"
              "| kernel | us | input NxHxWxC | output OHxOWxF | window/stride "
              "| TOPS |\n|---|---|---|---|---|---|")
        for time, key in times:
            kernel = next((k for k in geometries if k + "_geometry" in key), None)
            if kernel is None:
                print(f"| {key[:60]} | {time:.1f} | | | | |")
                continue
            h, w, c, oh, ow, f, kh, kw, sh = geometries[kernel][:9]
            operations = 2 * BATCH * oh * ow * f * kh * kw * c
            print(f"| {kernel} | {time:.1f} | {BATCH}x{h}x{w}x{c} | "
                  f"{oh}x{ow}x{f} | {kh}x{kw}/{sh} | "
                  f"{operations / time / 1e6:.0f} |")
        print(flush=True)


def compare(old, new):
    import torch
    from concurrent.futures import ThreadPoolExecutor
    from engine import build_library
    feed = {"x": images()}
    stems = [(old, "resnet50_i8"), (new, "resnet50_i8"), (new, "resnet50_f16")]
    with ThreadPoolExecutor() as pool:  # nvcc takes a minute an engine
        list(pool.map(build_library, [os.path.join(work, stem + ".cu")
                                      for work, stem in stems]))
    engines, runs, outputs = [], [], []
    for work, stem in stems:
        engine, tensors, outs = bound_engine(work, stem, feed)
        engines.append(engine)
        runs.append(engine.runner(tensors, True))
        runs[-1]()
        outputs.append(next(iter(outs.values())))
    torch.cuda.synchronize()
    difference = (outputs[0].double() - outputs[1].double()).abs().max()
    old_ms, new_ms, f16_ms = best_medians(runs)
    print(f"int8 old {old_ms:.3f} ms, new {new_ms:.3f} ms "
          f"(new / old time {new_ms / old_ms:.3f}); f16 {f16_ms:.3f} ms: "
          f"f16 / int8 old {f16_ms / old_ms:.2f}, new {f16_ms / new_ms:.2f}; "
          f"largest difference {difference.item():.3e}")
    for engine in engines:
        engine.destroy()


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "export":
        export(sys.argv[2])
    elif command == "prepare":
        prepare(sys.argv[2], sys.argv[3])
    elif command == "check":
        check(sys.argv[2])
    elif command == "profile":
        profile(sys.argv[2])
    elif command == "convolutions":
        convolutions(sys.argv[2])
    elif command == "compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
