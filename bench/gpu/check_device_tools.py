"""prec-debug and prec-calibrate on the GPU against the same runs on the CPU.

    # here (MLIR): CPU runs, and the models and calibrations they need
    /usr/bin/python3 bench/gpu/check_device_tools.py record "build/bin/{}" WORK
    # on the GPU machine (bench/gpu/pack_tools.py's binary)
    python3 bench/gpu/check_device_tools.py check "./prec-tools {}" WORK

Every search runs with the same legalization target (sm_90) on both
devices. For each search, `check` prints whether the GPU took the same
steps (the same layers marked at each) and kept the same layers, the
largest difference between the two devices' errors at a step that marked
the same layers, and the times; for each calibration, the largest
relative difference of a tensor's amax. The two devices compute the same
rounded program up to summation order (the engine's GEMMs and reductions
add in their own order), so a value near a rounding boundary of the low
precision may round the other way and move an error by up to an ulp of
the low precision at the outputs' magnitude (PyTorch's outputs in
test/models say it); a search whose errors lie that close to its
tolerance may then decide differently. Exits 1 when a search differs by
more, or a calibration's amax by 1e-3 relative.
"""
import json
import math
import os
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
MODELS = os.path.join(ROOT, "test", "models")

# (name, model, its inputs, prec-debug arguments); models named NAME-EXPORTER
# are imported from test/models by `record`.
SEARCHES = [
    ("fused_bias worst-first", "test/runtime/Inputs/fused_bias.mlir", None,
     "--mode worst-first --atol 1e-4"),
    ("bert bisect", "bert-legacy", "bert", "--mode bisect --atol 1e-3"),
    ("resnet worst-first", "resnet-legacy", "resnet",
     "--mode worst-first --atol 3e-4"),
    ("llama delta", "llama-dynamo", "llama", "--mode delta --atol 1e-3"),
    ("swin bisect", "swin-legacy", "swin", "--mode bisect --atol 1e-3"),
    ("vit bisect", "vit-legacy", "vit", "--mode bisect --atol 4e-3"),
    ("vit bf16 bisect", "vit-legacy", "vit",
     "--mode bisect --enabled bf16 --atol 1e-2"),
    ("mlp fp8 worst-first", "examples/mlp_int8.mlir", None,
     "--mode worst-first --enabled fp8 --val-range x:[-3,3] --atol 5e-2 "
     "--calibration {work}/mlp.calib.json"),
    ("bert i8 bisect", "bert-legacy", "bert",
     "--mode bisect --enabled i8 --atol 1e-2 "
     "--calibration {work}/bert.calib.json"),
    ("resnet i8 bisect", "resnet-legacy", "resnet",
     "--mode bisect --enabled i8 --atol 1e-2 "
     "--calibration {work}/resnet.calib.json"),
]

# (name, model, prec-calibrate arguments)
CALIBRATIONS = [
    ("mlp minmax", "examples/mlp_int8.mlir",
     "--val-range x:[-1,1] --samples 64 --seed 3 --algorithm minmax"),
    ("mlp entropy", "examples/mlp_int8.mlir",
     "--val-range x:[-1,1] --samples 64 --seed 3"),
    ("bert entropy", "bert-legacy", "--data test/models/bert.in.npz"),
    ("resnet percentile", "resnet-legacy",
     "--data test/models/resnet.in.npz --algorithm percentile"),
]

STEP = re.compile(
    r"^step \d+: \d+ marked(?: \[(.*)\])?, error (\S+): (PASS|FAIL)$")
INTRODUCED = re.compile(r"^  (\S+): (\S+)$")
EVALUATIONS = re.compile(r"^evaluations: (\d+) .* in (\S+) s")
WALL = re.compile(r"^wall (\S+) s$")
LOW = re.compile(r"unmarked at (\S+), marked at")
MANTISSA_BITS = {"f16": 10, "bf16": 7}


def output_ulp(model, low):
    """The low precision's ulp at the model's largest output (PyTorch's)."""
    golden = os.path.join(MODELS, model + ".out.npz")
    if low not in MANTISSA_BITS or not os.path.exists(golden):
        return None
    import numpy
    largest = max(float(numpy.abs(a).max())
                  for a in numpy.load(golden).values())
    return 2.0 ** (math.floor(math.log2(largest)) - MANTISSA_BITS[low])


def model_path(work, model):
    if model.endswith(".mlir"):
        return os.path.join(ROOT, model)
    return os.path.join(work, model + ".mlir")


def slug(name):
    return name.replace(" ", "_")


def run(command, log):
    start = time.time()
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    with open(log, "w") as f:
        f.write(result.stdout + result.stderr)
    return result.returncode, time.time() - start


def debug_command(tools, work, search, device):
    name, model, inputs, arguments = search
    command = shlex.split(tools.format("prec-debug")) + [
        model_path(work, model), "--target", "sm_90", "--rtol", "0",
        "--device", device]
    if inputs:
        command += ["--load-inputs", os.path.join(MODELS, inputs + ".in.npz")]
    return command + shlex.split(arguments.format(work=work))


def calibrate_command(tools, work, calibration, device, output):
    name, model, arguments = calibration
    return (shlex.split(tools.format("prec-calibrate")) +
            [model_path(work, model), "-o", output, "--device", device] +
            shlex.split(arguments))


def record(tools, work):
    os.makedirs(work, exist_ok=True)
    translate = shlex.split(tools.format("prec-translate"))
    calibrate = shlex.split(tools.format("prec-calibrate"))
    for model in sorted({s[1] for s in SEARCHES + CALIBRATIONS
                         if not s[1].endswith(".mlir")}):
        subprocess.run(translate + ["--import-onnx",
                                    os.path.join(MODELS, model + ".onnx"),
                                    "-o", model_path(work, model)], check=True)
    for model, inputs in (("resnet-legacy", "resnet"), ("bert-legacy", "bert")):
        subprocess.run(calibrate + [model_path(work, model), "--data",
                                    os.path.join(MODELS, inputs + ".in.npz"),
                                    "-o", os.path.join(work, inputs +
                                                       ".calib.json")],
                       check=True, capture_output=True)
    subprocess.run(calibrate + [os.path.join(ROOT, "examples/mlp_int8.mlir"),
                                "--val-range", "x:[-3,3]", "--samples", "256",
                                "-o", os.path.join(work, "mlp.calib.json")],
                   check=True, capture_output=True)
    for search in SEARCHES:
        log = os.path.join(work, slug(search[0]) + ".cpu.log")
        status, seconds = run(debug_command(tools, work, search, "cpu"), log)
        with open(log, "a") as f:
            f.write("wall %.2f s\n" % seconds)
        print("%-24s cpu exit %d, %.1f s" % (search[0], status, seconds))
    for calibration in CALIBRATIONS:
        output = os.path.join(work, slug(calibration[0]) + ".cpu.json")
        status, seconds = run(
            calibrate_command(tools, work, calibration, "cpu", output),
            output + ".log")
        print("%-24s cpu exit %d, %.1f s" % (calibration[0], status, seconds))


def parse_search(log):
    steps, introduced, kept, evaluations, wall = [], {}, [], None, None
    in_kept, low = False, None
    for line in open(log).read().splitlines():
        if m := LOW.search(line):
            low = m.group(1)
        elif m := STEP.match(line):
            steps.append((m.group(1), float(m.group(2)), m.group(3)))
        elif m := EVALUATIONS.match(line):
            evaluations = (int(m.group(1)), float(m.group(2)))
        elif m := WALL.match(line):
            wall = float(m.group(1))
        elif line.startswith("keep in "):
            in_kept = True
        elif in_kept and line.startswith("  "):
            kept.append(line.split(" (")[0].strip())
        elif m := INTRODUCED.match(line):
            introduced[m.group(1)] = float(m.group(2))
    return steps, introduced, kept, evaluations, wall, low


def difference(a, b):
    """|a - b|, 0 for equal infinities."""
    return 0.0 if a == b else abs(a - b)


def compare_search(search, cpu_log, gpu_log):
    """Whether the GPU searched as the CPU did, its errors within an ulp of
    the low precision at the outputs' magnitude where that is known; or
    decided otherwise only at errors that close."""
    name, model = search[0], search[1]
    cpu, gpu = parse_search(cpu_log), parse_search(gpu_log)
    if not gpu[0] or gpu[3] is None:
        print("%s: the GPU run did not finish:\n%s" % (
            name, open(gpu_log).read()[-2000:]))
        return False
    (cpu_runs, cpu_seconds), (gpu_runs, gpu_seconds) = cpu[3], gpu[3]
    same = ([s[0] for s in cpu[0]] == [s[0] for s in gpu[0]] and
            [s[2] for s in cpu[0]] == [s[2] for s in gpu[0]] and
            cpu[2] == gpu[2])
    # The steps that evaluated the same marking on both (as printed: the
    # first six layers and how many more).
    paired = [difference(c[1], g[1]) for c, g in zip(cpu[0], gpu[0])
              if c[0] == g[0]]
    largest = max(paired, default=0.0)
    ulp = output_ulp(model, cpu[5])
    within = ulp is not None and largest <= ulp
    introduced = [difference(cpu[1][k], gpu[1][k]) for k in cpu[1]
                  if k in gpu[1]]
    print("%-24s %s; kept %d layers (cpu %d); error difference at a step "
          "%.3g at most%s (errors up to %.3g)%s; %d evaluations (cpu %d) in "
          "gpu %.2f s, cpu %.2f s; wall with the build gpu %.1f s, cpu %.1f s"
          % (name,
             "same steps, verdicts and layers kept" if same else
             "decisions differ, errors within an ulp" if within else
             "DECISIONS DIFFER",
             len(gpu[2]), len(cpu[2]), largest,
             " (%.2f ulp of %s at the largest output)" % (largest / ulp,
                                                          cpu[5])
             if ulp else "", max(abs(c[1]) for c in cpu[0]),
             ", the eight worst layers' introduced errors differ by %.3g "
             "at most" % max(introduced) if introduced else "", gpu_runs,
             cpu_runs, gpu_seconds, cpu_seconds, gpu[4], cpu[4]))
    return (same or within) and (ulp is None or largest <= ulp)


def compare_calibration(name, cpu_json, gpu_json):
    cpu = json.load(open(cpu_json))["tensors"]
    gpu = json.load(open(gpu_json))["tensors"]
    differences = [abs(cpu[t]["amax"] - gpu[t]["amax"]) /
                   max(abs(cpu[t]["amax"]), 1e-30) for t in cpu if t in gpu]
    worst = max(differences, default=0.0)
    print("%-24s %d tensors (gpu %d), amax differs by %.3g relative at most" %
          (name, len(cpu), len(gpu), worst))
    return set(cpu) == set(gpu) and worst < 1e-3


def check(tools, work):
    agreed = True
    for search in SEARCHES:
        log = os.path.join(work, slug(search[0]) + ".gpu.log")
        status, seconds = run(debug_command(tools, work, search, "gpu"), log)
        with open(log, "a") as f:
            f.write("wall %.2f s\n" % seconds)
        agreed &= compare_search(search, os.path.join(
            work, slug(search[0]) + ".cpu.log"), log)
    for calibration in CALIBRATIONS:
        output = os.path.join(work, slug(calibration[0]) + ".gpu.json")
        status, seconds = run(
            calibrate_command(tools, work, calibration, "gpu", output),
            output + ".log")
        if status != 0:
            print("%s: exit %d\n%s" % (calibration[0], status,
                                       open(output + ".log").read()[-2000:]))
            agreed = False
            continue
        agreed &= compare_calibration(
            calibration[0], os.path.join(work, slug(calibration[0]) +
                                         ".cpu.json"), output)
    print("the GPU agrees with the CPU" if agreed else "DIFFERENCES above")
    return 0 if agreed else 1


if __name__ == "__main__":
    mode, tools, work = sys.argv[1:4]
    sys.exit(record(tools, work) if mode == "record" else check(tools, work))
