"""A dynamic-batch ResNet-18 engine against PyTorch at several batches.

The engine was emitted with --batch=MIN:OPT:MAX from export_models.py's
resnet18 imported at batch MAX and legalized to f16; PyTorch builds the same
seeded model here. For each batch it runs the engine on the first `batch`
samples and prints the error against PyTorch f16 and f32 and the median
time next to PyTorch eager f16 at that batch. It also checks that batches
outside [MIN, MAX] are refused.

Usage: python3 check_dynamic_batch.py resnet18_dyn.cu
"""
import sys

import torch
import torchvision

from engine import Engine, median_ms

engine = Engine(sys.argv[1])
manifest = engine.manifest
low, opt, high = (manifest["batch"][k] for k in ("min", "opt", "max"))
torch.manual_seed(0)
model = torchvision.models.resnet18(weights=None).eval().cuda()
half = torchvision.models.resnet18(weights=None).eval()
half.load_state_dict(model.state_dict())
half = half.half().cuda()
generator = torch.Generator().manual_seed(1)
x = torch.rand(high, 3, 224, 224, generator=generator).cuda()
y = torch.empty(high, 1000, device="cuda")

print(f"batch range [{low}, {high}], optimum {opt}; set_batch({high + 1}) "
      f"returns {engine.set_batch(high + 1)}, set_batch(0) returns "
      f"{engine.set_batch(0)}")
with torch.no_grad():
    for batch in sorted({low, 3, opt, high}):
        assert engine.set_batch(batch) == 0
        y.fill_(float("nan"))
        run = engine.runner([x, y])
        run()
        torch.cuda.synchronize()
        inputs = x[:batch]
        exact, eager = model(inputs), half(inputs.half()).float()
        out = y[:batch]
        untouched = int(torch.isnan(y[batch:]).all().item()) if batch < high else 1
        print(f"batch {batch}: vs torch f16 max abs "
              f"{(out - eager).abs().max().item():.3e}, vs torch f32 max abs "
              f"{(out - exact).abs().max().item():.3e}, rows past the batch "
              f"untouched {bool(untouched)}; engine "
              f"{median_ms(run, 10, 50):.3f} ms, eager f16 "
              f"{median_ms(lambda: half(inputs.half()), 10, 50):.3f} ms")
engine.destroy()
