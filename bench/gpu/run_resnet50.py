"""ResNet-50, batch 64, f16: prec's engine against PyTorch eager and
torch.compile on the same GPU, in one run.

The engine was built here from export_models.py's resnet50_f16 (same seed,
so the same weights as the model below), imported, legalized with
enabled=f16 and emitted. Prints the engine's error against eager, and the
median of 50 timed runs after 10 warm-up runs for each, with the ratios.

Usage: python3 run_resnet50.py resnet50.cu
"""
import sys

import torch
import torchvision

from engine import Engine, median_ms

engine = Engine(sys.argv[1])
torch.manual_seed(0)
model = torchvision.models.resnet50(weights=None).eval().half().cuda()
x = torch.rand(64, 3, 224, 224, device="cuda").half()
y = torch.empty(64, 1000, dtype=torch.float16, device="cuda")
run_engine = engine.runner([x, y])
with torch.no_grad():
    run_engine()
    expected = model(x)
    torch.cuda.synchronize()
    error = (y.float() - expected.float()).abs()
    print(f"engine vs eager f16: max abs {error.max().item():.3e}, mean abs "
          f"{error.mean().item():.3e}, output range "
          f"[{expected.min().item():.3f}, {expected.max().item():.3f}]")
    t_engine = median_ms(run_engine)
    t_eager = median_ms(lambda: model(x))
    compiled = torch.compile(model)
    compiled(x)
    t_compiled = median_ms(lambda: compiled(x))
print(f"ResNet-50 batch 64 f16, median of 50: eager {t_eager:.2f} ms, "
      f"torch.compile {t_compiled:.2f} ms, prec engine {t_engine:.2f} ms")
print(f"engine/eager time {t_engine / t_eager:.2f}, engine/torch.compile time "
      f"{t_engine / t_compiled:.2f}")
engine.destroy()
