"""Exports the real models prec's importer is checked on, with PyTorch.

Runs on the GPU machine (PyTorch is there, not here): builds torchvision's
ResNet-18 and a transformer encoder layer with seeded random weights (no
downloads), exports each to ONNX (opset 17, static shapes), and saves an
input and PyTorch's f32 outputs next to it as .npz, for prec-translate and
prec-run to check against.

Usage: python3 export_models.py OUTPUT_DIR [resnet18] [resnet18_b32]
                                            [encoder_layer] [resnet50_f16]

resnet18_b32 is the same ResNet-18 at batch 32, for timing quantized
engines where their GEMMs, not kernel launches, dominate.

resnet50_f16 is ResNet-50 at batch 64 with f16 weights (small enough to
carry), exported without reference outputs: the engine benchmark compares
with the same seeded model on the GPU.
"""
import os
import sys

import numpy as np
import torch

out = sys.argv[1]
wanted = sys.argv[2:] or ["resnet18", "encoder_layer"]
os.makedirs(out, exist_ok=True)
torch.manual_seed(0)


def split_weights(path, limit=15 << 20):
    """Moves the initializers into data files of at most `limit` bytes each
    (external data next to the model), so that every file stays small."""
    import onnx
    from onnx.external_data_helper import set_external_data

    model = onnx.load(path)
    base = os.path.splitext(os.path.basename(path))[0]
    part, used = 0, 0
    for tensor in model.graph.initializer:
        size = len(tensor.raw_data)
        if used and used + size > limit:
            part, used = part + 1, 0
        set_external_data(tensor, location=f"{base}.weights{part}")
        used += size
    onnx.external_data_helper.write_external_data_tensors(
        model, os.path.dirname(path))
    onnx.save(model, path)


def export(name, model, example, input_name="x", output_name="y"):
    model.eval()
    path = os.path.join(out, name + ".onnx")
    kwargs = dict(input_names=[input_name], output_names=[output_name],
                  opset_version=17, do_constant_folding=True)
    try:
        torch.onnx.export(model, (example,), path, dynamo=False, **kwargs)
    except TypeError:  # releases without the dynamo switch
        torch.onnx.export(model, (example,), path, **kwargs)
    with torch.no_grad():
        expected = model(example)
    np.savez(os.path.join(out, name + ".in.npz"),
             **{input_name: example.numpy()})
    np.savez(os.path.join(out, name + ".golden.npz"),
             **{output_name: expected.numpy()})
    # The same model in f16 on the GPU, for the engine comparisons to come.
    if torch.cuda.is_available():
        with torch.no_grad():
            half = model.to("cuda").half()(example.to("cuda").half())
        np.savez(os.path.join(out, name + ".torch_f16.npz"),
                 **{output_name: half.float().cpu().numpy()})
        model.float().cpu()
    print(f"{name}: {os.path.getsize(path)} bytes, output "
          f"{tuple(expected.shape)}")


import torchvision  # noqa: E402

if "resnet18" in wanted:
    resnet = torchvision.models.resnet18(weights=None)
    export("resnet18", resnet, torch.rand(1, 3, 224, 224))
    split_weights(os.path.join(out, "resnet18.onnx"))

if "resnet18_b32" in wanted:
    torch.manual_seed(0)
    resnet = torchvision.models.resnet18(weights=None)
    export("resnet18_b32", resnet, torch.rand(32, 3, 224, 224))
    split_weights(os.path.join(out, "resnet18_b32.onnx"))

if "resnet50_f16" in wanted:
    torch.manual_seed(0)
    resnet50 = torchvision.models.resnet50(weights=None).eval().half().cuda()
    path = os.path.join(out, "resnet50_f16.onnx")
    torch.onnx.export(resnet50, (torch.rand(64, 3, 224, 224).half().cuda(),), path,
                      input_names=["x"], output_names=["y"], opset_version=17,
                      do_constant_folding=True, dynamo=False)
    split_weights(path)
    print(f"resnet50_f16: {os.path.getsize(path)} bytes of graph")

if "encoder_layer" in wanted:
    encoder = torch.nn.TransformerEncoderLayer(
        d_model=128, nhead=4, dim_feedforward=256, dropout=0.0,
        batch_first=True)
    export("encoder_layer", encoder, torch.randn(1, 16, 128))
print("torch", torch.__version__, "torchvision", torchvision.__version__)
