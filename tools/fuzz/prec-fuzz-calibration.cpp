//===- prec-fuzz-calibration.cpp - calibration JSON -----------------------===//
//
// What `prec-legalize="calibration=FILE"` does with a calibration: the JSON
// is parsed; an accepted one must write out and read back to the same text,
// make a TensorRT cache that reads back (unless its names cannot be cache
// lines, which is an error), and is checked against and applied
// to the INT8 MLP example (which a fuzzed file rarely fits, so seeds
// calibrated for it keep that path reachable).
//
//===----------------------------------------------------------------------===//

#include "tools/fuzz/FuzzSupport.h"

#include "formats/TrtCache.h"
#include "passes/Calibration.h"
#include "passes/Passes.h"

using namespace prec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const fuzz::ExampleModel example("examples/mlp_int8.mlir");
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<CalibrationFile> calibration = parseCalibration(text);
  fuzz::consume(calibration);
  if (!calibration)
    return 0;

  std::string written = serializeCalibration(*calibration);
  llvm::Expected<CalibrationFile> again = parseCalibration(written);
  fuzz::require(static_cast<bool>(again),
                "a written calibration does not read back");
  fuzz::require(serializeCalibration(*again) == written,
                "a written calibration reads back different");
  llvm::Expected<TrtCache> cache = makeTrtCache(*calibration);
  fuzz::consume(cache);
  if (cache) {
    llvm::Expected<TrtCache> read = parseTrtCache(serializeTrtCache(*cache));
    fuzz::require(static_cast<bool>(read),
                  "the TensorRT cache of a calibration does not read back");
  }

  if (llvm::Error misfit =
          checkCalibrationFits(*calibration, *example.module, "fuzz.json")) {
    fuzz::consume(std::move(misfit));
    return 0;
  }
  LegalizePipelineOptions options;
  options.calibration = fuzz::writeScratchFile(text, ".calibration.json");
  fuzz::legalizeCopy(example, options);
  return 0;
}
