"""prec.compile and the program it returns."""
import json
import os
import tempfile
import warnings
from dataclasses import dataclass
from typing import List, Tuple

from .arrays import to_numpy
from .errors import Diagnostic, Error, PrecisionWarning
from .models import at_batch, load_model
from .precisions import precision_names


@dataclass(frozen=True)
class Binding:
    """An input or output of a program or engine."""
    name: str
    dtype: str  # prec's element type: f32, f16, bf16, i8, i32, i64, ...
    shape: Tuple[int, ...]


@dataclass(frozen=True)
class ReportRow:
    """One op of the precision report: the precisions it computes,
    accumulates and stores in, and why."""
    name: str
    op: str
    compute: str
    accumulate: str
    storage: str
    reason: str
    op_class: str
    location: str
    casts_inserted: int
    detail: str


def _text_of(document):
    """JSON text of a plan or calibration given as a path, text, dict or an
    object with .to_json()."""
    if document is None:
        return None
    if hasattr(document, "to_json"):
        return document.to_json()
    if isinstance(document, dict):
        return json.dumps(document)
    if isinstance(document, (str, os.PathLike)) and os.path.exists(document):
        with open(document) as file:
            return file.read()
    if isinstance(document, str) and document.lstrip().startswith("{"):
        return document
    raise Error(f"cannot read '{document}': no such file")


def _patterns(mapping):
    """`{"pattern": "f16"}` or ["pattern:f16"] as prec's pattern:type."""
    if mapping is None:
        return []
    if isinstance(mapping, dict):
        return [f"{pattern}:{type_}" for pattern, type_ in
                zip(mapping, precision_names(mapping.values()))]
    return list(mapping)


def _ranges(ranges):
    """`{"x": (lo, hi)}` or ["x:[lo,hi]"] as prec's name:[lo,hi]."""
    if ranges is None:
        return []
    if isinstance(ranges, dict):
        return [f"{name}:[{lo},{hi}]" for name, (lo, hi) in ranges.items()]
    return list(ranges)


_CHOICES = {"typing": ("weak", "strong"),
            "constraints": ("obey", "prefer", "none"),
            "binding_layout": ("nchw", "nhwc")}


def _check_choices(**values):
    for option, value in values.items():
        if value not in _CHOICES[option]:
            raise Error(f"bad {option} '{value}' (one of "
                        f"{', '.join(_CHOICES[option])})")


def _batch_range(batch):
    """(min, opt, max) from a tuple or "MIN:OPT:MAX"."""
    if isinstance(batch, str):
        parts = batch.split(":")
    else:
        parts = list(batch)
    try:
        low, optimum, high = (int(part) for part in parts)
    except (TypeError, ValueError):
        raise Error(f"batch {batch!r} is not (min, opt, max)") from None
    return low, optimum, high


def _batch_text(batch):
    if batch is None:
        return None
    return ":".join(str(size) for size in _batch_range(batch))


class Program:
    """A model compiled with a precision policy: it runs on the CPU exactly
    as prec's engines compute, reports each op's precisions, and builds a
    CUDA engine."""

    def __init__(self, native_program, batch=None, batch_inputs=None):
        self._program = native_program
        self._batch = batch
        self._batch_inputs = list(batch_inputs or [])
        self.inputs = [Binding(n, t, tuple(s))
                       for n, t, s in native_program.inputs]
        self.outputs = [Binding(n, t, tuple(s))
                        for n, t, s in native_program.outputs]
        self.warnings = [Diagnostic(*d) for d in native_program.warnings]

    def run(self, *args, **arrays):
        """Runs on the CPU; inputs by name (or in order), as numpy arrays or
        anything numpy converts; returns the outputs by name."""
        if len(args) > len(self.inputs):
                    raise Error(f"{len(args)} inputs given; the program takes "
                        f"{len(self.inputs)}")
        named = {b.name: a for b, a in zip(self.inputs, args)}
        named.update(arrays)
        return self._program.run({name: to_numpy(value)
                                  for name, value in named.items()})

    def report(self) -> List[ReportRow]:
        """The precision of every op, in program order."""
        return [ReportRow(op["name"], op["op"], op["compute"],
                          op["accumulate"], op["storage"], op["reason"],
                          op.get("class", ""), op.get("location", ""),
                          op.get("casts_inserted", 0), op.get("detail", ""))
                for op in self.report_json()["ops"]]

    def report_json(self):
        """The report as prec-legalize's report= writes it."""
        return json.loads(self._program.report_json)

    def mlir(self):
        """The legalized module, as MLIR text with its locations."""
        return self._program.mlir()

    def build_engine(self, directory, name="engine", *, nvcc=None,
                     arch=None):
        """Emits the CUDA engine into `directory` and compiles it with nvcc
        (on PATH or in /usr/local/cuda/bin unless given); returns the
        library's path. Needs no GPU."""
        return self._program.build_engine(
            os.fspath(directory), name, _batch_text(self._batch),
            self._batch_inputs, nvcc or "", arch or "")

    def engine(self, directory=None, name="engine", *, cuda_graph=False,
               nvcc=None, arch=None):
        """The engine built and loaded, callable with torch CUDA tensors
        (prec.Engine); in a temporary directory unless one is given."""
        from .engine import Engine
        scratch = None
        if directory is None:
            scratch = tempfile.TemporaryDirectory(prefix="prec-engine-")
            directory = scratch.name
        library = self.build_engine(directory, name, nvcc=nvcc, arch=arch)
        engine = Engine(library, cuda_graph=cuda_graph)
        engine.directory = scratch  # removed with the engine
        return engine

    def module(self, directory=None, name="engine", **options):
        """The engine as a torch.nn.Module, like torch2trt's TRTModule."""
        from .engine import EngineModule
        return EngineModule(self.engine(directory, name, **options))


def compile(model, *, enabled_precisions=("f16",), typing="weak",
            constraints="prefer", layer_precisions=None,
            layer_output_types=None, plan=None, calibration=None,
            quantize_residuals=False, target="sm_90", input_shapes=None,
            batch=None, batch_inputs=None,
            val_ranges=None, io_types=None, binding_layout="nchw",
            example_inputs=None, input_names=None, output_names=None,
            opset=17) -> Program:
    """Compiles `model` (an ONNX or MLIR path, ONNX bytes, or a
    torch.nn.Module with example_inputs) with a precision policy, as
    prec-legalize's options name it:

    enabled_precisions: what the compiler may lower ops to ("f16", "bf16",
        "i8", "f8E4M3FN", or torch dtypes);
    typing: "weak" (the compiler chooses) or "strong" (ops keep the
        model's types); constraints: "obey", "prefer" or "none";
    layer_precisions, layer_output_types: {"pattern": precision};
    plan, calibration: a precision plan or calibration (prec.calibrate's,
        a path, JSON text or a dict);
    quantize_residuals: adds that i8/f8 products feed read their residual
        input in that type (TensorRT's Q/DQ placement for residual adds);
    target: "sm_90", "sm_80", ... or "cpu";
    input_shapes: {"input": (1, 3, 224, 224)} for dynamic ONNX inputs;
    batch: (min, opt, max) for the engine, the model being at max (a
        module's example_inputs are repeated along their first axis to
        max).

    Warnings of the policy become PrecisionWarnings; errors, prec.Error.
    """
    _check_choices(typing=typing, constraints=constraints,
                   binding_layout=binding_layout)
    if batch is not None and example_inputs is not None:
        example_inputs = at_batch(example_inputs, _batch_range(batch)[2])
    native_model = load_model(model, input_shapes=input_shapes,
                              example_inputs=example_inputs,
                              input_names=input_names,
                              output_names=output_names, opset=opset)
    native_program = native_model.legalize(
        enabled=precision_names(enabled_precisions), typing=typing,
        constraints=constraints, target=target or "",
        layer_precisions=_patterns(layer_precisions),
        layer_output_types=_patterns(layer_output_types),
        val_ranges=_ranges(val_ranges), io_types=_patterns(io_types),
        binding_layout=binding_layout, calibration=_text_of(calibration),
        plan=_text_of(plan), quantize_residuals=quantize_residuals)
    program = Program(native_program, batch, batch_inputs)
    for warning in program.warnings:
        warnings.warn(str(warning), PrecisionWarning, stacklevel=2)
    return program


def reference(model, *, input_shapes=None, example_inputs=None,
              input_names=None, output_names=None, opset=17) -> Program:
    """The model's f32 reference: its precision regions and requests
    dropped and every op computing in f32, what prec-run --reference f32
    and prec-debug compare with."""
    native_model = load_model(model, input_shapes=input_shapes,
                              example_inputs=example_inputs,
                              input_names=input_names,
                              output_names=output_names, opset=opset)
    return Program(native_model.reference())
