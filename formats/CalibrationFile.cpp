//===- CalibrationFile.cpp - prec's calibration files ---------------------===//

#include "formats/CalibrationFile.h"

#include "support/Errors.h"
#include "support/JSONDocument.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

namespace prec {

using llvm::StringRef;

std::optional<CalibrationAlgorithm>
parseCalibrationAlgorithm(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<CalibrationAlgorithm>>(name)
      .Case("minmax", CalibrationAlgorithm::MinMax)
      .Case("entropy", CalibrationAlgorithm::Entropy)
      .Case("percentile", CalibrationAlgorithm::Percentile)
      .Default(std::nullopt);
}

llvm::StringRef getCalibrationAlgorithmName(CalibrationAlgorithm algorithm) {
  switch (algorithm) {
  case CalibrationAlgorithm::MinMax:
    return "minmax";
  case CalibrationAlgorithm::Entropy:
    return "entropy";
  case CalibrationAlgorithm::Percentile:
    return "percentile";
  }
  return "";
}

// The schema as llvm::json mappers: a value that does not fit reports what
// it must be, and the error names its path (`tensors.x.amax`).

/// A finite number; JSON writes -0.0 as "-0", which reads back as the
/// integer 0, and ranges have no use for the sign of zero: every zero is +0.
static bool mapFinite(const llvm::json::Value &value, double &out,
                      llvm::json::Path path) {
  std::optional<double> number = value.getAsNumber();
  if (!number || !std::isfinite(*number)) {
    path.report("must be a finite number");
    return false;
  }
  out = *number + 0.0;
  return true;
}

bool fromJSON(const llvm::json::Value &value, ModelFingerprint &model,
              llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  return mapper && mapper.map("function", model.function) &&
         mapper.map("fingerprint", model.hash) &&
         mapper.map("inputs", model.inputs);
}

bool fromJSON(const llvm::json::Value &value, TensorCalibration &tensor,
              llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  if (!mapper)
    return false;
  const llvm::json::Object &object = *value.getAsObject();
  // amax bounds f32 tensors, and its scale (amax / 127) is an f32.
  std::optional<double> amax = object.getNumber("amax");
  if (!amax || !(*amax >= 0 && *amax <= std::numeric_limits<float>::max())) {
    path.field("amax").report("must be a number in [0, 3.402823e+38] (an f32)");
    return false;
  }
  tensor.amax = *amax + 0.0;
  // The observed extremes are optional, but finite numbers when given.
  for (auto [field, bound] :
       {std::pair("min", &tensor.min), std::pair("max", &tensor.max)}) {
    if (const llvm::json::Value *given = object.get(field)) {
      if (!mapFinite(*given, bound->emplace(), path.field(field)))
        return false;
    }
  }
  return true;
}

bool fromJSON(const llvm::json::Value &value, ObservedRange &range,
              llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  if (!mapper)
    return false;
  const llvm::json::Object &object = *value.getAsObject();
  for (auto [field, bound] :
       {std::pair("min", &range.min), std::pair("max", &range.max)}) {
    const llvm::json::Value *given = object.get(field);
    if (!given) {
      path.field(field).report("missing value");
      return false;
    }
    if (!mapFinite(*given, *bound, path.field(field)))
      return false;
  }
  if (range.min > range.max) {
    path.report("must have 'min' <= 'max'");
    return false;
  }
  return true;
}

/// The algorithm's name and, for percentile, the percentile.
static bool mapAlgorithm(const llvm::json::Value &value,
                         CalibrationFile &calibration, llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  std::string name;
  if (!mapper || !mapper.map("name", name))
    return false;
  std::optional<CalibrationAlgorithm> algorithm =
      parseCalibrationAlgorithm(name);
  if (!algorithm) {
    path.field("name").report("must be minmax, entropy or percentile");
    return false;
  }
  calibration.algorithm = *algorithm;
  if (*algorithm != CalibrationAlgorithm::Percentile)
    return true;
  std::optional<double> percentile =
      value.getAsObject()->getNumber("percentile");
  if (!percentile || !(*percentile > 0 && *percentile <= 100)) {
    path.field("percentile").report("must be a number in (0, 100]");
    return false;
  }
  calibration.percentile = *percentile;
  return true;
}

static bool mapData(const llvm::json::Value &value,
                    CalibrationFile &calibration, llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  return mapper && mapper.mapOptional("source", calibration.source) &&
         mapper.mapOptional("samples", calibration.samples) &&
         mapper.mapOptional("batch_size", calibration.batchSize);
}

bool fromJSON(const llvm::json::Value &value, CalibrationFile &calibration,
              llvm::json::Path path) {
  llvm::json::ObjectMapper mapper(value, path);
  if (!mapper)
    return false;
  const llvm::json::Object &root = *value.getAsObject();
  if (root.getString("format") != "prec-calibration") {
    path.field("format").report("must be \"prec-calibration\"");
    return false;
  }
  if (root.getInteger("version") != 1) {
    path.field("version").report("must be 1");
    return false;
  }
  const llvm::json::Value *algorithm = root.get("algorithm");
  if (!algorithm) {
    path.field("algorithm").report("missing value");
    return false;
  }
  const llvm::json::Value *data = root.get("data");
  return mapper.map("model", calibration.model) &&
         mapAlgorithm(*algorithm, calibration, path.field("algorithm")) &&
         (!data || mapData(*data, calibration, path.field("data"))) &&
         mapper.map("tensors", calibration.tensors) &&
         mapper.mapOptional("observed", calibration.observed);
}

llvm::Expected<CalibrationFile> parseCalibration(StringRef text) {
  llvm::Expected<llvm::json::Value> document = parseJSONDocument(text);
  if (!document)
    return document.takeError();
  CalibrationFile calibration;
  llvm::json::Path::Root root("calibration");
  if (!fromJSON(*document, calibration, root))
    return root.getError();
  return calibration;
}

llvm::Expected<CalibrationFile> loadCalibrationFile(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError("cannot read calibration '" + path +
                     "': " + buffer.getError().message());
  llvm::Expected<CalibrationFile> calibration =
      parseCalibration((*buffer)->getBuffer());
  if (!calibration)
    return makeError("calibration '" + path +
                     "': " + llvm::toString(calibration.takeError()));
  return calibration;
}

std::string serializeCalibration(const CalibrationFile &calibration) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("format", "prec-calibration");
    json.attribute("version", 1);
    json.attributeObject("model", [&] {
      json.attribute("function", calibration.model.function);
      json.attribute("fingerprint", calibration.model.hash);
      json.attributeArray("inputs", [&] {
        for (const std::string &input : calibration.model.inputs)
          json.value(input);
      });
    });
    json.attributeObject("algorithm", [&] {
      json.attribute("name",
                     getCalibrationAlgorithmName(calibration.algorithm));
      if (calibration.algorithm == CalibrationAlgorithm::Percentile)
        json.attribute("percentile", calibration.percentile);
    });
    json.attributeObject("data", [&] {
      json.attribute("source", calibration.source);
      json.attribute("samples", calibration.samples);
      json.attribute("batch_size", calibration.batchSize);
    });
    json.attributeObject("tensors", [&] {
      for (const auto &[name, calibrated] : calibration.tensors)
        json.attributeObject(name, [&, &tensor = calibrated] {
          json.attribute("amax", tensor.amax);
          if (tensor.min)
            json.attribute("min", *tensor.min);
          if (tensor.max)
            json.attribute("max", *tensor.max);
        });
    });
    if (!calibration.observed.empty())
      json.attributeObject("observed", [&] {
        for (const auto &[name, range] : calibration.observed)
          json.attributeObject(name, [&, &observed = range] {
            json.attribute("min", observed.min);
            json.attribute("max", observed.max);
          });
      });
  });
  os << "\n";
  return text;
}

llvm::Error writeCalibrationFile(StringRef path,
                                 const CalibrationFile &calibration) {
  std::error_code error;
  llvm::raw_fd_ostream out(path, error);
  if (error)
    return makeError("cannot write '" + path + "': " + error.message());
  out << serializeCalibration(calibration);
  return llvm::Error::success();
}

} // namespace prec
