//===- CalibrationFile.cpp - prec's calibration files ---------------------===//

#include "formats/CalibrationFile.h"

#include "support/NestingDepth.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

namespace prec {

using llvm::StringRef;

static llvm::Error makeCalibrationError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

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

llvm::Expected<CalibrationFile> parseCalibration(StringRef text) {
  if (llvm::Error error = checkNestingDepth(text, ""))
    return makeCalibrationError(llvm::toString(std::move(error)));
  llvm::Expected<llvm::json::Value> document = llvm::json::parse(text);
  if (!document)
    return makeCalibrationError("not valid JSON: " +
                                llvm::toString(document.takeError()));
  auto fail = [](const llvm::Twine &message) {
    return makeCalibrationError(message);
  };
  const llvm::json::Object *root = document->getAsObject();
  if (!root)
    return fail("a calibration must be a JSON object");
  if (root->getString("format") != "prec-calibration")
    return fail("'format' must be \"prec-calibration\"");
  if (root->getInteger("version") != 1)
    return fail("'version' must be 1");

  CalibrationFile calibration;
  const llvm::json::Object *model = root->getObject("model");
  if (!model)
    return fail("'model' must be an object");
  std::optional<StringRef> function = model->getString("function");
  std::optional<StringRef> hash = model->getString("fingerprint");
  const llvm::json::Array *inputs = model->getArray("inputs");
  if (!function || !hash || !inputs)
    return fail("'model' needs 'function', 'fingerprint' and 'inputs'");
  calibration.model.function = function->str();
  calibration.model.hash = hash->str();
  for (const llvm::json::Value &input : *inputs) {
    std::optional<StringRef> text = input.getAsString();
    if (!text)
      return fail("'model.inputs' must hold strings");
    calibration.model.inputs.push_back(text->str());
  }

  const llvm::json::Object *algorithm = root->getObject("algorithm");
  std::optional<StringRef> algorithmName =
      algorithm ? algorithm->getString("name") : std::nullopt;
  std::optional<CalibrationAlgorithm> parsed =
      algorithmName ? parseCalibrationAlgorithm(*algorithmName) : std::nullopt;
  if (!parsed)
    return fail("'algorithm.name' must be minmax, entropy or percentile");
  calibration.algorithm = *parsed;
  if (*parsed == CalibrationAlgorithm::Percentile) {
    std::optional<double> percentile = algorithm->getNumber("percentile");
    if (!percentile || !(*percentile > 0 && *percentile <= 100))
      return fail("'algorithm.percentile' must be a number in (0, 100]");
    calibration.percentile = *percentile;
  }

  if (const llvm::json::Object *data = root->getObject("data")) {
    calibration.source = data->getString("source").value_or("").str();
    calibration.samples = data->getInteger("samples").value_or(0);
    calibration.batchSize = data->getInteger("batch_size").value_or(0);
  }

  const llvm::json::Object *tensors = root->getObject("tensors");
  if (!tensors)
    return fail("'tensors' must be an object");
  for (const auto &[key, value] : *tensors) {
    std::string place = "tensors." + key.str();
    const llvm::json::Object *entry = value.getAsObject();
    std::optional<double> amax =
        entry ? entry->getNumber("amax") : std::nullopt;
    // amax bounds f32 tensors, and its scale (amax / 127) is an f32.
    if (!amax || !(*amax >= 0 && *amax <= std::numeric_limits<float>::max()))
      return fail("'" + place + ".amax' must be a number in [0, " +
                  llvm::formatv("{0:e}", std::numeric_limits<float>::max()) +
                  "] (an f32)");
    // Ranges have no use for the sign of zero, and JSON writes -0.0 as "-0",
    // which reads back as the integer 0: adding +0.0 makes every zero +0.
    TensorCalibration tensor;
    tensor.amax = *amax + 0.0;
    // The observed extremes are optional, but finite numbers when given.
    for (auto [field, bound] :
         {std::pair("min", &tensor.min), std::pair("max", &tensor.max)}) {
      const llvm::json::Value *given = entry->get(field);
      if (!given)
        continue;
      std::optional<double> number = given->getAsNumber();
      if (!number || !std::isfinite(*number))
        return fail("'" + place + "." + field + "' must be a finite number");
      *bound = *number + 0.0;
    }
    calibration.tensors[key.str()] = tensor;
  }
  if (const llvm::json::Value *observed = root->get("observed")) {
    const llvm::json::Object *ranges = observed->getAsObject();
    if (!ranges)
      return fail("'observed' must be an object");
    for (const auto &[key, value] : *ranges) {
      std::string place = "observed." + key.str();
      const llvm::json::Object *entry = value.getAsObject();
      std::optional<double> min =
          entry ? entry->getNumber("min") : std::nullopt;
      std::optional<double> max =
          entry ? entry->getNumber("max") : std::nullopt;
      if (!min || !max || !std::isfinite(*min) || !std::isfinite(*max) ||
          *min > *max)
        return fail("'" + place + "' must hold finite numbers 'min' <= 'max'");
      calibration.observed[key.str()] = {*min + 0.0, *max + 0.0};
    }
  }
  return calibration;
}

llvm::Expected<CalibrationFile> loadCalibrationFile(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeCalibrationError("cannot read calibration '" + path +
                                "': " + buffer.getError().message());
  llvm::Expected<CalibrationFile> calibration =
      parseCalibration((*buffer)->getBuffer());
  if (!calibration)
    return makeCalibrationError("calibration '" + path + "': " +
                                llvm::toString(calibration.takeError()));
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
    return makeCalibrationError("cannot write '" + path +
                                "': " + error.message());
  out << serializeCalibration(calibration);
  return llvm::Error::success();
}

} // namespace prec
