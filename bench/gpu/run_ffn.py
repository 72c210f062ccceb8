"""FFN block benchmark on the GPU: prec's engine against PyTorch eager and
torch.compile, f16, same weights, same input, one run.

The engine comes from bench/gpu/ffn_block.mlir legalized with
`enabled=f16 io-types=*:f16 target=sm_90` and emitted with --emit-cuda; its
weights are bindings, handed over from the PyTorch module. Prints the median
of 100 timed runs after 20 warm-up runs for each, the ratios, and the
engine's error against PyTorch f16 and f32.

Usage: python3 run_ffn.py ffn.cu
"""
import copy
import ctypes
import os
import subprocess
import sys

import torch

cu = os.path.abspath(sys.argv[1])
library = cu[:-3] + ".so"
subprocess.run(["nvcc", "-O3", "-shared", "-Xcompiler", "-fPIC", "-arch=sm_90a",
                cu, "-lcublasLt", "-o", library], check=True)
lib = ctypes.CDLL(library)
stem = os.path.basename(cu)[:-3]

torch.manual_seed(0)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear1 = torch.nn.Linear(4096, 16384)
        self.linear2 = torch.nn.Linear(16384, 4096)
        self.norm = torch.nn.LayerNorm(4096)

    def forward(self, x):
        return self.norm(self.linear2(torch.nn.functional.gelu(self.linear1(x))) + x)


reference = Block().cuda().eval()
block = copy.deepcopy(reference).half()
x = torch.randn(2048, 4096, device="cuda")
x16 = x.half()
compiled = torch.compile(block)


def median_ms(fn, warmup=20, runs=100):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


engine = ctypes.c_void_p()
status = getattr(lib, stem + "_create")((cu[:-3] + ".weights").encode(),
                                        ctypes.byref(engine))
assert status == 0, status
y = torch.empty(2048, 4096, dtype=torch.float16, device="cuda")
bindings = [x16, block.linear1.weight.t().contiguous(), block.linear1.bias,
            block.linear2.weight.t().contiguous(), block.linear2.bias,
            block.norm.weight, block.norm.bias, y]
pointers = (ctypes.c_void_p * len(bindings))(*[t.data_ptr() for t in bindings])
run = getattr(lib, stem + "_run")
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

with torch.no_grad():
    eager = block(x16)
    exact = reference(x)
    compiled(x16)
    assert run(engine, pointers, stream) == 0
    torch.cuda.synchronize()
    for name, expected in [("torch eager f16", eager.float()), ("torch f32", exact)]:
        error = (y.float() - expected).abs()
        print(f"engine vs {name}: max abs {error.max().item():.3e}, "
              f"mean abs {error.mean().item():.3e}")
    t_eager = median_ms(lambda: block(x16))
    t_compiled = median_ms(lambda: compiled(x16))
    t_engine = median_ms(lambda: run(engine, pointers, stream))
print(f"FFN block f16, median of 100: eager {t_eager:.3f} ms, torch.compile "
      f"{t_compiled:.3f} ms, prec engine {t_engine:.3f} ms")
print(f"engine / torch.compile time: {t_engine / t_compiled:.2f}  "
      f"engine / eager time: {t_engine / t_eager:.2f}")
getattr(lib, stem + "_destroy")(engine)
