"""Resource limits: how prec's tools scale on absurd inputs.

Usage: python3 resource_limits.py BIN_DIR WORK_DIR [--largest N]

- A chain of N elementwise ops (tanh/exp, 4 elements) for N = 10^4, 10^5
  and up to --largest (default 10^6): prec-opt --prec-legalize and prec-run
  (legalize, lower, JIT, run) wall time and peak memory, with the time per op
  as a ratio to the smallest chain's (1.0 = linear).
- An ONNX model with one 1 GB initializer (external data, a sparse file):
  prec-translate --import-onnx, then prec-opt --prec-legalize=enabled=f16,
  against a 256 MB one (ratio of seconds per GB).
- Text nested 10^5 brackets deep: prec-opt's refusal time.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time



def run(command, expect_ok=True):
    """Wall seconds and peak RSS (MB, from /usr/bin/time) of a command;
    checks its exit status."""
    handle, memory = tempfile.mkstemp(suffix=".peak")
    os.close(handle)
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", memory] + command,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    seconds = time.perf_counter() - start
    peak = int(open(memory).read().split()[-1]) / 1024
    os.remove(memory)
    if (result.returncode == 0) != expect_ok:
        sys.exit(f"{command[0]} exited {result.returncode}: {result.stderr[-500:]}")
    return seconds, peak, result.stderr


def chain(path, n):
    with open(path, "w") as f:
        f.write('func.func @main(%x: tensor<4xf32> loc("x")) -> tensor<4xf32> {\n')
        previous = "%x"
        for i in range(n):
            op = "tosa.exp" if i % 2 == 0 else "tosa.tanh"
            f.write(f'  %v{i} = {op} {previous} : (tensor<4xf32>) -> tensor<4xf32> loc("op{i}")\n')
            previous = f"%v{i}"
        f.write(f"  return {previous} : tensor<4xf32>\n}}\n")


def big_initializer(directory, elements):
    import onnx
    from onnx import TensorProto, helper
    weight = onnx.TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[elements])
    weight.data_location = TensorProto.EXTERNAL
    for key, value in [("location", "w.bin"), ("offset", "0"),
                       ("length", str(4 * elements))]:
        entry = weight.external_data.add()
        entry.key, entry.value = key, value
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "w"], ["y"], name="add")], "big",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [elements])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [elements])], [weight])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    os.makedirs(directory, exist_ok=True)
    open(os.path.join(directory, "big.onnx"), "wb").write(model.SerializeToString())
    with open(os.path.join(directory, "w.bin"), "wb") as f:
        f.truncate(4 * elements)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin")
    parser.add_argument("work")
    parser.add_argument("--largest", type=int, default=10**6)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    tool = lambda name: os.path.join(args.bin, name)

    print("== a chain of N elementwise ops")
    base = {}
    for n in [10**4, 10**5, 10**6]:
        if n > args.largest:
            break
        path = os.path.join(args.work, f"chain{n}.mlir")
        chain(path, n)
        for name, command in [
                ("legalize", [tool("prec-opt"), path, "--prec-legalize=enabled=f16",
                              "-o", os.devnull]),
                ("prec-run", [tool("prec-run"), path, "--val-range", "x:[-1,1]",
                              "--policy", "enabled=f16"])]:
            seconds, megabytes, _ = run(command)
            per_op = seconds / n
            base.setdefault(name, per_op)
            print(f"{name:9s} N={n:>8d}: {seconds:8.2f} s, {megabytes:7.0f} MB peak, "
                  f"{per_op * 1e6:7.1f} us/op = {per_op / base[name]:.2f}x the "
                  f"time per op at N=10^4")
        os.remove(path)

    print("== one large initializer (ONNX external data)")
    per_gb = None
    for megabytes in [256, 1024]:
        directory = os.path.join(args.work, f"init{megabytes}")
        big_initializer(directory, megabytes * 2**20 // 4)
        model = os.path.join(directory, "big.mlir")
        seconds, peak, _ = run([tool("prec-translate"), "--import-onnx",
                                os.path.join(directory, "big.onnx"), "-o", model])
        legal_seconds, legal_peak, _ = run([tool("prec-opt"), model,
                                            "--prec-legalize=enabled=f16", "-o", os.devnull])
        rate = seconds / (megabytes / 1024)
        per_gb = per_gb or rate
        print(f"{megabytes:5d} MB: import {seconds:6.2f} s ({peak:6.0f} MB peak, "
              f"{rate / per_gb:.2f}x the seconds per GB at 256 MB), legalize "
              f"{legal_seconds:6.2f} s ({legal_peak:6.0f} MB peak)")
        for name in os.listdir(directory):
            os.remove(os.path.join(directory, name))
        os.rmdir(directory)

    print("== text nested 10^5 brackets deep")
    path = os.path.join(args.work, "nested.mlir")
    with open(path, "w") as f:
        f.write('func.func @main() attributes {deep = ' + "[" * 10**5 + "]" * 10**5 +
                "} {\n  return\n}\n")
    seconds, _, stderr = run([tool("prec-opt"), path], expect_ok=False)
    print(f"prec-opt refuses it in {seconds:.2f} s: {stderr.strip()}")
    os.remove(path)


if __name__ == "__main__":
    main()
