//===- PrecCalibrate.h - what prec-calibrate does ---------------*- C++ -*-===//
//
// prec-calibrate's logic, reachable from tests: run the model in f32 on
// calibration data, batch by batch, observing the tensors that i8 and f8
// ops may read; choose their ranges with minmax, entropy or percentile;
// write the calibration JSON and, on request, a TensorRT cache. Or turn an
// existing TensorRT cache into a calibration of the model.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DRIVERS_PRECCALIBRATE_H
#define PREC_DRIVERS_PRECCALIBRATE_H

#include "drivers/CalibrationData.h"
#include "drivers/Device.h"
#include "formats/CalibrationFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace prec {

struct PrecCalibrateOptions {
  std::string modelPath;
  std::string functionName = "main";
  std::string data; // a directory, an .npz or an .npy
  std::vector<std::string> valRanges;
  int64_t samples = 0; // with valRanges
  uint64_t seed = 1;
  int64_t batchSize = 0; // 0: the model's batch
  /// "minmax", "entropy" or "percentile"; unset: entropy, or a loaded
  /// cache's algorithm.
  std::optional<CalibrationAlgorithm> algorithm;
  double percentile = 99.99;
  std::string output;       // the calibration JSON
  std::string trtCache;     // a TensorRT cache to write
  std::string loadTrtCache; // a TensorRT cache to read
  /// Draw a progress bar; unset: when `err` is a terminal.
  std::optional<bool> progress;
  /// Where the instrumented f32 model runs: the CPU JIT, or a CUDA engine
  /// built for `target` (default: the model's, else sm_90).
  DeviceOptions device;
  std::string target;
};

/// Opens the samples to calibrate on, given the model's inputs.
using CalibrationSource =
    std::function<llvm::Expected<std::unique_ptr<CalibrationData>>(
        llvm::ArrayRef<Binding> inputs)>;

/// Calibrates `options.functionName` of `model` on the samples of `source`
/// with options' algorithm (entropy by default), percentile and batch size;
/// `sourceName` is recorded as where the data came from. A summary goes to
/// `out`, warnings and the progress bar to `err`.
llvm::Expected<CalibrationFile>
calibrateModel(mlir::ModuleOp model, const PrecCalibrateOptions &options,
               const CalibrationSource &source, llvm::StringRef sourceName,
               llvm::raw_ostream &out, llvm::raw_ostream &err);

/// Runs prec-calibrate; prints results to `out` and errors to `err`;
/// returns 0 on success and 2 on bad usage or input.
int runPrecCalibrate(const PrecCalibrateOptions &options,
                     const mlir::DialectRegistry &registry,
                     llvm::raw_ostream &out, llvm::raw_ostream &err);

} // namespace prec

#endif // PREC_DRIVERS_PRECCALIBRATE_H
