"""ResNet-50, batch 64, f16: prec's engines against PyTorch eager and
torch.compile on the same GPU, in one run.

Each engine was built here from export_models.py's resnet50_f16 (same seed,
so the same weights as the model below), imported, legalized with
enabled=f16 and emitted (e.g. once with --conv=im2col and once with
--conv=cudnn). Prints each engine's error against eager, and the median of
50 timed runs after 10 warm-up runs for each, with the ratios.

Usage: python3 run_resnet50.py resnet50.cu [resnet50_cudnn.cu ...]
"""
import sys

import torch
import torchvision

from engine import Engine, median_ms

torch.manual_seed(0)
model = torchvision.models.resnet50(weights=None).eval().half().cuda()
x = torch.rand(64, 3, 224, 224, device="cuda").half()
with torch.no_grad():
    expected = model(x)
    t_eager = median_ms(lambda: model(x))
    compiled = torch.compile(model)
    compiled(x)
    t_compiled = median_ms(lambda: compiled(x))
print(f"ResNet-50 batch 64 f16, median of 50: eager {t_eager:.2f} ms, "
      f"torch.compile {t_compiled:.2f} ms; output range "
      f"[{expected.min().item():.3f}, {expected.max().item():.3f}]")
for cu in sys.argv[1:]:
    engine = Engine(cu)
    # NaN until the engine writes it: an output left unwritten cannot pass.
    y = torch.full((64, 1000), float("nan"), dtype=torch.float16,
                   device="cuda")
    run_engine = engine.runner([x, y])
    run_engine()
    torch.cuda.synchronize()
    error = (y.float() - expected.float()).abs()
    assert not torch.isnan(y).any(), f"{engine.stem} left outputs unwritten"
    t_engine = median_ms(run_engine)
    print(f"{engine.stem}: {t_engine:.2f} ms, engine/eager time "
          f"{t_engine / t_eager:.2f}, engine/torch.compile time "
          f"{t_engine / t_compiled:.2f}; vs eager max abs "
          f"{error.max().item():.3e}, mean abs {error.mean().item():.3e}")
    engine.destroy()
