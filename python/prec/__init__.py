"""prec from Python: compile a model with a precision policy, run it on the
CPU exactly as the engine computes, read its precision report, calibrate
INT8/FP8, search for the layers that break accuracy, and build and call CUDA
engines.

    import prec
    program = prec.compile("model.onnx", enabled_precisions=("f16",))
    outputs = program.run(x=x)
    for row in program.report(): ...
    engine = program.engine()      # on a GPU machine, with torch
"""
from .calibration import Calibration, TensorRange, calibrate
from .compiler import Binding, Program, ReportRow, compile, reference
from .debugging import (ComparisonStats, DebugResult, KeptLayer, compare,
                        debug_precision)
from .errors import Diagnostic, EngineError, Error, PrecisionWarning

__all__ = ["Binding", "Calibration", "ComparisonStats", "DebugResult",
           "Diagnostic", "Engine", "EngineError", "EngineModule", "Error",
           "KeptLayer", "PrecisionWarning", "Program", "ReportRow",
           "TensorRange", "calibrate", "compare", "compile",
           "debug_precision", "reference"]


def __getattr__(name):
    # The engine runtime needs torch: imported when first asked for.
    if name in ("Engine", "EngineModule"):
        from . import engine
        return getattr(engine, name)
    raise AttributeError(f"module 'prec' has no attribute '{name}'")
