"""What prec.compile, prec.calibrate and prec.debug_precision accept as a
model: an ONNX or MLIR file, ONNX bytes, a torch.nn.Module (exported through
torch.onnx.export), or a model already loaded."""
import io
import os

from ._native import native
from .errors import Error


def _export_module(module, example_inputs, input_names, output_names, opset):
    import torch
    if example_inputs is None:
        raise Error("a torch.nn.Module needs example_inputs= to be exported "
                    "to ONNX")
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    names = input_names or [f"input{i}" for i in range(len(example_inputs))]
    buffer = io.BytesIO()
    module = module.eval()
    try:
        # With gradients on: under no_grad, eval-mode attention and encoder
        # layers take PyTorch's fused fast path, which has no ONNX export.
        torch.onnx.export(module, example_inputs, buffer, input_names=names,
                          output_names=output_names, opset_version=opset,
                          do_constant_folding=True)
    except Exception as error:  # the exporter's, whatever their kind
        raise Error(f"torch.onnx.export of {type(module).__name__} failed: "
                    f"{error}") from error
    return buffer.getvalue()


def at_batch(example_inputs, size):
    """Example inputs with `size` samples along their first axis, repeated
    from those given: a module with a dynamic batch is exported at its
    largest."""
    import torch
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    resized = []
    for tensor in example_inputs:
        if tensor.dim() > 0 and tensor.shape[0] != size:
            repeats = -(-size // tensor.shape[0])
            tensor = torch.cat([tensor] * repeats)[:size]
        resized.append(tensor)
    return tuple(resized)


def load_model(model, *, input_shapes=None, example_inputs=None,
               input_names=None, output_names=None, opset=17):
    """The native model for `model`; raises prec.Error where it cannot be
    read or imported."""
    if hasattr(model, "calibrate") and hasattr(model, "legalize"):
        return model  # already loaded
    shapes = [f"{name}:{'x'.join(str(d) for d in shape)}"
              for name, shape in (input_shapes or {}).items()]
    if isinstance(model, (bytes, bytearray)):
        return native().Model.load(bytes(model), "model.onnx", True, shapes)
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        try:
            with open(path, "rb") as file:
                data = file.read()
        except OSError as error:
            raise Error(f"cannot read '{path}': {error.strerror}") from None
        onnx = not path.endswith(".mlir")
        return native().Model.load(data, path, onnx, shapes)
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and isinstance(model, torch.nn.Module):
        data = _export_module(model, example_inputs, input_names,
                              output_names, opset)
        return native().Model.load(data, type(model).__name__ + ".onnx",
                                   True, shapes)
    raise Error(f"cannot compile a {type(model).__name__}: give an ONNX or "
                "MLIR path, ONNX bytes or a torch.nn.Module")
