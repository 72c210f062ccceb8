//===- TrtCache.h - TensorRT calibration caches -----------------*- C++ -*-===//
//
// TensorRT's calibration cache is text: a header `TRT-<version>-<Algo>`
// and one `<tensor>: <scale>` line per tensor, the scale (amax / 127) as the
// hexadecimal bits of an IEEE f32. prec writes it so that TensorRT can reuse
// a prec calibration, and reads it so that existing caches can be reused.
// Algorithms: MinMaxCalibration, EntropyCalibration2 (EntropyCalibration
// is read as entropy too), and for prec's percentile calibrator
// PercentileCalibration (TensorRT's LegacyCalibration is read as it).
//
//===----------------------------------------------------------------------===//

#ifndef PREC_FORMATS_TRTCACHE_H
#define PREC_FORMATS_TRTCACHE_H

#include "formats/CalibrationFile.h"

#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace prec {

struct TrtCache {
  std::string version; // "8601"
  CalibrationAlgorithm algorithm = CalibrationAlgorithm::Entropy;
  std::vector<std::pair<std::string, float>> scales;
};

/// The version prec writes in headers: TensorRT 8.6.1's.
constexpr llvm::StringLiteral kTrtCacheVersion = "8601";

/// Parses a cache; errors give the line.
llvm::Expected<TrtCache> parseTrtCache(llvm::StringRef text);
std::string serializeTrtCache(const TrtCache &cache);

/// The cache of a calibration: scale = amax / 127 per tensor. An error
/// names a tensor whose name a cache line cannot hold.
llvm::Expected<TrtCache> makeTrtCache(const CalibrationFile &calibration);

} // namespace prec

#endif // PREC_FORMATS_TRTCACHE_H
