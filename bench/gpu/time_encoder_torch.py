"""Times PyTorch eager on the transformer encoder layer that
export_models.py exports (same shapes), in f32 and f16, as the peer of the
prec engines: median of 200 runs after 20 warm-up runs."""
import copy

import torch

torch.manual_seed(0)
encoder = torch.nn.TransformerEncoderLayer(
    d_model=128, nhead=4, dim_feedforward=256, dropout=0.0,
    batch_first=True).eval().cuda()
x = torch.randn(1, 16, 128, device="cuda")
for name, model, example in [
        ("torch eager f32", encoder, x),
        ("torch eager f16", copy.deepcopy(encoder).half(), x.half())]:
    with torch.no_grad():
        for _ in range(20):
            model(example)
        times = []
        for _ in range(200):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            model(example)
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
    times.sort()
    print(f"{name:24s} median run {times[len(times) // 2] * 1e3:.1f} us")
