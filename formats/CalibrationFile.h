//===- CalibrationFile.h - calibration files --------------------*- C++ -*-===//
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
//===----------------------------------------------------------------------===//

#ifndef PREC_FORMATS_CALIBRATIONFILE_H
#define PREC_FORMATS_CALIBRATIONFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace prec {

enum class CalibrationAlgorithm { MinMax, Entropy, Percentile };

std::optional<CalibrationAlgorithm>
parseCalibrationAlgorithm(llvm::StringRef name);
llvm::StringRef getCalibrationAlgorithmName(CalibrationAlgorithm algorithm);

/// The cl::values of the tools' options that choose an algorithm.
#define PREC_CALIBRATION_ALGORITHM_VALUES                                      \
  ::llvm::cl::values(                                                          \
      clEnumValN(::prec::CalibrationAlgorithm::MinMax, "minmax",               \
                 "the largest |x| seen"),                                      \
      clEnumValN(::prec::CalibrationAlgorithm::Entropy, "entropy",             \
                 "the least KL divergence, as TensorRT (default)"),            \
      clEnumValN(::prec::CalibrationAlgorithm::Percentile, "percentile",       \
                 "a percentile of |x| (--percentile, default 99.99)"))

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

llvm::Expected<CalibrationFile> parseCalibration(llvm::StringRef text);
/// Reads the file at `path`; errors name the file.
llvm::Expected<CalibrationFile> loadCalibrationFile(llvm::StringRef path);
std::string serializeCalibration(const CalibrationFile &calibration);
llvm::Error writeCalibrationFile(llvm::StringRef path,
                                 const CalibrationFile &calibration);

} // namespace prec

#endif // PREC_FORMATS_CALIBRATIONFILE_H
