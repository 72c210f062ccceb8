"""prec's CUDA engines from Python: load the shared library prec builds
(prec-build, or Program.engine()) and call it with torch CUDA tensors.

Needs torch, and not prec's compiler: built engines run on a GPU machine
that has only them. The engine's manifest (<name>.json) and weights
(<name>.weights) lie beside its library (<name>.so).
"""
import ctypes
import json
import os

import torch

from .errors import EngineError, Error

# Torch types of the manifest's binding dtypes.
TORCH_DTYPES = {"f32": torch.float32, "f16": torch.float16,
                "bf16": torch.bfloat16, "i8": torch.int8,
                "i32": torch.int32, "i64": torch.int64, "i1": torch.bool}
for _name, _attribute in (("f8e4m3", "float8_e4m3fn"),
                          ("f8e5m2", "float8_e5m2")):
    if hasattr(torch, _attribute):
        TORCH_DTYPES[_name] = getattr(torch, _attribute)


class EngineBinding:
    def __init__(self, record):
        self.name = record["name"]
        self.is_input = record["input"]
        self.dtype = record["dtype"]
        self.shape = tuple(record["shape"])  # at the largest batch
        self.batched = record.get("batched", False)


class Engine:
    """A loaded engine. Call it with the inputs as CUDA tensors, in order or
    by name; it returns the outputs by name, computed on the current
    stream. A dynamic-batch engine takes any batch in its range along the
    batched inputs' first axis."""

    def __init__(self, library, *, cuda_graph=False):
        library = os.path.abspath(os.fspath(library))
        base = os.path.splitext(library)[0]
        try:
            with open(base + ".json") as file:
                self.manifest = json.load(file)
        except OSError as error:
            raise Error(f"cannot read the engine's manifest '{base}.json': "
                        f"{error.strerror}") from None
        self.name = self.manifest["engine"]
        self.bindings = [EngineBinding(r) for r in self.manifest["bindings"]]
        self.inputs = [b for b in self.bindings if b.is_input]
        self.outputs = [b for b in self.bindings if not b.is_input]
        self.batch_range = (tuple(self.manifest["batch"][k]
                                  for k in ("min", "opt", "max"))
                            if self.manifest.get("batch") else None)
        self.cuda_graph = cuda_graph
        self._handle = ctypes.c_void_p()
        try:
            self._lib = ctypes.CDLL(library)
        except OSError as error:
            raise Error(f"cannot load the engine '{library}': {error}") \
                from None
        self._explain = self._function("status_message", ctypes.c_char_p,
                                       [ctypes.c_int])
        self._run = self._function(
            "run_graph" if cuda_graph else "run", ctypes.c_int,
            [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
             ctypes.c_void_p])
        self._destroy = self._function("destroy", None, [ctypes.c_void_p])
        self._set_batch = (self._function("set_batch", ctypes.c_int,
                                          [ctypes.c_void_p, ctypes.c_int])
                           if self.batch_range else None)
        self.batch = self.batch_range[1] if self.batch_range else None
        create = self._function(
            "create", ctypes.c_int,
            [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)])
        self._check(create((base + ".weights").encode(),
                           ctypes.byref(self._handle)), "create")

    def _function(self, suffix, restype, argtypes):
        function = getattr(self._lib, f"{self.name}_{suffix}")
        function.restype = restype
        function.argtypes = argtypes
        return function

    def _check(self, status, what):
        if status != 0:
            message = self._explain(status).decode()
            raise EngineError(f"{self.name}_{what}: {message} (status "
                              f"{status})", status)

    def _arguments(self, args, kwargs):
        if len(args) > len(self.inputs):
            raise Error(f"{len(args)} inputs given; the engine takes "
                        f"{len(self.inputs)}")
        named = {b.name: a for b, a in zip(self.inputs, args)}
        for name, value in kwargs.items():
            if name in named:
                raise Error(f"input '{name}' given twice")
            named[name] = value
        unknown = set(named) - {b.name for b in self.inputs}
        if unknown:
            raise Error(f"the engine has no input {', '.join(sorted(unknown))}"
                        f" (its inputs: "
                        f"{', '.join(b.name for b in self.inputs)})")
        missing = [b.name for b in self.inputs if b.name not in named]
        if missing:
            raise Error(f"input {', '.join(missing)} missing")
        return named

    def _batch_of(self, named):
        """The batch the inputs hold, set on the engine when it changes."""
        if not self.batch_range:
            return None
        batched = [b for b in self.inputs if b.batched]
        batch = named[batched[0].name].shape[0] if batched else self.batch
        low, _, high = self.batch_range
        if not low <= batch <= high:
            raise Error(f"batch {batch} lies outside the engine's range "
                        f"[{low}, {high}]")
        if batch != self.batch:
            self._check(self._set_batch(self._handle, batch), "set_batch")
            self.batch = batch
        return batch

    def _shape(self, binding, batch):
        if binding.batched and batch is not None:
            return (batch,) + binding.shape[1:]
        return binding.shape

    def __call__(self, *args, **kwargs):
        named = self._arguments(args, kwargs)
        batch = self._batch_of(named)
        device = None
        pointers, keep, outputs = [], [], {}
        for binding in self.bindings:
            dtype = TORCH_DTYPES[binding.dtype]
            shape = self._shape(binding, batch)
            if binding.is_input:
                tensor = named[binding.name]
                if not isinstance(tensor, torch.Tensor) or not tensor.is_cuda:
                    raise Error(f"input '{binding.name}' must be a CUDA "
                                "tensor")
                if tensor.dtype != dtype or tuple(tensor.shape) != shape:
                    raise Error(
                        f"input '{binding.name}' is {tensor.dtype} "
                        f"{tuple(tensor.shape)}; the engine takes {dtype} "
                        f"{shape}")
                tensor = tensor.contiguous()
                device = device or tensor.device
            else:
                device = device or torch.device("cuda")
                tensor = torch.empty(shape, dtype=dtype, device=device)
                outputs[binding.name] = tensor
            keep.append(tensor)
            pointers.append(tensor.data_ptr())
        array = (ctypes.c_void_p * len(pointers))(*pointers)
        stream = torch.cuda.current_stream(device).cuda_stream
        with torch.cuda.device(device):
            self._check(self._run(self._handle, array,
                                  ctypes.c_void_p(stream)), "run")
        return outputs

    def close(self):
        if self._handle:
            self._destroy(self._handle)
            self._handle = ctypes.c_void_p()

    def __del__(self):
        if getattr(self, "_handle", None):
            self.close()


class EngineModule(torch.nn.Module):
    """An engine as a torch.nn.Module, like torch2trt's TRTModule: forward
    takes the inputs in order or by name and returns the output, or a tuple
    of them in the engine's order."""

    def __init__(self, engine):
        super().__init__()
        self.engine = engine
        self.input_names = [b.name for b in engine.inputs]
        self.output_names = [b.name for b in engine.outputs]

    def forward(self, *args, **kwargs):
        outputs = self.engine(*args, **kwargs)
        values = tuple(outputs[name] for name in self.output_names)
        return values[0] if len(values) == 1 else values
