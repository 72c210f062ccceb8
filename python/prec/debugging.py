"""prec.debug_precision and prec.compare: Polygraphy's `debug precision`
and `run --compare`."""
import json
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from ._native import native
from .arrays import to_numpy
from .compiler import _ranges, _text_of
from .errors import Error
from .models import load_model
from .precisions import precision_name, precision_names


@dataclass(frozen=True)
class KeptLayer:
    name: str  # the layer (op location name) kept at the high precision
    op: str


@dataclass
class DebugResult:
    """What the search found: `passed` when some marking passes; `kept`
    the layers to keep at the high precision; `plan` the precision plan
    that reproduces it (give it to prec.compile(plan=...))."""
    passed: bool
    kept: List[KeptLayer]
    plan: Optional[dict]
    error: float
    evaluations: int
    introduced: Dict[str, float] = field(default_factory=dict)
    log: str = ""


@dataclass(frozen=True)
class ComparisonStats:
    """Errors of one output against its reference, as `polygraphy run`
    reports them."""
    passed: bool
    max_absolute: float
    mean_absolute: float
    median_absolute: float
    max_relative: float
    mean_relative: float
    median_relative: float
    worst_index: tuple
    worst_actual: float
    worst_expected: float
    actual_nans: int
    actual_infs: int
    expected_nans: int
    expected_infs: int
    failing_elements: int


def _tolerances(value):
    """A tolerance, or {"output": tolerance}, as prec-debug's --atol."""
    if isinstance(value, dict):
        return [f"{name}:{tolerance}" for name, tolerance in value.items()]
    return [str(value)]


def _arrays(arrays):
    if arrays is None:
        return None
    return {name: to_numpy(value) for name, value in arrays.items()}


def debug_precision(model, inputs=None, *, mode="delta",
                    enabled_precisions=("f16",), precision="f32",
                    golden=None, atol=1e-5, rtol=1e-5,
                    check_error_stat="elemwise", error_quantile=0.99,
                    direction="forward", constraints="prefer", target="",
                    calibration=None, val_ranges=None, seed=1,
                    report_graph=None, first_nonfinite=False,
                    compile_once=True, verify_compile_once=False,
                    input_shapes=None, example_inputs=None) -> DebugResult:
    """Finds the layers that must stay at `precision` for `model` to pass
    at the first of enabled_precisions, compared with `golden` outputs (a
    dict by name) or else the f32 run. mode: "bisect", "linear",
    "worst-first" or "delta"; inputs: a dict of arrays by name (else
    generated in val_ranges from `seed`). Evaluations run one program
    compiled once (compile_once; verify_compile_once also compiles every
    plan and requires equal outputs)."""
    native_model = (model._program.model if hasattr(model, "_program")
                    else load_model(model, input_shapes=input_shapes,
                                    example_inputs=example_inputs))
    options = {
        "mode": mode, "direction": direction,
        "enabled": precision_names(enabled_precisions),
        "constraints": constraints, "target": target or "",
        "precision": precision_name(precision),
        "calibration": _text_of(calibration),
        "val_ranges": _ranges(val_ranges), "seed": int(seed),
        "atol": _tolerances(atol), "rtol": _tolerances(rtol),
        "check_error_stat": check_error_stat,
        "error_quantile": float(error_quantile),
        "report_graph": str(report_graph or ""),
        "first_nonfinite": bool(first_nonfinite),
        "compile_once": bool(compile_once),
        "verify_compile_once": bool(verify_compile_once),
    }
    found = native().debug_precision(native_model, options, _arrays(inputs),
                                     _arrays(golden))
    return DebugResult(
        passed=found["passed"],
        kept=[KeptLayer(n, o) for n, o in zip(found["kept_layers"],
                                              found["kept_ops"])],
        plan=json.loads(found["plan"]) if found["plan"] else None,
        error=found["error"], evaluations=found["evaluations"],
        introduced=dict(found["introduced"]), log=found["log"])


def compare(actual, expected, *, atol=1e-5, rtol=1e-5,
            check_error_stat="elemwise", error_quantile=0.99,
            infinities_compare_equal=False):
    """Compares outputs with their references: two arrays give one
    ComparisonStats; two dicts by output name give one per name in
    `expected`. An element passes within atol or rtol (elemwise), or the
    statistic check_error_stat ("max", "mean", "median", "quantile") of
    the errors does."""
    options = {"atol": float(atol), "rtol": float(rtol),
               "check_error_stat": check_error_stat,
               "error_quantile": float(error_quantile),
               "infinities_compare_equal": bool(infinities_compare_equal)}

    def one(a, e):
        stats = native().compare(to_numpy(a), to_numpy(e), options)
        stats["worst_index"] = tuple(stats["worst_index"])
        return ComparisonStats(**stats)

    if isinstance(expected, dict):
        missing = [name for name in expected if name not in actual]
        if missing:
            raise Error(f"no actual output for {', '.join(missing)}")
        return {name: one(actual[name], value)
                for name, value in expected.items()}
    return one(actual, expected)
