//===- PrecDebug.h - what prec-debug does -----------------------*- C++ -*-===//
//
// prec-debug's logic, reachable from tests: find the ops that must stay in
// a higher precision for a model to pass at a low one (Polygraphy's `debug
// precision`). The units searched are the model's eligible ops grouped by
// layer name, in program order; the starting point runs every unit at the
// low precision as an engine built at it does (a float low precision pins
// the compute and storage types; the accumulate type is what the model's
// regions ask, else prec's choice: f16 and bf16 contractions accumulate in
// f32), and marking a unit moves it to --precision (all three types). Each step
// is one run, on the CPU or through a CUDA engine (--device gpu), compared
// with the golden outputs; the answer is printed by
// name and location and written as a precision plan that prec-legalize
// reproduces.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DRIVERS_PRECDEBUG_H
#define PREC_DRIVERS_PRECDEBUG_H

#include "drivers/Device.h"
#include "drivers/PrecRun.h"
#include "drivers/PrecisionSearch.h"
#include "runtime/Compare.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace prec {

struct PrecDebugOptions {
  std::string modelPath;
  std::string functionName = "main";
  SearchMode mode = SearchMode::Bisect;
  SearchDirection direction = SearchDirection::Forward;
  /// The low precision (the first) and what else prec-legalize may use.
  std::vector<std::string> enabled = {"f16"};
  precision::ConstraintMode constraints = precision::ConstraintMode::Prefer;
  std::string target; // empty: the model's policy's
  std::string calibration;
  std::string precision = "f32"; // what marking moves a unit to
  InputOptions inputs;
  std::string golden;    // outputs to compare with, or
  std::string reference; // "f32" (the default when no golden is given)
  ToleranceOptions tolerances;
  std::string plan; // where to write the passing configuration
  /// Where to draw the model legalized with that configuration, coloured by
  /// the error each layer introduces (worst-first) and with the kept layers
  /// marked (passes/ReportGraph.h).
  std::string reportGraph;
  bool firstNonfinite = false;
  /// Evaluate through one program compiled with per-unit precision
  /// switches (drivers/SwitchablePrecision.h) where the low precision is a
  /// float one and the high f32; otherwise, or when false, legalize and
  /// compile every plan.
  bool compileOnce = true;
  /// Also compile every evaluated plan and require the switched program's
  /// outputs to equal its outputs bit for bit.
  bool verifyCompileOnce = false;
  /// Where the switched program (and the f32 reference it computes) runs:
  /// on the GPU, it is one CUDA engine with the mask as an input.
  DeviceOptions device;
};

/// What the search found, for callers that want it as data.
struct PrecDebugSummary {
  bool fixable = false; // whether some marking passes
  /// The units kept at the high precision: their layer names and ops.
  std::vector<std::string> keptLayers, keptOps;
  double error = 0; // of the configuration found (or the last tried)
  int evaluations = 0;
  std::string plan; // the passing configuration's plan (JSON)
  /// worst-first: each unit's layer and the error it introduces alone.
  std::vector<std::pair<std::string, double>> introduced;
};

/// Runs prec-debug; prints steps and results to `out`, errors to `err`;
/// returns 0 when a passing configuration was found (or none is needed),
/// 1 when no marking makes the model pass, 2 on bad usage or input.
/// `summary`, when given, receives the result.
int runPrecDebug(const PrecDebugOptions &options,
                 const mlir::DialectRegistry &registry, llvm::raw_ostream &out,
                 llvm::raw_ostream &err, PrecDebugSummary *summary = nullptr);

} // namespace prec

#endif // PREC_DRIVERS_PRECDEBUG_H
