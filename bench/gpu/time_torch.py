"""Times PyTorch on the models export_models.py exports (same shapes, same
seeded weights), as the peer of prec's engines: eager in f32 and f16, and
torch.compile f16 with mode="reduce-overhead" (CUDA graphs, as the engines'
use_cuda_graph); median of 200 runs after 20 warm-up runs.

Usage: python3 time_torch.py resnet18|encoder_layer
"""
import copy
import sys

import torch
import torchvision

from engine import median_ms

torch.manual_seed(0)
if sys.argv[1] == "resnet18":
    model, example = torchvision.models.resnet18(weights=None), torch.rand(1, 3, 224, 224)
else:
    model = torch.nn.TransformerEncoderLayer(
        d_model=128, nhead=4, dim_feedforward=256, dropout=0.0,
        batch_first=True)
    example = torch.randn(1, 16, 128)
model = model.eval().cuda()
example = example.cuda()
half = copy.deepcopy(model).half()
compiled = torch.compile(half, mode="reduce-overhead")
for name, variant, data in [
        ("torch eager f32", model, example),
        ("torch eager f16", half, example.half()),
        ("torch.compile f16 graphs", compiled, example.half())]:
    with torch.no_grad():
        median = median_ms(lambda: variant(data), warmup=20, runs=200)
    print(f"{sys.argv[1]} {name:24s} median run {median * 1e3:.1f} us")
