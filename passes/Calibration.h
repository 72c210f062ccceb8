//===- Calibration.h - calibration files ------------------------*- C++ -*-===//
//
// A calibration records, for each tensor an i8 or f8 op may read, the
// symmetric range (amax) to quantize it with, and what it was made from:
// the model's fingerprint and the algorithm. prec-calibrate writes it;
// `prec-legalize calibration=` reads it and refuses one made for another
// model. Schema (version 1):
//
//   {
//     "format": "prec-calibration", "version": 1,
//     "model": {"function": "main",
//               "fingerprint": "<sha256 of the graph, precision choices
//                               and names left out>",
//               "inputs": ["x: 1x3x32x32xf32"]},
//     "algorithm": {"name": "entropy" | "minmax" | "percentile",
//                   "percentile": 99.99},          // percentile only
//     "data": {"source": "calib.npz", "samples": 512, "batch_size": 32},
//     "tensors": {"x": {"amax": 2.5, "min": -2.4, "max": 2.5}, ...},
//     "observed": {"h": {"min": -3.1, "max": 70000.0}, ...}   // optional
//   }
//
// `observed` holds the extremes the data reached in every float op's
// result, for the range analysis (see RangeAnalysis.h) rather than for
// quantization.
//
// Tensors are named as users know them: a binding by its name, an op's
// result by its source tensor name (`precision.tensor`, which the ONNX
// importer records) or else by the op's layer name (`name:N` for result N > 0
// of an op with several), an unnamed op's result as `<op name>_<k>` (the k-th
// such op of the function); a precision.region's arguments and results by the
// tensors they stand for.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_CALIBRATION_H
#define PREC_PASSES_CALIBRATION_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Value.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace prec {

enum class CalibrationAlgorithm { MinMax, Entropy, Percentile };

std::optional<CalibrationAlgorithm>
parseCalibrationAlgorithm(llvm::StringRef name);
llvm::StringRef getCalibrationAlgorithmName(CalibrationAlgorithm algorithm);

/// What identifies the model a calibration belongs to.
struct ModelFingerprint {
  std::string function;
  std::string hash;
  std::vector<std::string> inputs; // "name: 1x3x32x32xf32"

  bool operator==(const ModelFingerprint &other) const {
    return function == other.function && hash == other.hash &&
           inputs == other.inputs;
  }
};

struct TensorCalibration {
  double amax = 0;
  /// What the data showed; a TensorRT cache has only the scale.
  std::optional<double> min, max;
};

/// The extremes the calibration data reached in one tensor.
struct ObservedRange {
  double min = 0, max = 0;
};

struct CalibrationFile {
  ModelFingerprint model;
  CalibrationAlgorithm algorithm = CalibrationAlgorithm::Entropy;
  double percentile = 99.99; // percentile only
  std::string source;
  int64_t samples = 0;
  int64_t batchSize = 0;
  std::map<std::string, TensorCalibration> tensors;
  std::map<std::string, ObservedRange> observed;
};

/// The fingerprint of `function` in `module`: a SHA-256 of the module's
/// ops, types and constants with precision.region bodies inlined and every
/// precision attribute and location left out, so that pinning precisions
/// keeps a calibration valid but changing a weight or an op does not.
llvm::Expected<ModelFingerprint>
computeModelFingerprint(mlir::ModuleOp module, llvm::StringRef function);

/// The name `value` is calibrated under (see the file comment).
std::string getTensorName(mlir::Value value);

/// The value whose range an op prec-quantize may quantize (a matmul or a
/// convolution) needs: its input, followed through precision.region
/// boundaries and through transposes, reshapes and slices, whose values
/// lie in their source's range.
mlir::Value getCalibratedInput(mlir::Operation *op);

/// The tensors a calibration of `function` covers: the calibrated inputs of
/// its matmuls and convolutions, each once, in program order.
std::vector<std::pair<std::string, mlir::Value>>
collectCalibratedTensors(mlir::Operation *function);

/// The float results of `function`'s ops in program order, with unique
/// names (`name#k` for the k-th later op of a name): what prec-calibrate
/// observes the range of.
std::vector<std::pair<std::string, mlir::Value>>
collectObservedTensors(mlir::Operation *function);

/// Checks that `calibration` was made for `module`: an error names what
/// differs (the function, an input, a tensor, or the graph itself).
llvm::Error checkCalibrationFits(const CalibrationFile &calibration,
                                 mlir::ModuleOp module, llvm::StringRef path);

llvm::Expected<CalibrationFile> parseCalibration(llvm::StringRef text);
/// Reads the file at `path`; errors name the file.
llvm::Expected<CalibrationFile> loadCalibrationFile(llvm::StringRef path);
std::string serializeCalibration(const CalibrationFile &calibration);
llvm::Error writeCalibrationFile(llvm::StringRef path,
                                 const CalibrationFile &calibration);

} // namespace prec

#endif // PREC_PASSES_CALIBRATION_H
