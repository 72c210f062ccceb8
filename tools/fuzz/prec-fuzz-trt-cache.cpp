//===- prec-fuzz-trt-cache.cpp - TensorRT calibration caches --------------===//
//
// What `prec-calibrate --load-trt-cache FILE` does with a cache: it is
// parsed (an accepted cache must write out and read back with the same
// scales, bit for bit) and converted into a calibration of the INT8 MLP
// example.
//
//===----------------------------------------------------------------------===//

#include "tools/fuzz/FuzzSupport.h"

#include "drivers/PrecCalibrate.h"
#include "formats/TrtCache.h"

#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace prec;

namespace {
bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof(a)) == 0; }
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<TrtCache> cache = parseTrtCache(text);
  fuzz::consume(cache);
  if (!cache)
    return 0;
  llvm::Expected<TrtCache> again = parseTrtCache(serializeTrtCache(*cache));
  fuzz::require(static_cast<bool>(again), "a written cache does not read back");
  fuzz::require(again->algorithm == cache->algorithm &&
                    again->scales.size() == cache->scales.size(),
                "a written cache reads back different");
  for (size_t i = 0; i < cache->scales.size(); ++i)
    fuzz::require(
        again->scales[i].first == cache->scales[i].first &&
            sameBits(again->scales[i].second, cache->scales[i].second),
        "a written cache reads back different scales");

  PrecCalibrateOptions options;
  options.modelPath = PREC_SOURCE_DIR "/examples/mlp_int8.mlir";
  options.loadTrtCache = fuzz::writeScratchFile(text, ".cache");
  options.output = fuzz::writeScratchFile("", ".calibration.json");
  options.progress = false;
  std::string out, err;
  llvm::raw_string_ostream outStream(out), errStream(err);
  runPrecCalibrate(options, fuzz::getRegistry(), outStream, errStream);
  return 0;
}
