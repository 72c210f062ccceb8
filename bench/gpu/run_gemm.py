"""8192^3 GEMMs through prec engines against PyTorch, same GPU, one run:
median of 50 timed runs after 10 warm-up runs, TFLOP/s (TOP/s for i8) and
the ratio. f16/bf16 engines (gemm.mlir legalized) face torch.matmul, the i8
engine (gemm_i8.mlir) torch._int_mm, the f8 engine (gemm_f8.mlir, scales
0.5 x 0.25) torch._scaled_mm with the same scales. i8 and f8 take B
transposed (column-major mat2), as PyTorch's do.

Usage: python3 run_gemm.py gemm_f16.cu gemm_bf16.cu gemm_i8.cu gemm_f8.cu
"""
import sys

import torch

from engine import Engine, median_ms

N = 8192
flops = 2 * N ** 3


def operands(dtype):
    torch.manual_seed(0)
    if dtype == torch.int8:
        a = torch.randint(-128, 128, (N, N), device="cuda", dtype=torch.int8)
        bt = torch.randint(-128, 128, (N, N), device="cuda", dtype=torch.int8)
        return a, bt, lambda: torch._int_mm(a, bt.t()), torch.int32
    if dtype == torch.float8_e4m3fn:
        a = torch.randn(N, N, device="cuda").to(dtype)
        bt = torch.randn(N, N, device="cuda").to(dtype)
        scale_a = torch.tensor(0.5, device="cuda")
        scale_b = torch.tensor(0.25, device="cuda")
        return a, bt, lambda: torch._scaled_mm(
            a, bt.t(), scale_a=scale_a, scale_b=scale_b,
            out_dtype=torch.float16), torch.float16
    a = torch.randn(N, N, device="cuda").to(dtype)
    b = torch.randn(N, N, device="cuda").to(dtype)
    return a, b, lambda: torch.matmul(a, b), dtype


DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "i8": torch.int8,
          "f8e4m3": torch.float8_e4m3fn}
for cu in sys.argv[1:]:
    engine = Engine(cu)
    dtype = DTYPES[engine.manifest["bindings"][0]["dtype"]]
    a, b, peer, out_dtype = operands(dtype)
    c = torch.empty(N, N, device="cuda", dtype=out_dtype)
    run_engine = engine.runner([a, b, c])
    run_engine()
    expected = peer()
    torch.cuda.synchronize()
    difference = (c.double() - expected.double()).abs()
    scale = expected.double().abs().max().item()
    t_engine = median_ms(run_engine)
    t_torch = median_ms(peer)
    unit = "TOP/s" if dtype == torch.int8 else "TFLOP/s"
    print(f"{engine.stem}: engine {t_engine:.3f} ms ({flops / t_engine / 1e9:.0f} "
          f"{unit}), torch {t_torch:.3f} ms ({flops / t_torch / 1e9:.0f} {unit}), "
          f"engine/torch time {t_engine / t_torch:.3f}, max |diff| "
          f"{difference.max().item():.3e} (outputs up to {scale:.3e})")
    engine.destroy()
