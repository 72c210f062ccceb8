"""prec.calibrate: INT8/FP8 ranges from data, as TensorRT's calibrators
choose them."""
import json
from dataclasses import dataclass
from typing import Dict, Optional

from .arrays import to_numpy
from .errors import Error
from .models import load_model


@dataclass(frozen=True)
class TensorRange:
    amax: float  # the symmetric range the tensor is quantized with
    min: Optional[float]
    max: Optional[float]


class Calibration:
    """A calibration as prec-calibrate writes it; give it to
    prec.compile(calibration=...) or save it for prec-build."""

    def __init__(self, text, summary=""):
        self._text = text
        self.summary = summary  # what the calibration run printed
        document = json.loads(text)
        self.algorithm = document["algorithm"]["name"]
        self.samples = document.get("data", {}).get("samples", 0)
        self.batch_size = document.get("data", {}).get("batch_size", 0)
        self.tensors: Dict[str, TensorRange] = {
            name: TensorRange(t["amax"], t.get("min"), t.get("max"))
            for name, t in document["tensors"].items()}

    @classmethod
    def load(cls, path):
        with open(path) as file:
            return cls(file.read())

    def save(self, path):
        with open(path, "w") as file:
            file.write(self._text)

    def to_json(self):
        return self._text


def _as_named(batch, names, index):
    """One batch of the data as arrays by input name."""
    if isinstance(batch, dict):
        return {name: to_numpy(value) for name, value in batch.items()}
    if isinstance(batch, (tuple, list)):
        if len(batch) != len(names):
            raise Error(f"batch {index} holds {len(batch)} arrays, but the "
                        f"model has {len(names)} inputs ({', '.join(names)});"
                        " give dicts by input name to leave others out")
        return {name: to_numpy(value) for name, value in zip(names, batch)}
    if len(names) != 1:
        raise Error(f"batch {index} is one array, but the model has "
                    f"{len(names)} inputs ({', '.join(names)})")
    return {names[0]: to_numpy(batch)}


def calibrate(model, data, *, algorithm="entropy", batch_size=None,
              percentile=99.99, input_shapes=None, example_inputs=None):
    """Calibrates `model` (a prec.Program, or what prec.compile takes) on
    `data`: any iterable of batches, each a dict of arrays by input name
    (numpy or torch), a tuple in input order, or one array for a one-input
    model; so a DataLoader works. Arrays hold N samples along their first
    axis (or one sample). algorithm: "entropy" (TensorRT's default),
    "minmax" or "percentile". The batches are held in memory while
    calibrating. Returns a Calibration."""
    native_model = (model._program.model if hasattr(model, "_program")
                    else load_model(model, input_shapes=input_shapes,
                                    example_inputs=example_inputs))
    names = native_model.input_names()
    batches = [_as_named(batch, names, index)
               for index, batch in enumerate(data)]
    text, summary = native_model.calibrate(
        batches, algorithm, float(percentile), int(batch_size or 0))
    return Calibration(text, summary)
