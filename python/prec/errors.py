"""prec's exceptions: every failure of the compiler or of an engine is a
prec.Error carrying prec's diagnostics."""
from typing import NamedTuple


class Diagnostic(NamedTuple):
    """One diagnostic of the compiler: where (the ONNX node's name, or
    file:line:col), how severe ("error", "warning", "note"), and what."""
    location: str
    severity: str
    message: str

    def __str__(self):
        return f"{self.location}: {self.severity}: {self.message}"


class Error(Exception):
    """A model, option or input prec cannot take, or a step that failed.
    `diagnostics` lists what the compiler said, with locations."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = [Diagnostic(*d) for d in diagnostics]


class EngineError(Error):
    """A CUDA engine's create, run or set_batch returned `status`."""

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


class PrecisionWarning(UserWarning):
    """The compiler's warnings: a pinned precision the target cannot honour
    (constraints="prefer"), or a range that overflows."""
