"""Differential testing: random small TOSA graphs, run by prec-run, against numpy.

Usage: random_graphs.py BIN_DIR WORK_DIR [--graphs N] [--seed S] [--keep-going]

Each graph is a random DAG of the ops the ONNX importer writes (elementwise
arithmetic and activations, matmuls with constant weights, reductions,
transposes, reshapes) on random shapes, under a random precision policy
(enabled types, obey/prefer, weak/strong typing, target) with random
precision.regions (f16, bf16, f32, and i8 or f8E4M3FN around matmuls).

prec-run runs the graph twice on the same inputs: as written (legalized with
its policy; its report gives every op's compute, accumulate and storage
types) and with every region and policy removed (f32). numpy evaluates the
graph in f64, and beside each value a first-order bound on the error that
rounding to the chosen types may cause: for each op, the inputs' errors
through the op's derivative, plus the rounding of its inputs to the compute
type, of the accumulation, and of its result to the compute and storage
types (an i8 or f8 matmul: half a quantization step of each operand). Both
runs must be within 4x their bounds of numpy, element by element. A graph
that prec-legalize refuses with a clear error (exit 2) is counted, not
failed; a lowering failure, a crash or any other exit is a failure.

Prints one line per graph and a summary; exits 1 on a mismatch. With
--engines DIR each graph with a GPU target that passed also gets its CUDA
engine (legalized as prec-run legalized it), inputs, CPU outputs and per-element bounds in DIR,
which bench/gpu/check_random_graphs.py checks on the GPU.
--ignore-report bounds the reduced run as if it were all f32: mismatches
then show that the bounds are tight enough to see a type's rounding.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

UNIT_ROUNDOFF = {"f32": 2.0**-24, "f16": 2.0**-11, "bf16": 2.0**-8,
                 "f8E4M3FN": 2.0**-4, "f8E5M2": 2.0**-3,
                 # A quantized matmul's exact accumulator, dequantized in f32.
                 "i32": 2.0**-24}
# f32 transcendental functions (LLVM's expansions) are within a few ulp.
F32_FUNCTION_ERROR = 2.0**-21
SAFETY = 4.0
I8_MAX, F8_MAX = 127.0, 448.0


def tensor_type(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


class Graph:
    """A random graph: its input's shape and its ops in program order."""

    def __init__(self, input_shape):
        self.input_shape = input_shape
        self.ops = []         # dicts: name, kind, operands, shape, result, ...
        self.counter = 0

    def fresh(self, prefix):
        self.counter += 1
        return f"%{prefix}{self.counter}"


# The unary ops: x -> (f(x), f'(x)).
UNARY = {
    "tosa.tanh": lambda x: (np.tanh(x), 1 - np.tanh(x) ** 2),
    "tosa.sigmoid": lambda x: (1 / (1 + np.exp(-x)),
                               np.exp(-x) / (1 + np.exp(-x)) ** 2),
    "tosa.abs": lambda x: (np.abs(x), np.ones_like(x)),
    "relu": lambda x: (np.maximum(x, 0), np.ones_like(x)),
    "tosa.exp": lambda x: (np.exp(x), np.exp(x)),
}


def make_graph(rng):
    rows = int(rng.choice([1, 2, 3, 4, 8]))
    width = int(rng.choice([2, 3, 4, 5, 8, 16]))
    g = Graph((1, rows, width))
    x = rng.uniform(-1, 1, size=g.input_shape)  # replaced by prec-run's inputs
    live = [("%x", g.input_shape)]
    count = int(rng.integers(3, 11))
    for _ in range(count):
        operand, shape = live[int(rng.integers(len(live)))]
        kind = rng.choice(["unary", "binary", "matmul", "reduce", "transpose",
                           "reshape"], p=[0.3, 0.25, 0.2, 0.08, 0.09, 0.08])
        op = {"name": f"op{len(g.ops)}", "operands": [operand], "shape": shape}
        if kind == "unary":
            op["kind"] = str(rng.choice(list(UNARY)))
        elif kind == "binary":
            same = [v for v in live if v[1] == shape]
            other = same[int(rng.integers(len(same)))][0]
            op["operands"].append(other)
            op["kind"] = str(rng.choice(["tosa.add", "tosa.sub", "tosa.mul",
                                         "tosa.maximum", "tosa.minimum"]))
        elif kind == "matmul" and len(shape) == 3:
            n = int(rng.choice([2, 3, 4, 8, 16, 17]))
            k = shape[2]
            op["kind"] = "tosa.matmul"
            op["weights"] = rng.uniform(-1, 1, size=(1, k, n)) / np.sqrt(k)
            op["shape"] = (1, shape[1], n)
        elif kind == "reduce" and len(shape) == 3 and shape[2] > 1:
            op["kind"] = "tosa.reduce_sum"
            op["shape"] = (1, shape[1], 1)
        elif kind == "transpose" and len(shape) == 3:
            op["kind"] = "tosa.transpose"
            op["shape"] = (1, shape[2], shape[1])
        elif kind == "reshape" and len(shape) == 3:
            op["kind"] = "tosa.reshape"
            op["shape"] = (1, shape[1] * shape[2] // 1, 1) if rng.random() < 0.5 \
                else (1, 1, shape[1] * shape[2])
        else:
            op["kind"] = "tosa.tanh"
        op["result"] = g.fresh("v")
        g.ops.append(op)
        # Keep magnitudes where every type's range holds them.
        types = {o["name"]: ("f32", "f32", "f32") for o in g.ops}
        values, _ = evaluate(g, x, types)
        if np.max(np.abs(values[op["result"]])) > 50:
            op.update(kind="tosa.tanh", operands=[operand], shape=shape)
            op.pop("weights", None)
        live.append((op["result"], op["shape"]))
    # Every value nobody reads is an output.
    read = {o for op in g.ops for o in op["operands"]}
    outputs = [(v, s) for v, s in live[1:] if v not in read]
    return g, outputs


def evaluate(g, x, types, quantized_ranges=None):
    """numpy f64 values and first-order error bounds of every value.

    `types`: op name -> (compute, accumulate, storage); `quantized_ranges`:
    op name -> amax of an i8/f8 matmul's input (its region's input_range).
    """
    values = {"%x": x}
    errors = {"%x": np.zeros_like(x)}
    for op in g.ops:
        compute, accumulate, storage = types[op["name"]]
        a = values[op["operands"][0]]
        ea = errors[op["operands"][0]]
        kind = op["kind"]
        if kind in ("tosa.matmul",):
            w = op["weights"]
            k = w.shape[1]
            y = a @ w
            if compute in ("i8", "f8E4M3FN", "f8E5M2"):
                amax = quantized_ranges[op["name"]]
                if compute == "i8":
                    ea_q = np.full_like(a, amax / I8_MAX / 2)
                    ew_q = np.broadcast_to(
                        np.max(np.abs(w), axis=1, keepdims=True) / I8_MAX / 2,
                        w.shape)
                else:
                    u = UNIT_ROUNDOFF[compute]
                    ea_q = u * np.abs(a) + amax / F8_MAX * 2.0**-9
                    ew_q = u * np.abs(w) + np.max(np.abs(w), axis=1,
                                                  keepdims=True) / F8_MAX * 2.0**-9
                ea_q = ea_q + np.maximum(np.abs(a) - amax, 0)  # clipping
                e = (ea + ea_q) @ np.abs(w) + np.abs(a) @ ew_q
                e = e + UNIT_ROUNDOFF[storage] * np.abs(y)
            else:
                uc, ua = UNIT_ROUNDOFF[compute], UNIT_ROUNDOFF[accumulate]
                e = (ea + uc * np.abs(a)) @ np.abs(w) + np.abs(a) @ (uc * np.abs(w))
                e = e + k * ua * (np.abs(a) @ np.abs(w))
                e = e + (ua + UNIT_ROUNDOFF[storage]) * np.abs(y)
        elif kind in ("tosa.add", "tosa.sub", "tosa.mul", "tosa.maximum",
                      "tosa.minimum"):
            b = values[op["operands"][1]]
            eb = errors[op["operands"][1]]
            uc = UNIT_ROUNDOFF[compute]
            ea_c, eb_c = ea + uc * np.abs(a), eb + uc * np.abs(b)
            if kind == "tosa.add":
                y, e = a + b, ea_c + eb_c
            elif kind == "tosa.sub":
                y, e = a - b, ea_c + eb_c
            elif kind == "tosa.mul":
                y, e = a * b, np.abs(b) * ea_c + np.abs(a) * eb_c
            elif kind == "tosa.maximum":
                y, e = np.maximum(a, b), np.maximum(ea_c, eb_c)
            else:
                y, e = np.minimum(a, b), np.maximum(ea_c, eb_c)
            e = e + (uc + UNIT_ROUNDOFF[storage]) * np.abs(y)
        elif kind == "tosa.reduce_sum":
            uc, ua = UNIT_ROUNDOFF[compute], UNIT_ROUNDOFF[accumulate]
            y = a.sum(axis=2, keepdims=True)
            n = a.shape[2]
            e = (ea + uc * np.abs(a)).sum(axis=2, keepdims=True)
            e = e + n * ua * np.abs(a).sum(axis=2, keepdims=True)
            e = e + UNIT_ROUNDOFF[storage] * np.abs(y)
        elif kind in ("tosa.transpose", "tosa.reshape"):
            if kind == "tosa.transpose":
                y, e = a.transpose(0, 2, 1), ea.transpose(0, 2, 1)
            else:
                y, e = a.reshape(op["shape"]), ea.reshape(op["shape"])
            # A cast to another storage type rounds.
            e = e + UNIT_ROUNDOFF[storage] * np.abs(y)
        else:
            uc = UNIT_ROUNDOFF[compute]
            y, derivative = UNARY[kind](a)
            function_error = F32_FUNCTION_ERROR if kind in (
                "tosa.tanh", "tosa.sigmoid", "tosa.exp") else 0
            e = np.abs(derivative) * (ea + uc * np.abs(a))
            e = e + (uc + function_error + UNIT_ROUNDOFF[storage]) * np.abs(y)
        values[op["result"]] = y
        errors[op["result"]] = e
    return values, errors


def op_mlir(op, region_type=None, input_range=None):
    """The op's MLIR; inside a region when `region_type` is given."""
    shape = op["shape"]
    tag = op["name"]  # suffixes the helper values' names
    lines = []
    operands = op["operands"]
    result = op["result"]
    loc = f'loc("{op["name"]}")'
    args = operands
    if region_type:
        args = [f"%a{i}" for i in range(len(operands))]
    kind = op["kind"]
    body = []
    out = result if not region_type else f"%r_{tag}"
    t_out = tensor_type(shape)
    if kind == "tosa.matmul":
        w = op["weights"]
        values = np.array2string(w.astype(np.float32), separator=", ",
                                 threshold=10**9, floatmode="unique")
        body.append(f'%w_{tag} = "tosa.const"() <{{values = dense<{values}> : '
                    f"{tensor_type(w.shape)}}}> : () -> {tensor_type(w.shape)}")
        body.append(f'%zp_{tag} = "tosa.const"() <{{values = dense<0.0> : tensor<1xf32>}}> : '
                    "() -> tensor<1xf32>")
        in_t = op["in_types"][0]
        body.append(f"{out} = tosa.matmul {args[0]}, %w_{tag}, %zp_{tag}, %zp_{tag} : ({in_t}, "
                    f"{tensor_type(w.shape)}, tensor<1xf32>, tensor<1xf32>) -> "
                    f"{t_out} {loc}")
    elif kind == "relu":
        body.append(f"{out} = tosa.clamp {args[0]} {{max_val = 3.40282347E+38 : f32, "
                    f"min_val = 0.0 : f32}} : ({op['in_types'][0]}) -> {t_out} {loc}")
    elif kind in ("tosa.add", "tosa.sub", "tosa.maximum", "tosa.minimum"):
        body.append(f"{out} = {kind} {args[0]}, {args[1]} : ({op['in_types'][0]}, "
                    f"{op['in_types'][1]}) -> {t_out} {loc}")
    elif kind == "tosa.mul":
        body.append(f'%shift_{tag} = "tosa.const"() <{{values = dense<0> : tensor<1xi8>}}> : '
                    "() -> tensor<1xi8>")
        body.append(f"{out} = tosa.mul {args[0]}, {args[1]}, %shift_{tag} : "
                    f"({op['in_types'][0]}, {op['in_types'][1]}, tensor<1xi8>) -> "
                    f"{t_out} {loc}")
    elif kind == "tosa.reduce_sum":
        body.append(f"{out} = tosa.reduce_sum {args[0]} {{axis = 2 : i32}} : "
                    f"({op['in_types'][0]}) -> {t_out} {loc}")
    elif kind == "tosa.transpose":
        body.append(f"{out} = tosa.transpose {args[0]} {{perms = array<i32: 0, 2, 1>}} : "
                    f"({op['in_types'][0]}) -> {t_out} {loc}")
    elif kind == "tosa.reshape":
        dims = ", ".join(str(d) for d in shape)
        body.append(f"%s_{tag} = tosa.const_shape {{values = dense<[{dims}]> : "
                    f"tensor<{len(shape)}xindex>}} : () -> !tosa.shape<{len(shape)}>")
        body.append(f"{out} = tosa.reshape {args[0]}, %s_{tag} : ({op['in_types'][0]}, "
                    f"!tosa.shape<{len(shape)}>) -> {t_out} {loc}")
    else:
        body.append(f"{out} = {kind} {args[0]} : ({op['in_types'][0]}) -> {t_out} {loc}")
    if not region_type:
        return body
    clauses = region_type
    if input_range is not None:
        clauses += f" input_range [{-input_range!r}, {input_range!r}]"
    bindings = ", ".join(f"%a{i} = {o} : {t}" for i, (o, t) in
                         enumerate(zip(operands, op["in_types"])))
    lines.append(f"{result} = precision.region {clauses} ({bindings}) -> {t_out} {{")
    lines.extend("  " + line for line in body)
    lines.append(f"  precision.yield {out} : {t_out}")
    lines.append("}")
    return lines


def write_module(path, g, outputs, policy_attr, regions, ranges):
    shape_of = {"%x": g.input_shape}
    for op in g.ops:
        shape_of[op["result"]] = op["shape"]
    lines = []
    if policy_attr:
        lines.append(f"module attributes {{precision.policy = #precision.policy<{policy_attr}>}} {{")
    else:
        lines.append("module {")
    results = ", ".join(tensor_type(s) for _, s in outputs)
    lines.append(f'func.func @main(%x: {tensor_type(g.input_shape)} loc("x")) -> ({results}) {{')
    for op in g.ops:
        op["in_types"] = [tensor_type(shape_of[o]) for o in op["operands"]]
        for line in op_mlir(op, regions.get(op["name"]), ranges.get(op["name"])):
            lines.append("  " + line)
    names = ", ".join(v for v, _ in outputs)
    lines.append(f"  return {names} : {results}")
    lines.append("}")
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_engine(args, base, index, outputs, values, errors):
    """The graph's engine, legalized as prec-run did, and what it must meet."""
    os.makedirs(args.engines, exist_ok=True)
    stem = os.path.join(args.engines, f"graph{index}")
    subprocess.run([os.path.join(args.bin, "prec-opt"), base + ".mlir",
                    "--prec-legalize", "-o", stem + ".legal.mlir"], check=True)
    subprocess.run([os.path.join(args.bin, "prec-translate"), "--emit-cuda",
                    stem + ".legal.mlir", "--output-dir=" + os.path.dirname(stem),
                    "--engine-name=" + os.path.basename(stem)], check=True)
    inputs = np.load(base + ".in.npz")
    np.savez(stem + ".in.npz", **inputs)
    np.savez(stem + ".cpu.npz", **np.load(base + ".low.npz"))
    checks = {}
    for i, (value, _) in enumerate(outputs):
        checks[f"result{i}.expected"] = values[value]
        checks[f"result{i}.allowed"] = SAFETY * errors[value] + 1e-6
    np.savez(stem + ".bounds.npz", **checks)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin")
    parser.add_argument("work")
    parser.add_argument("--graphs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep-going", action="store_true")
    parser.add_argument("--engines", metavar="DIR",
                        help="also write each graph's CUDA engine to DIR with "
                        "its inputs, CPU outputs and bounds, for "
                        "bench/gpu/check_random_graphs.py on the GPU machine")
    parser.add_argument("--ignore-report", action="store_true",
                        help="bound the reduced-precision run as if every op "
                        "were f32 (shows that the bounds catch a wrong type)")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    prec_run = os.path.join(args.bin, "prec-run")
    counts = {"graphs": 0, "ops": 0, "refused": 0, "mismatches": 0}
    reduced_ops = 0
    for index in range(args.graphs):
        rng = np.random.default_rng([args.seed, index])
        g, outputs = make_graph(rng)
        base = os.path.join(args.work, f"graph{index}")
        # Inputs first: prec-run generates them, numpy reads them.
        write_module(base + ".f32.mlir", g, outputs, None, {}, {})
        subprocess.run([prec_run, base + ".f32.mlir", "--val-range", "x:[-1,1]",
                        "--seed", str(index), "--save-inputs", base + ".in.npz",
                        "--save-outputs", base + ".f32.npz"],
                       check=True, stdout=subprocess.DEVNULL)
        x = np.load(base + ".in.npz")["x"].astype(np.float64)
        f32_types = {op["name"]: ("f32", "f32", "f32") for op in g.ops}
        values, _ = evaluate(g, x, f32_types)

        # The policy and the regions.
        enabled = [t for t in ["f16", "bf16"] if rng.random() < 0.5]
        typing = str(rng.choice(["weak", "strong"]))
        constraints = str(rng.choice(["obey", "prefer"]))
        target = str(rng.choice(["cpu", "sm_80", "sm_90"]))
        regions, ranges = {}, {}
        for op in g.ops:
            if rng.random() >= 0.35:
                continue
            choices = ["f16", "bf16", "f32"]
            if op["kind"] == "tosa.matmul":
                choices += ["i8", "f8E4M3FN"]
            region_type = str(rng.choice(choices))
            regions[op["name"]] = region_type + f" {constraints}"
            if region_type in ("i8", "f8E4M3FN"):
                a = values[op["operands"][0]]
                ranges[op["name"]] = float(np.max(np.abs(a))) * float(
                    rng.choice([1.0, 1.5]))
        policy = (f"typing = {typing}, enabled = [{', '.join(enabled)}], "
                  f"constraints = {constraints}, target = \"{target}\"")
        write_module(base + ".mlir", g, outputs, policy, regions, ranges)
        run = subprocess.run([prec_run, base + ".mlir", "--load-inputs",
                              base + ".in.npz", "--save-outputs", base + ".low.npz",
                              "--policy", f"report={base}.report.json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        counts["graphs"] += 1
        counts["ops"] += len(g.ops)
        refused = run.returncode == 2 and "lowering to the CPU failed" not in run.stderr
        if refused:
            counts["refused"] += 1
            first = run.stderr.strip().splitlines()[0] if run.stderr.strip() else ""
            print(f"graph {index}: {len(g.ops)} ops, refused: {first}")
            continue
        if run.returncode != 0:
            print(f"graph {index}: prec-run exited {run.returncode}\n{run.stderr}")
            counts["mismatches"] += 1
            if not args.keep_going:
                break
            continue
        report = json.load(open(base + ".report.json"))
        types = {entry["name"]: (entry["compute"], entry["accumulate"], entry["storage"])
                 for entry in report["ops"] if entry["name"] in f32_types}
        reduced_ops += sum(1 for t in types.values() if t[0] != "f32")
        for name in f32_types:
            types.setdefault(name, ("f32", "f32", "f32"))
        if args.ignore_report:
            types = f32_types
        _, low_errors = evaluate(g, x, types, ranges)
        _, f32_errors = evaluate(g, x, f32_types)
        low = np.load(base + ".low.npz")
        f32 = np.load(base + ".f32.npz")
        worst = []
        for i, (value, _) in enumerate(outputs):
            expected = values[value]
            for label, got, bound in [("f32", f32[f"result{i}"], f32_errors[value]),
                                      ("low", low[f"result{i}"], low_errors[value])]:
                error = np.abs(got.astype(np.float64) - expected)
                allowed = SAFETY * bound + 1e-6
                ratio = float(np.max(error / allowed))
                worst.append((ratio, label, i))
        ratio, label, i = max(worst)
        # Programs legalized for the CPU target are not meant for a GPU.
        if args.engines and ratio <= 1 and target != "cpu":
            write_engine(args, base, index, outputs, values, low_errors)
        kinds = sorted({t[0] for t in types.values()})
        status = "ok" if ratio <= 1 else "MISMATCH"
        print(f"graph {index}: {len(g.ops)} ops, {len(regions)} regions, "
              f"types {','.join(kinds)}: worst error {ratio:.3f} of its bound "
              f"({label} result{i}) {status}")
        if ratio > 1:
            counts["mismatches"] += 1
            if not args.keep_going:
                break
    print(f"{counts['graphs']} graphs ({counts['ops']} ops, {reduced_ops} in reduced "
          f"precision), {counts['refused']} refused by prec-legalize, "
          f"{counts['mismatches']} mismatches")
    return 1 if counts["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
