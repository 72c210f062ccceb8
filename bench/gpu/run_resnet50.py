"""ResNet-50, batch 64, f16: prec's engine against PyTorch eager and
torch.compile on the same GPU, in one run.

The engine was built here from export_models.py's resnet50_f16 (same seed,
so the same weights as the model below), imported, legalized with
enabled=f16 and emitted. Prints the engine's error against eager, and the
median of 50 timed runs after 10 warm-up runs for each, with the ratios.

Usage: python3 run_resnet50.py resnet50.cu
"""
import ctypes
import os
import subprocess
import sys

import torch
import torchvision

cu = os.path.abspath(sys.argv[1])
stem = os.path.basename(cu)[:-3]
subprocess.run(["nvcc", "-O3", "-shared", "-Xcompiler", "-fPIC", "-arch=sm_90a",
                cu, "-lcublasLt", "-o", cu[:-3] + ".so"], check=True)
lib = ctypes.CDLL(cu[:-3] + ".so")

torch.manual_seed(0)
model = torchvision.models.resnet50(weights=None).eval().half().cuda()
x = torch.rand(64, 3, 224, 224, device="cuda").half()


def median_ms(fn, warmup=10, runs=50):
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
assert getattr(lib, stem + "_create")((cu[:-3] + ".weights").encode(),
                                      ctypes.byref(engine)) == 0
y = torch.empty(64, 1000, dtype=torch.float16, device="cuda")
pointers = (ctypes.c_void_p * 2)(x.data_ptr(), y.data_ptr())
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
run = getattr(lib, stem + "_run")
with torch.no_grad():
    assert run(engine, pointers, stream) == 0
    expected = model(x)
    torch.cuda.synchronize()
    error = (y.float() - expected.float()).abs()
    print(f"engine vs eager f16: max abs {error.max().item():.3e}, mean abs "
          f"{error.mean().item():.3e}, output range "
          f"[{expected.min().item():.3f}, {expected.max().item():.3f}]")
    t_engine = median_ms(lambda: run(engine, pointers, stream))
    t_eager = median_ms(lambda: model(x))
    compiled = torch.compile(model)
    compiled(x)
    t_compiled = median_ms(lambda: compiled(x))
print(f"ResNet-50 batch 64 f16, median of 50: eager {t_eager:.2f} ms, "
      f"torch.compile {t_compiled:.2f} ms, prec engine {t_engine:.2f} ms")
print(f"engine/eager time {t_engine / t_eager:.2f}, engine/torch.compile time "
      f"{t_engine / t_compiled:.2f}")
getattr(lib, stem + "_destroy")(engine)
