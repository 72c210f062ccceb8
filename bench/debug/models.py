"""Models for prec-debug's and prec-calibrate's benchmarks, with seeded
random weights, exported at batch 1 by PyTorch's legacy exporter (opset
17) with Debian's CPU build of PyTorch:

- convnext: timm's convnext_atto shape (stem, four stages of depths 2, 2,
  6, 2 and widths 40, 80, 160, 320: depthwise 7x7 convolution, LayerNorm,
  Linear, GELU, Linear, layer scale, residual), 224x224, 152 layers;
- resnet50: torchvision's ResNet-50 (bottlenecks 3, 4, 6, 3, batch norms
  with random statistics folded by the exporter), 224x224, 121 layers;
- bert-base: BERT-base's shape (12 layers, hidden 768, 12 heads, MLP 3072,
  vocabulary 30522, LayerNorm, exact GELU, an additive attention mask),
  128 tokens, a two-class head on the first token.

export(name, work) writes WORK/NAME.onnx and the inputs WORK/NAME.in.npz;
imported(name, work, bin_dir) also imports the export with prec-translate.
"""
import inspect
import os
import subprocess

import numpy as np
import torch


class ConvNeXtBlock(torch.nn.Module):
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
            layers += [ConvNeXtBlock(width) for _ in range(depth)]
        self.features = torch.nn.Sequential(*layers)
        self.norm = torch.nn.LayerNorm(widths[-1], eps=1e-6)
        self.head = torch.nn.Linear(widths[-1], 1000)

    def forward(self, x):
        return self.head(self.norm(self.features(x).mean((2, 3))))


def conv_norm(cin, cout, kernel, stride=1):
    return [torch.nn.Conv2d(cin, cout, kernel, stride, kernel // 2, bias=False),
            torch.nn.BatchNorm2d(cout)]


class Bottleneck(torch.nn.Module):
    def __init__(self, cin, width, stride):
        super().__init__()
        cout = 4 * width
        self.body = torch.nn.Sequential(
            *conv_norm(cin, width, 1), torch.nn.ReLU(),
            *conv_norm(width, width, 3, stride), torch.nn.ReLU(),
            *conv_norm(width, cout, 1))
        self.down = (torch.nn.Sequential(*conv_norm(cin, cout, 1, stride))
                     if stride != 1 or cin != cout else torch.nn.Identity())

    def forward(self, x):
        return torch.relu(self.body(x) + self.down(x))


class ResNet50(torch.nn.Module):
    def __init__(self, blocks=(3, 4, 6, 3)):
        super().__init__()
        layers = [*conv_norm(3, 64, 7, 2), torch.nn.ReLU(),
                  torch.nn.MaxPool2d(3, 2, 1)]
        cin = 64
        for stage, count in enumerate(blocks):
            width = 64 << stage
            for index in range(count):
                layers.append(Bottleneck(cin, width,
                                         2 if stage and not index else 1))
                cin = 4 * width
        self.features = torch.nn.Sequential(*layers)
        self.fc = torch.nn.Linear(cin, 1000)

    def forward(self, x):
        return self.fc(self.features(x).mean((2, 3)))


class BertLayer(torch.nn.Module):
    def __init__(self, hidden, heads, mlp):
        super().__init__()
        self.heads = heads
        self.query, self.key, self.value, self.out = (
            torch.nn.Linear(hidden, hidden) for _ in range(4))
        self.norm1 = torch.nn.LayerNorm(hidden, eps=1e-12)
        self.up = torch.nn.Linear(hidden, mlp)
        self.down = torch.nn.Linear(mlp, hidden)
        self.norm2 = torch.nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, x, mask):
        batch, tokens, hidden = x.shape
        size = hidden // self.heads

        def split(y):
            return y.view(batch, tokens, self.heads, size).transpose(1, 2)

        scores = split(self.query(x)) @ split(self.key(x)).transpose(-1, -2)
        weights = torch.softmax(scores / size ** 0.5 + mask, -1)
        attended = (weights @ split(self.value(x))).transpose(1, 2)
        x = self.norm1(x + self.out(attended.reshape(batch, tokens, hidden)))
        return self.norm2(
            x + self.down(torch.nn.functional.gelu(self.up(x))))


class Bert(torch.nn.Module):
    def __init__(self, layers=12, hidden=768, heads=12, mlp=3072,
                 vocabulary=30522, positions=512):
        super().__init__()
        self.words = torch.nn.Embedding(vocabulary, hidden)
        self.positions = torch.nn.Embedding(positions, hidden)
        self.norm = torch.nn.LayerNorm(hidden, eps=1e-12)
        self.layers = torch.nn.ModuleList(
            BertLayer(hidden, heads, mlp) for _ in range(layers))
        self.classifier = torch.nn.Linear(hidden, 2)

    def forward(self, ids, attention):
        x = self.words(ids) + self.positions.weight[:ids.shape[1]]
        x = self.norm(x)
        mask = (1.0 - attention[:, None, None, :].float()) * -10000.0
        for layer in self.layers:
            x = layer(x, mask)
        return self.classifier(torch.tanh(x[:, 0]))


def randomize_batch_norms(model):
    for module in model.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.uniform_(-0.1, 0.1)
            module.running_var.uniform_(0.5, 1.5)


def example(name):
    """The model and its inputs by name, seeded."""
    torch.manual_seed(0)
    if name == "convnext":
        return ConvNeXt(), {"x": torch.randn(1, 3, 224, 224)}
    if name == "resnet50":
        model = ResNet50()
        randomize_batch_norms(model)
        return model, {"x": torch.randn(1, 3, 224, 224)}
    if name == "bert-base":
        return Bert(), {"ids": torch.randint(0, 30522, (1, 128)),
                        "attention": torch.ones(1, 128, dtype=torch.int64)}
    raise ValueError(f"unknown model '{name}'")


NAMES = ("convnext", "resnet50", "bert-base")


def export(name, work):
    model, inputs = example(name)
    path = os.path.join(work, f"{name}.onnx")
    # The legacy exporter: PyTorch 2.9 on defaults to the dynamo one.
    legacy = ({"dynamo": False} if "dynamo" in
              inspect.signature(torch.onnx.export).parameters else {})
    with torch.no_grad():
        torch.onnx.export(model.eval(), tuple(inputs.values()), path,
                          input_names=list(inputs), output_names=["logits"],
                          opset_version=17, **legacy)
    np.savez(os.path.join(work, f"{name}.in.npz"),
             **{key: value.numpy() for key, value in inputs.items()})
    return path


def imported(name, work, bin_dir):
    """Exports the model into WORK, imports it with BIN_DIR's prec-translate
    and returns the paths of WORK/NAME.mlir and its inputs WORK/NAME.in.npz."""
    os.makedirs(work, exist_ok=True)
    onnx = export(name, work)
    model = os.path.join(work, f"{name}.mlir")
    subprocess.run([os.path.join(bin_dir, "prec-translate"), "--import-onnx",
                    onnx, "-o", model], check=True)
    return model, os.path.join(work, f"{name}.in.npz")
