"""prec-debug's searches compiled once against compiled per plan, in one run.

Builds a ConvNeXt of timm's convnext_atto shape (stem, four stages of
depths 2, 2, 6, 2 and widths 40, 80, 160, 320: depthwise 7x7 convolution,
LayerNorm, Linear, GELU, Linear, layer scale, residual; 152 layers by
name) with seeded random weights in PyTorch, exports it at batch 1 (legacy
exporter, opset 17), imports it with prec-translate, and runs prec-debug
(f16 low, f32 high) in each mode twice: --compile-once and
--compile-once=false. Prints per run the evaluations, the search time,
the time per evaluation, the wall time, and the speed-up.

Usage: /usr/bin/python3 compile_once.py BUILD_BIN_DIR WORK_DIR [MODES]
"""
import os
import re
import subprocess
import sys
import time

import numpy as np
import torch


class Block(torch.nn.Module):
    def __init__(self, width):
        super().__init__()
        self.dwconv = torch.nn.Conv2d(width, width, 7, padding=3, groups=width)
        self.norm = torch.nn.LayerNorm(width, eps=1e-6)
        self.pwconv1 = torch.nn.Linear(width, 4 * width)
        self.pwconv2 = torch.nn.Linear(4 * width, width)
        self.gamma = torch.nn.Parameter(torch.full((width,), 1e-1))

    def forward(self, x):
        y = self.dwconv(x).permute(0, 2, 3, 1)
        y = self.pwconv2(torch.nn.functional.gelu(self.pwconv1(self.norm(y))))
        return x + (self.gamma * y).permute(0, 3, 1, 2)


class ChannelsFirstNorm(torch.nn.LayerNorm):
    def forward(self, x):
        return super().forward(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)


class ConvNeXt(torch.nn.Module):
    def __init__(self, depths=(2, 2, 6, 2), widths=(40, 80, 160, 320)):
        super().__init__()
        layers = [torch.nn.Conv2d(3, widths[0], 4, stride=4),
                  ChannelsFirstNorm(widths[0], eps=1e-6)]
        for stage, (depth, width) in enumerate(zip(depths, widths)):
            if stage:
                layers += [ChannelsFirstNorm(widths[stage - 1], eps=1e-6),
                           torch.nn.Conv2d(widths[stage - 1], width, 2,
                                           stride=2)]
            layers += [Block(width) for _ in range(depth)]
        self.features = torch.nn.Sequential(*layers)
        self.norm = torch.nn.LayerNorm(widths[-1], eps=1e-6)
        self.head = torch.nn.Linear(widths[-1], 1000)

    def forward(self, x):
        return self.head(self.norm(self.features(x).mean((2, 3))))


def export(work):
    torch.manual_seed(0)
    model = ConvNeXt().eval()
    x = torch.randn(1, 3, 224, 224)
    path = os.path.join(work, "convnext.onnx")
    torch.onnx.export(model, (x,), path, input_names=["x"],
                      output_names=["logits"], opset_version=17)
    np.savez(os.path.join(work, "convnext.in.npz"), x=x.numpy())
    return path


def search(bin_dir, model, inputs, mode, compile_once):
    start = time.monotonic()
    run = subprocess.run(
        [os.path.join(bin_dir, "prec-debug"), model, "--mode", mode,
         "--load-inputs", inputs, "--atol", "0.002", "--rtol", "0",
         "--check-error-stat", "max", f"--compile-once={compile_once}"],
        capture_output=True, text=True)
    wall = time.monotonic() - start
    if run.returncode not in (0, 1):
        sys.exit(f"prec-debug failed:\n{run.stderr}")
    found = re.search(r"evaluations: (\d+) .* in ([\d.]+) s, (compiled \w+ ?\w*)",
                      run.stdout)
    return int(found.group(1)), float(found.group(2)), wall, found.group(3)


def main():
    bin_dir, work = sys.argv[1], sys.argv[2]
    modes = sys.argv[3].split(",") if len(sys.argv) > 3 else ["bisect", "delta"]
    os.makedirs(work, exist_ok=True)
    onnx = export(work)
    model = os.path.join(work, "convnext.mlir")
    subprocess.run([os.path.join(bin_dir, "prec-translate"), "--import-onnx",
                    onnx, "-o", model], check=True)
    inputs = os.path.join(work, "convnext.in.npz")
    for mode in modes:
        rows = {}
        for compile_once in ("true", "false"):
            evaluations, searching, wall, how = search(
                bin_dir, model, inputs, mode, compile_once)
            rows[compile_once] = (searching, wall)
            print(f"{mode:12s} {how:17s} {evaluations:4d} evaluations, "
                  f"search {searching:7.1f} s "
                  f"({searching / evaluations:.2f} s each), wall {wall:7.1f} s")
        once, per_plan = rows["true"], rows["false"]
        print(f"{mode:12s} compiled once: {per_plan[0] / once[0]:.1f}x faster "
              f"searching, {per_plan[1] / once[1]:.1f}x in all")


if __name__ == "__main__":
    main()
