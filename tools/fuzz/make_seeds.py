"""Fills the seed corpora of prec's fuzz targets from the test suite.

Usage: make_seeds.py ROOT BIN OUT. ROOT is prec's source tree, BIN its
build/bin (prec-calibrate makes the calibration seeds), OUT gets one folder
per target. Seeds are what the tests feed the same readers, so the fuzzers
start from inputs that reach deep, valid paths.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

root, bin_dir, out = sys.argv[1:4]


def seed(target, name, data):
    folder = os.path.join(out, target)
    os.makedirs(folder, exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(os.path.join(folder, name), mode) as f:
        f.write(data)


def source_files(*patterns):
    for pattern in patterns:
        yield from sorted(glob.glob(os.path.join(root, pattern), recursive=True))


# MLIR: every test case (split where lit's --split-input-file splits) and
# every example.
for path in source_files("test/**/*.mlir", "examples/*.mlir"):
    cases = open(path).read().split("// -----")
    base = os.path.relpath(path, root).replace("/", "_")
    for i, case in enumerate(cases):
        seed("mlir", f"{base}.{i}", case)

# Option strings the tests give prec-legalize, and file-free variations.
options = set()
for path in source_files("test/**/*.mlir", "test/**/*.test", "README.md"):
    text = open(path).read()
    options.update(re.findall(r'prec-legalize="([^"]*)"', text))
    options.update(re.findall(r"prec-legalize\{([^}]*)\}", text))
options.update([
    "enabled=f16,bf16,i8,f8E4M3FN typing=strong target=sm_89",
    "binding-layout=nhwc constraints=prefer layer-precisions=conv*:bf16",
    "val-range=x:[-1e30,1e30] io-types=x:bf16 layer-output-types=*:f16",
])
for i, option in enumerate(sorted(options)):
    seed("legalize-options", f"test.{i}", option)

# ONNX models and their .npz inputs and goldens, as the import tests make them.
with tempfile.TemporaryDirectory() as models:
    subprocess.run([sys.executable,
                    os.path.join(root, "test/import/Inputs/make_models.py"),
                    models], check=True, stdout=subprocess.DEVNULL)
    for path in sorted(glob.glob(os.path.join(models, "*"))):
        name = os.path.basename(path)
        target = "onnx" if name.endswith(".onnx") else "npy"
        seed(target, name, open(path, "rb").read())

# .npy and .npz in every layout numpy writes.
with tempfile.TemporaryDirectory() as arrays:
    rng = np.random.default_rng(0)
    samples = {
        "f32": rng.standard_normal((2, 3)).astype(np.float32),
        "f16": rng.standard_normal((4,)).astype(np.float16),
        "f64": np.array(3.5),
        "i8": np.arange(-4, 4, dtype=np.int8).reshape(2, 2, 2),
        "u2": np.arange(6, dtype=np.uint16),
        "bool": np.array([True, False]),
        "big_endian": np.arange(3, dtype=">f4"),
        "fortran": np.asfortranarray(np.ones((2, 3), np.float32)),
        "empty": np.zeros((0, 3), np.float32),
    }
    for name, array in samples.items():
        path = os.path.join(arrays, name + ".npy")
        np.save(path, array)
        seed("npy", name + ".npy", open(path, "rb").read())
    with open(os.path.join(arrays, "v2.npy"), "wb") as f:
        np.lib.format.write_array(f, samples["f32"], version=(2, 0))
    seed("npy", "v2.npy", open(os.path.join(arrays, "v2.npy"), "rb").read())
    for name, save in [("stored.npz", np.savez),
                       ("deflated.npz", np.savez_compressed)]:
        path = os.path.join(arrays, name)
        save(path, a=samples["f32"], b=samples["i8"])
        seed("npy", name, open(path, "rb").read())

# Plans the tests read.
for path in source_files("test/**/Inputs/*.json"):
    seed("plan", os.path.basename(path), open(path).read())

seed("plan", "trtorch_example.json", """{
  "version": 1,
  "ops": [
    {"name": "conv*", "compute": "f16", "accumulate": "f32", "output": "f16", "mode": "obey"},
    {"op": "tosa.max_pool2d", "compute": "bf16", "mode": "prefer"}
  ],
  "classes": [{"class": "elementwise", "compute": "f16", "output": "f32"}]
}
""")

# Calibrations and TensorRT caches of the INT8 MLP example, by each
# algorithm, and a cache in TensorRT's own spelling.
with tempfile.TemporaryDirectory() as calibrations:
    for algorithm in ["minmax", "entropy", "percentile"]:
        json_path = os.path.join(calibrations, algorithm + ".json")
        cache_path = os.path.join(calibrations, algorithm + ".cache")
        subprocess.run([os.path.join(bin_dir, "prec-calibrate"),
                        os.path.join(root, "examples/mlp_int8.mlir"),
                        "--val-range", "x:[-1,1]", "--samples", "16",
                        "--algorithm", algorithm, "-o", json_path,
                        "--trt-cache", cache_path],
                       check=True, stdout=subprocess.DEVNULL)
        seed("calibration", algorithm + ".json", open(json_path).read())
        seed("trt-cache", algorithm + ".cache", open(cache_path).read())
seed("trt-cache", "tensorrt.cache",
     "TRT-8601-EntropyCalibration2\nx: 3c010a14\n"
     "/fc1/Relu_output_0: 3d8c0b5e\n(Unnamed Layer* 3) [Shuffle]_output: 3c8d2a1b\n")
