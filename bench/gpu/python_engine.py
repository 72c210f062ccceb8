"""The Python package's engine path on the GPU: engines compiled from
Python here, loaded there through prec.Engine and prec.EngineModule (which
need torch, not the compiler) and checked against prec's CPU execution and
PyTorch.

  prepare WORK   (here, PYTHONPATH=build/python) compiles with prec's Python
                 API and builds with nvcc for sm_90a: `block`, a
                 LayerNorm-Linear-GELU-Linear torch.nn.Module exported at
                 batch 8 with a dynamic batch (1, 4, 8), f16; `bert`, the
                 test/models BERT export, f16; `mlp`, examples/mlp_int8.mlir
                 calibrated from Python, int8. Beside each: its inputs, the
                 CPU execution's outputs and, for the block, its state_dict.
  check WORK     (there, PYTHONPATH=python) runs each engine from Python on
                 CUDA tensors, stream and CUDA graph, and compares with the
                 CPU execution (summation order apart) and PyTorch; the
                 dynamic batch at 3 and 8; the errors a user meets; and the
                 block's time per call from Python against PyTorch eager.
"""
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = os.path.join(ROOT, "test", "models")


class Block(torch.nn.Module):
    def __init__(self, width=256):
        super().__init__()
        self.norm = torch.nn.LayerNorm(width)
        self.up = torch.nn.Linear(width, 4 * width)
        self.down = torch.nn.Linear(4 * width, width)

    def forward(self, x):
        return self.down(torch.nn.functional.gelu(self.up(self.norm(x))))


def prepare(work):
    import prec
    os.makedirs(work, exist_ok=True)
    torch.manual_seed(0)
    block = Block().eval()
    x = torch.randn(8, 256)
    torch.save(block.state_dict(), os.path.join(work, "block.pt"))
    program = prec.compile(block, example_inputs=(x,), input_names=["x"],
                           output_names=["y"], batch=(1, 4, 8))
    save(work, "block", program, {"x": x.numpy()})

    inputs = dict(np.load(os.path.join(MODELS, "bert.in.npz")))
    program = prec.compile(os.path.join(MODELS, "bert-legacy.onnx"))
    save(work, "bert", program, inputs)
    np.savez(os.path.join(work, "bert.torch.npz"),
             **np.load(os.path.join(MODELS, "bert-legacy.out.npz")))

    rng = np.random.default_rng(0)
    data = [{"x": rng.uniform(-3, 3, (16, 32)).astype(np.float32)}
            for _ in range(4)]
    mlp = os.path.join(ROOT, "examples", "mlp_int8.mlir")
    program = prec.compile(mlp, calibration=prec.calibrate(mlp, data))
    save(work, "mlp", program, {"x": data[0]["x"]})


def save(work, name, program, inputs):
    library = program.build_engine(work, name)
    np.savez(os.path.join(work, name + ".in.npz"), **inputs)
    np.savez(os.path.join(work, name + ".cpu.npz"), **program.run(**inputs))
    computes = sorted({row.compute for row in program.report()})
    print(f"{name}: {library} ({', '.join(computes)})")


def relative_error(actual, expected):
    actual = actual.detach().float().cpu().numpy()
    return float(np.abs(actual - expected).max() / np.abs(expected).max())


def check_engine(work, name, bound):
    import prec
    inputs = dict(np.load(os.path.join(work, name + ".in.npz")))
    cpu = dict(np.load(os.path.join(work, name + ".cpu.npz")))
    library = os.path.join(work, name + ".so")
    engine = prec.Engine(library)
    graph = prec.Engine(library, cuda_graph=True)
    feed = {k: torch.from_numpy(v).cuda() for k, v in inputs.items()}
    outputs = engine(**feed)
    replayed = graph(**feed)
    for output, value in outputs.items():
        error = relative_error(value, cpu[output])
        same = torch.equal(value, replayed[output])
        print(f"{name}.{output}: engine vs CPU execution {error:.2e} of the "
              f"largest |value| (bound {bound}); graph equal: {same}")
        assert error <= bound and same
    module = prec.EngineModule(engine)
    positional = module(*[feed[b.name] for b in engine.inputs])
    first = positional if isinstance(positional, torch.Tensor) \
        else positional[0]
    assert torch.equal(first, outputs[engine.outputs[0].name])
    return engine, feed, outputs


def check_errors(engine, feed):
    import prec
    x = feed["x"]
    cases = {"CPU tensor": lambda: engine(x=x.cpu()),
             "f16 tensor": lambda: engine(x=x.half()),
             "batch 9": lambda: engine(x=torch.cat([x, x[:1]])),
             "unknown input": lambda: engine(x=x, z=x),
             "missing input": lambda: engine()}
    for case, call in cases.items():
        try:
            call()
        except prec.Error as error:
            print(f"  {case}: prec.Error: {error}")
            continue
        raise AssertionError(f"{case} raised nothing")


def check(work):
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import prec  # noqa: F401  (the package's source, without _prec)
    from engine import median_ms

    bert, feed, outputs = check_engine(work, "bert", 0.005)
    expected = dict(np.load(os.path.join(work, "bert.torch.npz")))
    for output, value in outputs.items():
        print(f"bert.{output}: engine vs PyTorch f32 "
              f"{relative_error(value, expected[output]):.2e}")
    check_engine(work, "mlp", 1e-5)

    block, feed, outputs = check_engine(work, "block", 0.002)
    model = Block().cuda().eval()
    model.load_state_dict(torch.load(os.path.join(work, "block.pt")))
    x = feed["x"]
    with torch.no_grad():
        reference = model(x)
    print(f"block: engine (f16) vs PyTorch f32 "
          f"{relative_error(outputs['y'], reference.cpu().numpy()):.2e}")
    module = prec.EngineModule(block)
    for batch in (3, 8):
        y = module(x[:batch])
        error = relative_error(y, reference[:batch].cpu().numpy())
        print(f"block at batch {batch}: {tuple(y.shape)}, vs PyTorch f32 "
              f"{error:.2e}")
        assert y.shape[0] == batch and error < 0.01
    print("errors:")
    check_errors(block, feed)

    half = Block().cuda().half().eval()
    half.load_state_dict(torch.load(os.path.join(work, "block.pt")))
    graph = prec.EngineModule(prec.Engine(os.path.join(work, "block.so"),
                                          cuda_graph=True))
    with torch.no_grad():
        times = [median_ms(lambda: model(x)), median_ms(lambda: half(x.half())),
                 median_ms(lambda: module(x)), median_ms(lambda: graph(x))]
    names = ["PyTorch eager f32", "PyTorch eager f16", "prec engine (stream)",
             "prec engine (graph)"]
    for name, time in zip(names, times):
        print(f"block batch 8 per call from Python: {name} {time:.4f} ms "
              f"({times[1] / time:.2f}x eager f16)")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("prepare", "check"):
        sys.exit(__doc__)
    {"prepare": prepare, "check": check}[sys.argv[1]](sys.argv[2])
