"""FFN block benchmark on the GPU: prec's engine against PyTorch eager and
torch.compile, f16, same weights, same input, one run.

The engine comes from bench/gpu/ffn_block.mlir legalized with
`enabled=f16 io-types=*:f16 target=sm_90` and emitted with --emit-cuda; its
weights are bindings, handed over from the PyTorch module. Prints the median
of 100 timed runs after 20 warm-up runs for each, the ratios, and the
engine's error against PyTorch f16 and f32.

With a second engine, ffn_block_f8.mlir emitted as it is, the same block
runs with both Linears in f8 E4M3: PyTorch's weights are handed over
scaled by 2^14 and 2^15 and cast to E4M3, as that program expects, and the
engine is timed against torch.compile f16 and compared with PyTorch f32.

Further engines are ffn_block_f8_region.mlir built by ffn_weights.py (the
Linears pinned to f8 E4M3, or to i8, by precision.region, quantized by
prec-legalize, weights constants from ffn_weights.py's formulas, the
weights file rebuilt here by ffn_weights.unpack): the block with those
weights is compared and timed the same way.

Usage: python3 run_ffn.py ffn.cu [ffn_f8.cu [REGION_ENGINE.cu...]]
"""
import copy
import sys

import torch

from engine import Engine, median_ms

engine = Engine(sys.argv[1])
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
y = torch.empty(2048, 4096, dtype=torch.float16, device="cuda")
bindings = [x16, block.linear1.weight.t().contiguous(), block.linear1.bias,
            block.linear2.weight.t().contiguous(), block.linear2.bias,
            block.norm.weight, block.norm.bias, y]
run_engine = engine.runner(bindings)

with torch.no_grad():
    eager = block(x16)
    exact = reference(x)
    compiled(x16)
    run_engine()
    torch.cuda.synchronize()
    for name, expected in [("torch eager f16", eager.float()), ("torch f32", exact)]:
        error = (y.float() - expected).abs()
        print(f"engine vs {name}: max abs {error.max().item():.3e}, "
              f"mean abs {error.mean().item():.3e}")
    t_eager = median_ms(lambda: block(x16), warmup=20, runs=100)
    t_compiled = median_ms(lambda: compiled(x16), warmup=20, runs=100)
    t_engine = median_ms(run_engine, warmup=20, runs=100)
print(f"FFN block f16, median of 100: eager {t_eager:.3f} ms, torch.compile "
      f"{t_compiled:.3f} ms, prec engine {t_engine:.3f} ms")
print(f"engine / torch.compile time: {t_engine / t_compiled:.2f}  "
      f"engine / eager time: {t_engine / t_eager:.2f}")
engine.destroy()


def run_f8(label, engine, weights, references, peer):
    """Runs an f8 or i8 engine (bindings: x, `weights`, the output), prints its
    error against each reference and its time against `peer`
    (torch.compile f16 of the same block)."""
    y8 = torch.empty(2048, 4096, dtype=torch.float16, device="cuda")
    run = engine.runner([x16, *weights, y8])
    with torch.no_grad():
        run()
        peer(x16)
        torch.cuda.synchronize()
        for name, expected in references:
            error = (y8.float() - expected).abs()
            print(f"{label} engine vs {name}: max abs {error.max().item():.3e}, "
                  f"mean abs {error.mean().item():.3e}")
        t_engine = median_ms(run, warmup=20, runs=100)
        t_peer = median_ms(lambda: peer(x16), warmup=20, runs=100)
    print(f"FFN block, {label}: prec engine {t_engine:.3f} ms, torch.compile f16 "
          f"{t_peer:.3f} ms; torch.compile f16 / this engine's time: "
          f"{t_peer / t_engine:.2f}")
    engine.destroy()


if len(sys.argv) > 2:
    e4m3 = torch.float8_e4m3fn
    w1t = (block.linear1.weight.float() * 2.0 ** 14).to(e4m3)
    w2t = (block.linear2.weight.float() * 2.0 ** 15).to(e4m3)
    run_f8("Linears in f8 E4M3", Engine(sys.argv[2]),
           [w1t, block.linear1.bias, w2t, block.linear2.bias, block.norm.weight,
            block.norm.bias],
           [("torch f32", exact), ("engine f16", y.float())], compiled)

if len(sys.argv) > 3:
    import json

    import ffn_weights
    formula = ffn_weights.weights()
    region_block, region_reference = copy.deepcopy(block), copy.deepcopy(reference)
    for name in ["linear1", "linear2"]:
        w = torch.from_numpy(formula[name]).cuda()
        getattr(region_block, name).weight.data = w.clone()
        getattr(region_reference, name).weight.data = w.float()
    with torch.no_grad():
        references = [("torch f32", region_reference(x)),
                      ("torch eager f16", region_block(x16).float())]
    region_compiled = torch.compile(region_block)
for cu in sys.argv[3:]:
    assert ffn_weights.unpack(cu), "rebuilt weights differ from prec's"
    precision = json.load(open(cu[:-3] + ".weights.json"))["precision"]
    run_f8(f"Linears pinned to {precision} by precision.region", Engine(cu),
           [block.linear1.bias, block.linear2.bias, block.norm.weight,
            block.norm.bias], references, region_compiled)
