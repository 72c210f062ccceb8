"""Builds the corpus of tiny real ONNX exports in this folder.

Usage: python3 test/models/make_models.py OUT_DIR

Every model is built from a config with random weights (torch.manual_seed(0)),
in eval mode, f32, static shapes, and exported by both PyTorch ONNX exporters:

  OUT_DIR/<family>-legacy.onnx   torch.onnx.export(..., dynamo=False, opset_version=17)
  OUT_DIR/<family>-dynamo.onnx   torch.onnx.export(..., dynamo=True) at its default opset
                                 (or the highest <= 21 that works)
  OUT_DIR/<family>.in.npz        inputs, keyed by the ONNX graph input names
  OUT_DIR/<family>-<exporter>.out.npz
                                 PyTorch f32 eager (CPU) outputs, keyed by the
                                 ONNX graph output names of that export
  OUT_DIR/manifest.json          one entry per successful export

Each .onnx is one self-contained file (no external data). A failing export is
reported and skipped; a summary table with an onnxruntime (CPU) sanity check
of every export closes the run. Needs no network.
"""
import json
import os
import sys
import tempfile
import time
import traceback
import warnings

import numpy as np
import onnx
import torch
from torch import nn

warnings.filterwarnings("ignore")

MAX_BYTES = 2 * 1024 * 1024
BATCH, SEQ, VOCAB, PAD = 2, 16, 1000, 5


def version_of(name):
    try:
        mod = __import__(name)
        return getattr(mod, "__version__", "?")
    except Exception as e:  # noqa: BLE001
        return "missing (%s)" % type(e).__name__


VERSIONS = {n: version_of(n) for n in (
    "torch", "transformers", "timm", "torchvision", "onnx", "onnxruntime",
    "onnxscript", "numpy")}


# ---------------------------------------------------------------- inputs

def text_inputs():
    rng = np.random.default_rng(0)
    ids = rng.integers(3, VOCAB, size=(BATCH, SEQ), dtype=np.int64)
    mask = np.ones((BATCH, SEQ), dtype=np.int64)
    mask[1, SEQ - PAD:] = 0
    return {"input_ids": ids, "attention_mask": mask}


def image_inputs(hw, name):
    rng = np.random.default_rng(0)
    return {name: rng.standard_normal((1, 3, hw, hw)).astype(np.float32)}


# ---------------------------------------------------------------- wrappers

class TextLastHidden(nn.Module):
    """Returns only the last hidden state, so the export has one output."""

    def __init__(self, model, use_cache=None):
        super().__init__()
        self.model = model
        self.use_cache = use_cache

    def forward(self, input_ids, attention_mask):
        kw = {}
        if self.use_cache is not None:
            kw["use_cache"] = self.use_cache
        out = self.model(input_ids=input_ids, attention_mask=attention_mask,
                         **kw)
        return out[0]


class PixelLastHidden(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, pixel_values):
        return self.model(pixel_values=pixel_values)[0]


def eager_attention(cfg):
    # The plain MatMul/Softmax attention exports the same way through both
    # exporters and on every transformers version.
    try:
        cfg._attn_implementation = "eager"
    except Exception:  # noqa: BLE001
        pass
    return cfg


def sdpa_attention(build):
    """The family with the attention transformers picks by default
    (scaled_dot_product_attention): its exports differ from the eager ones
    (IsNaN zeroes fully masked rows)."""
    def build_sdpa():
        global eager_attention
        saved = eager_attention
        eager_attention = lambda cfg: cfg  # noqa: E731
        try:
            return build()
        finally:
            eager_attention = saved
    return build_sdpa


# ---------------------------------------------------------------- families

def bert():
    from transformers import BertConfig, BertModel
    cfg = eager_attention(BertConfig(
        vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
        num_attention_heads=4, intermediate_size=128,
        max_position_embeddings=64, type_vocab_size=2))
    return TextLastHidden(BertModel(cfg, add_pooling_layer=False)), \
        text_inputs(), ["last_hidden_state"]


def distilbert():
    from transformers import DistilBertConfig, DistilBertModel
    cfg = eager_attention(DistilBertConfig(
        vocab_size=VOCAB, dim=64, n_layers=2, n_heads=4, hidden_dim=128,
        max_position_embeddings=64))
    return TextLastHidden(DistilBertModel(cfg)), text_inputs(), \
        ["last_hidden_state"]


def roberta():
    from transformers import RobertaConfig, RobertaModel
    cfg = eager_attention(RobertaConfig(
        vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2,
        num_attention_heads=4, intermediate_size=128,
        max_position_embeddings=64, type_vocab_size=1, pad_token_id=1))
    return TextLastHidden(RobertaModel(cfg, add_pooling_layer=False)), \
        text_inputs(), ["last_hidden_state"]


def albert():
    from transformers import AlbertConfig, AlbertModel
    cfg = eager_attention(AlbertConfig(
        vocab_size=VOCAB, embedding_size=32, hidden_size=64,
        num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
        max_position_embeddings=64))
    return TextLastHidden(AlbertModel(cfg, add_pooling_layer=False)), \
        text_inputs(), ["last_hidden_state"]


def gpt2():
    from transformers import GPT2Config, GPT2Model
    cfg = eager_attention(GPT2Config(
        vocab_size=VOCAB, n_positions=64, n_embd=64, n_layer=2, n_head=4,
        n_inner=128, use_cache=False))
    return TextLastHidden(GPT2Model(cfg), use_cache=False), text_inputs(), \
        ["last_hidden_state"]


def llama():
    from transformers import LlamaConfig, LlamaModel
    cfg = eager_attention(LlamaConfig(
        vocab_size=VOCAB, hidden_size=64, intermediate_size=128,
        num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
        max_position_embeddings=64, hidden_act="silu", rms_norm_eps=1e-6,
        use_cache=False, tie_word_embeddings=False))
    return TextLastHidden(LlamaModel(cfg), use_cache=False), text_inputs(), \
        ["last_hidden_state"]


def t5_encoder():
    from transformers import T5Config, T5EncoderModel
    cfg = eager_attention(T5Config(
        vocab_size=VOCAB, d_model=64, d_kv=16, d_ff=128, num_layers=2,
        num_heads=4, relative_attention_num_buckets=8,
        relative_attention_max_distance=32, use_cache=False,
        is_encoder_decoder=False))
    return TextLastHidden(T5EncoderModel(cfg)), text_inputs(), \
        ["last_hidden_state"]


def vit():
    from transformers import ViTConfig, ViTModel
    cfg = eager_attention(ViTConfig(
        image_size=32, patch_size=8, num_channels=3, hidden_size=64,
        num_hidden_layers=2, num_attention_heads=4, intermediate_size=128))
    return PixelLastHidden(ViTModel(cfg, add_pooling_layer=False)), \
        image_inputs(32, "pixel_values"), ["last_hidden_state"]


def swin():
    from transformers import SwinConfig, SwinModel
    # 32x32 image, 2x2 patches -> 16x16 tokens, 4x4 windows; after the patch
    # merging 8x8 tokens, still 4x4 windows. Two blocks a stage, so the
    # second one of each stage uses shifted windows with their mask.
    cfg = eager_attention(SwinConfig(
        image_size=32, patch_size=2, num_channels=3, embed_dim=16,
        depths=[2, 2], num_heads=[2, 4], window_size=4, mlp_ratio=2.0))
    return PixelLastHidden(SwinModel(cfg, add_pooling_layer=False)), \
        image_inputs(32, "pixel_values"), ["last_hidden_state"]


def calibrate_bn(model, hw):
    """Gives a CNN the statistics of a trained one: random BatchNorm affine
    parameters, default nn.Linear init (torchvision's classifier init is
    N(0, 0.01)), and running statistics measured on random batches. Without
    this the logits of the narrow MobileNetV3/EfficientNet are ~1e-7..1e-5,
    too small to check anything against."""
    for mod in model.modules():
        if isinstance(mod, nn.modules.batchnorm._BatchNorm):
            mod.reset_running_stats()
            mod.momentum = None  # cumulative average over the batches below
            with torch.no_grad():
                mod.weight.uniform_(0.5, 1.5)
                mod.bias.uniform_(-0.2, 0.2)
        elif isinstance(mod, nn.Linear):
            mod.reset_parameters()
    model.train()
    with torch.no_grad():
        for _ in range(4):
            model(torch.randn(8, 3, hw, hw))
    return model.eval()


def mobilenetv3():
    # torchvision's mobilenet_v3_small at a quarter of the width.
    from torchvision.models.mobilenetv3 import MobileNetV3, _mobilenet_v3_conf
    setting, last = _mobilenet_v3_conf("mobilenet_v3_small", width_mult=0.25)
    m = calibrate_bn(MobileNetV3(setting, last, num_classes=10), 32)
    return m, image_inputs(32, "input"), ["logits"]


def efficientnet():
    # EfficientNet-B0 blocks (MBConv, squeeze-excite, SiLU) at a quarter of
    # the width and about half the depth.
    try:
        from timm.models.efficientnet import _gen_efficientnet
        m = _gen_efficientnet("efficientnet_b0", channel_multiplier=0.25,
                              depth_multiplier=0.5, pretrained=False,
                              num_classes=10)
        print("  efficientnet: timm _gen_efficientnet('efficientnet_b0', "
              "channel_multiplier=0.25, depth_multiplier=0.5)", flush=True)
    except Exception as e:  # noqa: BLE001
        print("  efficientnet: timm failed (%s: %s), using torchvision"
              % (type(e).__name__, str(e).splitlines()[0] if str(e) else ""),
              flush=True)
        from torchvision.models.efficientnet import (EfficientNet,
                                                     _efficientnet_conf)
        setting, last = _efficientnet_conf("efficientnet_b0", width_mult=0.25,
                                           depth_mult=0.5)
        m = EfficientNet(setting, dropout=0.2, last_channel=last,
                         num_classes=10)
    return calibrate_bn(m, 32), image_inputs(32, "input"), ["logits"]


class TinyResNet(nn.Module):
    """torchvision's ResNet layout, BasicBlock x [1, 1, 1, 1], widths
    16/32/64/128 (torchvision's ResNet class hard-codes 64..512)."""

    def __init__(self, widths=(16, 32, 64, 128), num_classes=10):
        super().__init__()
        from torchvision.models.resnet import BasicBlock, conv1x1
        self.conv1 = nn.Conv2d(3, widths[0], 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(widths[0])
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        layers, cin = [], widths[0]
        for i, w in enumerate(widths):
            stride = 1 if i == 0 else 2
            down = None
            if stride != 1 or cin != w:
                down = nn.Sequential(conv1x1(cin, w, stride),
                                     nn.BatchNorm2d(w))
            layers.append(nn.Sequential(BasicBlock(cin, w, stride, down)))
            cin = w
        self.layer1, self.layer2, self.layer3, self.layer4 = layers
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(cin, num_classes)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


def resnet():
    return calibrate_bn(TinyResNet(), 64), image_inputs(64, "input"), \
        ["logits"]


FAMILIES = [
    ("bert", bert), ("distilbert", distilbert), ("roberta", roberta),
    ("albert", albert), ("gpt2", gpt2), ("llama", llama),
    ("t5_encoder", t5_encoder), ("vit", vit), ("swin", swin),
    ("mobilenetv3", mobilenetv3), ("efficientnet", efficientnet),
    ("resnet", resnet),
    ("bert_sdpa", sdpa_attention(bert)), ("llama_sdpa", sdpa_attention(llama)),
]


# ---------------------------------------------------------------- export

def opset_of(model):
    for imp in model.opset_import:
        if imp.domain in ("", "ai.onnx"):
            return imp.version
    return None


def op_types(graph, acc):
    for node in graph.node:
        dom = node.domain if node.domain not in ("", "ai.onnx") else ""
        acc.add((dom + "::" if dom else "") + node.op_type)
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                op_types(attr.g, acc)
            for g in attr.graphs:
                op_types(g, acc)
    return acc


def export_once(exporter, model, args, in_names, out_names, path, opset):
    """Exports into a scratch folder, then re-saves as one file."""
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "model.onnx")
        kw = dict(input_names=in_names, output_names=out_names)
        if exporter == "legacy":
            torch.onnx.export(model, args, raw, dynamo=False,
                              opset_version=17, do_constant_folding=True,
                              **kw)
        else:
            if opset is not None:
                kw["opset_version"] = opset
            try:
                torch.onnx.export(model, args, raw, dynamo=True,
                                  external_data=False, verbose=False, **kw)
            except TypeError:
                torch.onnx.export(model, args, raw, dynamo=True, **kw)
        proto = onnx.load(raw, load_external_data=True)
    onnx.save(proto, path, save_as_external_data=False)
    return onnx.load(path)


def export(exporter, model, args, in_names, out_names, path):
    proto = export_once(exporter, model, args, in_names, out_names, path,
                        None)
    if exporter == "dynamo" and (opset_of(proto) or 0) > 21:
        last = None
        for opset in (21, 20, 18):
            try:
                return export_once(exporter, model, args, in_names,
                                   out_names, path, opset)
            except Exception as e:  # noqa: BLE001
                last = e
        raise last
    return proto


def ort_check(path, feeds, expected):
    import onnxruntime as ort
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    names = [i.name for i in sess.get_inputs()]
    got = sess.run(None, {n: feeds[n] for n in names})
    diff = 0.0
    for (name, ref), val in zip(expected.items(), got):
        if ref.shape != val.shape:
            raise ValueError("shape %s vs %s for %s"
                             % (val.shape, ref.shape, name))
        diff = max(diff, float(np.max(np.abs(ref.astype(np.float64)
                                             - val.astype(np.float64)))))
    return diff


def first_lines(e, n=4):
    lines = [l for l in ("%s: %s" % (type(e).__name__, e)).splitlines()
             if l.strip()]
    return "\n    ".join(lines[:n])


def build_family(build):
    """The family's model (f32, eval, from seed 0), inputs and output names:
    what the export used, so that the GPU scripts rebuild the same one."""
    torch.manual_seed(0)
    model, inputs, out_names = build()
    return model.float().eval(), inputs, out_names


def main():
    OUT = sys.argv[1] if len(sys.argv) > 1 else "models"
    os.makedirs(OUT, exist_ok=True)
    ONLY = set(sys.argv[2].split(",")) if len(sys.argv) > 2 else None
    print("versions: " + ", ".join("%s %s" % kv for kv in VERSIONS.items()),
          flush=True)
    torch.set_num_threads(min(8, os.cpu_count() or 1))
    manifest, rows, failures = [], [], []
    t_all = time.time()
    for family, build in FAMILIES:
        if ONLY and family not in ONLY:
            continue
        print("== %s" % family, flush=True)
        try:
            model, inputs, out_names = build_family(build)
            in_names = list(inputs)
            args = tuple(torch.from_numpy(inputs[n]) for n in in_names)
            with torch.no_grad():
                ref = model(*args)
            refs = ref if isinstance(ref, (tuple, list)) else (ref,)
            refs = [r.detach().float().numpy() for r in refs]
            np.savez(os.path.join(OUT, family + ".in.npz"), **inputs)
        except Exception as e:  # noqa: BLE001
            print("FAILED %s (build): %s" % (family, first_lines(e)), flush=True)
            failures.append((family, "build", first_lines(e)))
            continue
        for exporter in ("legacy", "dynamo"):
            stem = "%s-%s" % (family, exporter)
            path = os.path.join(OUT, stem + ".onnx")
            t0 = time.time()
            try:
                with torch.no_grad():
                    proto = export(exporter, model, args, in_names, out_names,
                                   path)
            except Exception as e:  # noqa: BLE001
                msg = first_lines(e)
                print("FAILED %s %s: %s" % (family, exporter, msg), flush=True)
                tb = traceback.format_exc().strip().splitlines()
                print("    ..." + "\n    ".join(tb[-3:]), flush=True)
                failures.append((family, exporter, msg))
                if os.path.exists(path):
                    os.remove(path)
                continue
            graph_in = [i.name for i in proto.graph.input
                        if i.name not in {t.name for t in proto.graph.initializer}]
            graph_out = [o.name for o in proto.graph.output]
            missing = [n for n in graph_in if n not in inputs]
            if missing:
                print("WARNING %s: graph inputs %s not in %s.in.npz"
                      % (stem, missing, family), flush=True)
            if len(graph_out) != len(refs):
                print("WARNING %s: %d graph outputs, %d PyTorch outputs"
                      % (stem, len(graph_out), len(refs)), flush=True)
            expected = dict(zip(graph_out, refs))
            np.savez(os.path.join(OUT, stem + ".out.npz"), **expected)
            size = os.path.getsize(path)
            ops = sorted(op_types(proto.graph, set()))
            try:
                diff = ort_check(path, inputs, expected)
            except Exception as e:  # noqa: BLE001
                print("ORT FAILED %s: %s" % (stem, first_lines(e)), flush=True)
                diff = None
            if size > MAX_BYTES:
                print("WARNING %s: %d bytes > 2 MB" % (stem, size), flush=True)
            print("  %s: opset %s, %d bytes, %d nodes, ort max abs %s, %.1fs"
                  % (stem, opset_of(proto), size, len(proto.graph.node), diff,
                     time.time() - t0), flush=True)
            rows.append((family, exporter, opset_of(proto), size,
                         len(proto.graph.node), ops, diff))
            manifest.append({
                "family": family, "exporter": exporter,
                "onnx": stem + ".onnx", "inputs": family + ".in.npz",
                "outputs": stem + ".out.npz", "input_names": graph_in,
                "output_names": graph_out, "opset": opset_of(proto),
                "ops": ops, "ort_max_abs": diff, "bytes": size,
                "nodes": len(proto.graph.node)})
            with open(os.path.join(OUT, "manifest.json"), "w") as f:
                json.dump(manifest, f, indent=1)
                f.write("\n")

    print("\nversions: " + ", ".join("%s %s" % kv for kv in VERSIONS.items()))
    print("\n%-12s %-7s %5s %9s %6s %10s  %s" % (
        "family", "exporter", "opset", "bytes", "nodes", "ort_maxabs", "ops"))
    for family, exporter, opset, size, nodes, ops, diff in rows:
        print("%-12s %-7s %5s %9d %6d %10s  %s" % (
            family, exporter, opset, size, nodes,
            "%.2e" % diff if diff is not None else "n/a", " ".join(ops)))
    print("\n%d exports written, %d failed (%.0fs)"
          % (len(rows), len(failures), time.time() - t_all))
    for family, exporter, msg in failures:
        print("FAILED %s %s: %s" % (family, exporter, msg))


if __name__ == "__main__":
    main()
