"""The op tests' models as f16 engines, against their CPU runs and f32.

The models of test/import/normalization-f16.test (LayerNorm, its legacy
decomposition, RMSNorm, GroupNorm, InstanceNorm on N(0, 500) activations:
their statistics stay f32, on the CPU and in the engines' row kernels alike)
and of test/import/onnx-ops.test that run on data known only at run time
(embeddings of int64 ids, masks from attention_mask, scans and pads,
gathers, einsums, Trilu, Mod, Sin and Cos, rotary embeddings read through
their moves),
legalized with enabled=f16 for sm_90.

  python3 op_engines.py prepare BIN WORK   # here: prec's tools
  python3 op_engines.py check WORK         # on the GPU machine

`prepare` writes each model's engine, inputs, CPU outputs (prec-run of the
same legalized program) and numpy's f32 outputs under WORK; `check` runs the
engines and fails when one strays from its CPU run by more than 4e-3 (a few
f16 roundings that another summation order can flip) or from f32 by more
than 1e-2, the bound the CPU tests hold them to.
"""
import os
import subprocess
import sys

MODELS = ["ln_big", "ln_decomposed", "rmsnorm", "groupnorm", "groupnorm18",
          "instancenorm", "embedding", "runtime_mask", "scans", "gathers",
          "einsum", "rotary"]
HERE = os.path.dirname(os.path.abspath(__file__))
MAKE_MODELS = os.path.join(HERE, "..", "..", "test", "import", "Inputs",
                           "make_models.py")


def prepare(bin_dir, work):
    os.makedirs(work, exist_ok=True)
    subprocess.run(["/usr/bin/python3", MAKE_MODELS, work], check=True)
    tool = lambda name: os.path.join(bin_dir, name)
    for model in MODELS:
        base = os.path.join(work, model)
        subprocess.run([tool("prec-translate"), "--import-onnx", base + ".onnx",
                        "-o", base + ".mlir"], check=True)
        subprocess.run([tool("prec-opt"), base + ".mlir",
                        "--prec-legalize=enabled=f16 target=sm_90",
                        "-o", base + ".f16.mlir"], check=True)
        subprocess.run([tool("prec-run"), base + ".f16.mlir", "--load-inputs",
                        base + ".in.npz", "--save-outputs", base + ".cpu.npz"],
                       check=True, stdout=subprocess.DEVNULL)
        subprocess.run([tool("prec-translate"), "--emit-cuda",
                        base + ".f16.mlir", "--output-dir=" + os.path.dirname(base),
                        "--engine-name=" + os.path.basename(base)], check=True)
    # What the GPU machine needs, and nothing else: the tree travels there.
    keep = (".cu", ".h", ".weights", ".json", ".in.npz", ".cpu.npz", ".golden.npz")
    for name in os.listdir(work):
        if not (name.split(".")[0] in MODELS and name.endswith(keep)):
            os.remove(os.path.join(work, name))


def check(work):
    from check_engines import run
    agrees = True
    for model in MODELS:
        base = os.path.join(work, model)
        for reference, bound in (("cpu", 4e-3), ("golden", 1e-2)):
            agrees &= run(base + ".cu", base + ".in.npz",
                          {reference: f"{base}.{reference}.npz"}, bound)
    print("all engines agree" if agrees else "FAILED")
    return agrees


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(0 if check(sys.argv[2]) else 1)
