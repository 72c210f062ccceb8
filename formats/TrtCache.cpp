//===- TrtCache.cpp - TensorRT calibration caches -------------------------===//

#include "formats/TrtCache.h"

#include "support/Errors.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

namespace prec {
namespace {

llvm::StringRef getTrtAlgorithmName(CalibrationAlgorithm algorithm) {
  switch (algorithm) {
  case CalibrationAlgorithm::MinMax:
    return "MinMaxCalibration";
  case CalibrationAlgorithm::Entropy:
    return "EntropyCalibration2";
  case CalibrationAlgorithm::Percentile:
    return "PercentileCalibration";
  }
  return "";
}

} // namespace

llvm::Expected<TrtCache> parseTrtCache(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  auto fail = [](size_t line, const llvm::Twine &message) {
    return makeError("line " + llvm::Twine(line) + ": " + message);
  };
  llvm::StringRef header = lines.empty() ? "" : lines.front().trim();
  if (!header.consume_front("TRT-"))
    return fail(1, "a TensorRT calibration cache starts with "
                   "'TRT-<version>-<algorithm>', not '" +
                       header + "'");
  auto [version, algorithmName] = header.split('-');
  if (version.empty() ||
      !llvm::all_of(version, [](char c) { return llvm::isDigit(c); }))
    return fail(1, "bad TensorRT version '" + version + "'");
  std::optional<CalibrationAlgorithm> algorithm =
      llvm::StringSwitch<std::optional<CalibrationAlgorithm>>(algorithmName)
          .Case("MinMaxCalibration", CalibrationAlgorithm::MinMax)
          .Cases({"EntropyCalibration2", "EntropyCalibration"},
                 CalibrationAlgorithm::Entropy)
          .Cases({"PercentileCalibration", "LegacyCalibration"},
                 CalibrationAlgorithm::Percentile)
          .Default(std::nullopt);
  if (!algorithm)
    return fail(1, "unknown calibration algorithm '" + algorithmName +
                       "' (MinMaxCalibration, EntropyCalibration2, "
                       "EntropyCalibration, PercentileCalibration, "
                       "LegacyCalibration)");
  TrtCache cache;
  cache.version = version.str();
  cache.algorithm = *algorithm;
  for (size_t index = 1; index < lines.size(); ++index) {
    llvm::StringRef line = lines[index].trim();
    if (line.empty())
      continue;
    // Tensor names may hold ':'; the scale follows the last one.
    auto [name, hex] = line.rsplit(':');
    name = name.trim();
    hex = hex.trim();
    uint32_t bits = 0;
    if (name.empty() || hex.size() != 8 || hex.getAsInteger(16, bits))
      return fail(index + 1,
                  "expected '<tensor>: <8 hex digits>', got '" + line + "'");
    float scale;
    std::memcpy(&scale, &bits, sizeof(scale));
    if (!std::isfinite(scale) || scale < 0)
      return fail(index + 1,
                  "the scale of '" + name + "' is not a finite number >= 0");
    cache.scales.emplace_back(name.str(), scale);
  }
  return cache;
}

std::string serializeTrtCache(const TrtCache &cache) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "TRT-" << cache.version << "-" << getTrtAlgorithmName(cache.algorithm)
     << "\n";
  for (const auto &[name, scale] : cache.scales) {
    uint32_t bits;
    std::memcpy(&bits, &scale, sizeof(bits));
    os << name << ": " << llvm::format_hex_no_prefix(bits, 8) << "\n";
  }
  return text;
}

llvm::Expected<TrtCache> makeTrtCache(const CalibrationFile &calibration) {
  TrtCache cache;
  cache.version = kTrtCacheVersion.str();
  cache.algorithm = calibration.algorithm;
  for (const auto &[name, tensor] : calibration.tensors) {
    llvm::StringRef text(name);
    if (text.empty() || text.trim() != text || text.contains('\n'))
      return makeError("tensor name '" + name +
                       "' cannot be written in a TensorRT cache, whose "
                       "lines are '<name>: <scale>': it is empty, starts or "
                       "ends with a space, or holds a line break");
    cache.scales.emplace_back(name, float(tensor.amax / 127.0));
  }
  return cache;
}

} // namespace prec
