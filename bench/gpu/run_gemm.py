"""8192^3 GEMMs through prec engines against torch.matmul, same GPU, one
run: median of 50 timed runs after 10 warm-up runs, TFLOP/s and the ratio.

Usage: python3 run_gemm.py gemm_f16.cu gemm_bf16.cu
"""
import sys

import torch

from engine import Engine, median_ms

DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16}

flops = 2 * 8192 ** 3
for cu in sys.argv[1:]:
    engine = Engine(cu)
    dtype = DTYPES[engine.manifest["bindings"][0]["dtype"]]
    torch.manual_seed(0)
    a = torch.randn(8192, 8192, device="cuda").to(dtype)
    b = torch.randn(8192, 8192, device="cuda").to(dtype)
    c = torch.empty(8192, 8192, device="cuda", dtype=dtype)
    run_engine = engine.runner([a, b, c])
    run_engine()
    expected = torch.matmul(a, b)
    torch.cuda.synchronize()
    error = (c.float() - expected.float()).abs().max().item()
    t_engine = median_ms(run_engine)
    t_torch = median_ms(lambda: torch.matmul(a, b))
    print(f"{engine.stem}: engine {t_engine:.3f} ms ({flops / t_engine / 1e9:.0f} "
          f"TFLOP/s), torch.matmul {t_torch:.3f} ms ({flops / t_torch / 1e9:.0f}"
          f" TFLOP/s), engine/torch time {t_engine / t_torch:.3f}, max |diff| "
          f"{error:.3e}")
    engine.destroy()
