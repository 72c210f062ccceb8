//===- Calibration.cpp - calibration files --------------------------------===//

#include "passes/Calibration.h"

#include "passes/NestingDepth.h"
#include "passes/OpNames.h"
#include "passes/PrecisionRules.h"

#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <set>

using namespace mlir;

namespace prec {
namespace {

llvm::Error makeCalibrationError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

std::string formatType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    for (int64_t dim : tensor.getShape())
      os << (ShapedType::isDynamic(dim) ? "?" : std::to_string(dim)) << "x";
    os << tensor.getElementType();
  } else {
    os << type;
  }
  return text;
}

/// Hashes the dataflow graph of a function: each op by its name, its
/// attributes (constants by their bytes, resources included), its result
/// types and the hashes of its operands, so that neither the order of
/// independent ops nor where a precision.region put its constants matters.
/// Precision attributes and locations are left out.
class GraphHasher {
public:
  std::string hashFunction(func::FuncOp function) {
    for (BlockArgument argument : function.getArguments())
      valueHashes[argument] =
          hashOf("arg" + std::to_string(argument.getArgNumber()) + ":" +
                 printed(argument.getType()));
    std::string returned;
    function.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<precision::RegionOp, precision::YieldOp>(op))
        return;
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        for (Value value : ret.getOperands())
          returned += lookup(value);
        return;
      }
      hashOp(op);
    });
    return llvm::toHex(
        llvm::SHA256::hash(llvm::arrayRefFromStringRef(returned)),
        /*LowerCase=*/true);
  }

private:
  static std::string hashOf(llvm::StringRef text) {
    auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(text));
    return std::string(digest.begin(), digest.end());
  }

  static std::string printed(Type type) {
    std::string text;
    llvm::raw_string_ostream(text) << type;
    return text;
  }

  /// A value's hash; a precision.region's arguments and results stand for
  /// the values they pass through.
  std::string lookup(Value value) {
    return valueHashes.lookup(lookThroughRegions(value));
  }

  void hashOp(Operation *op) {
    llvm::SHA256 hasher;
    hasher.update(op->getName().getStringRef());
    for (NamedAttribute attr : op->getAttrs()) {
      if (attr.getName().getValue().starts_with("precision."))
        continue;
      hasher.update(attr.getName().getValue());
      if (auto resource =
              dyn_cast<DenseResourceElementsAttr>(attr.getValue())) {
        hasher.update(printed(resource.getType()));
        if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
          hasher.update(llvm::arrayRefFromStringRef(
              llvm::StringRef(blob->getData().data(), blob->getData().size())));
        continue;
      }
      if (auto dense = dyn_cast<DenseElementsAttr>(attr.getValue())) {
        hasher.update(printed(dense.getType()));
        hasher.update(llvm::arrayRefFromStringRef(llvm::StringRef(
            dense.getRawData().data(), dense.getRawData().size())));
        continue;
      }
      std::string text;
      llvm::raw_string_ostream(text) << attr.getValue();
      hasher.update(text);
    }
    for (Value operand : op->getOperands())
      hasher.update(lookup(operand));
    auto digest = hasher.final();
    std::string opHash(digest.begin(), digest.end());
    for (OpResult result : op->getResults())
      valueHashes[result] =
          hashOf(opHash + std::to_string(result.getResultNumber()) +
                 printed(result.getType()));
  }

  llvm::DenseMap<Value, std::string> valueHashes;
};

} // namespace

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

llvm::Expected<ModelFingerprint> computeModelFingerprint(ModuleOp module,
                                                         StringRef function) {
  auto original = module.lookupSymbol<func::FuncOp>(function);
  if (!original)
    return makeCalibrationError("the model has no function @" + function);
  ModelFingerprint fingerprint;
  fingerprint.function = function.str();
  for (BlockArgument argument : original.getArguments())
    fingerprint.inputs.push_back(getBindingName(argument) + ": " +
                                 formatType(argument.getType()));

  fingerprint.hash = GraphHasher().hashFunction(original);
  return fingerprint;
}

std::string getTensorName(Value value) {
  value = lookThroughRegions(value);
  if (auto argument = dyn_cast<BlockArgument>(value))
    return getBindingName(argument);
  Operation *op = value.getDefiningOp();
  unsigned resultNumber = cast<OpResult>(value).getResultNumber();
  if (auto tensor = op->getAttrOfType<StringAttr>(
          precision::PrecisionDialect::getTensorAttrName()))
    return tensor.str();
  std::string name = getLayerName(op);
  if (name.empty()) {
    // The k-th op of its kind in the function, precision ops not counted:
    // the same before and after regions are added or dissolved.
    int index = 0;
    Operation *function = op->getParentOfType<func::FuncOp>();
    function->walk<WalkOrder::PreOrder>([&](Operation *other) {
      if (other == op)
        return WalkResult::interrupt();
      index += other->getName() == op->getName();
      return WalkResult::advance();
    });
    name = op->getName().getStringRef().str() + "_" + std::to_string(index);
  }
  if (op->getNumResults() > 1 && resultNumber > 0)
    name += ":" + std::to_string(resultNumber);
  return name;
}

Value getCalibratedInput(Operation *op) {
  Value input = lookThroughRegions(op->getOperand(0));
  // A transpose or reshape moves values without changing them, and a slice
  // (the importer's, which makes strides divide) keeps some: the source's
  // range covers them, under the source's name, as TensorRT names it.
  while (isa_and_nonnull<tosa::TransposeOp, tosa::ReshapeOp, tosa::SliceOp>(
      input.getDefiningOp()))
    input = lookThroughRegions(input.getDefiningOp()->getOperand(0));
  return input;
}

std::vector<std::pair<std::string, Value>>
collectCalibratedTensors(Operation *function) {
  std::vector<std::pair<std::string, Value>> tensors;
  std::set<std::string> seen;
  function->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isa<tosa::MatMulOp, tosa::Conv2DOp>(op))
      return;
    Value input = getCalibratedInput(op);
    if (matchPattern(input, m_Constant()))
      return;
    std::string name = getTensorName(input);
    if (seen.insert(name).second)
      tensors.emplace_back(name, input);
  });
  return tensors;
}

std::vector<std::pair<std::string, Value>>
collectObservedTensors(Operation *function) {
  std::vector<std::pair<std::string, Value>> tensors;
  std::set<std::string> seen;
  function->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getNumResults() != 1 || matchPattern(op, m_Constant()) ||
        isa<precision::RegionOp>(op))
      return;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !isa<FloatType>(type.getElementType()))
      return;
    // Ops an importer made of one node share its name: the later ones are
    // told apart by their rank among them.
    std::string name = getTensorName(op->getResult(0));
    for (int k = 1; !seen.insert(name).second; ++k)
      name = getTensorName(op->getResult(0)) + "#" + std::to_string(k);
    tensors.emplace_back(name, op->getResult(0));
  });
  return tensors;
}

llvm::Error checkCalibrationFits(const CalibrationFile &calibration,
                                 ModuleOp module, StringRef path) {
  auto fail = [&](const llvm::Twine &what) {
    return makeCalibrationError("calibration '" + path +
                                "' was made for another model: " + what +
                                "; calibrate this model with prec-calibrate");
  };
  const ModelFingerprint &expected = calibration.model;
  llvm::Expected<ModelFingerprint> actual =
      computeModelFingerprint(module, expected.function);
  if (!actual)
    return fail(llvm::toString(actual.takeError()));
  if (expected.inputs != actual->inputs)
    return fail("its inputs were [" + llvm::join(expected.inputs, ", ") +
                "], this model's are [" + llvm::join(actual->inputs, ", ") +
                "]");
  auto function = module.lookupSymbol<func::FuncOp>(expected.function);
  std::vector<std::string> missing;
  std::set<std::string> names;
  for (const auto &[name, value] : collectCalibratedTensors(function)) {
    names.insert(name);
    if (!calibration.tensors.count(name))
      missing.push_back(name);
  }
  std::vector<std::string> extra;
  for (const auto &entry : calibration.tensors)
    if (!names.count(entry.first))
      extra.push_back(entry.first);
  if (!extra.empty())
    return fail("it calibrates tensors this model does not have (" +
                llvm::join(extra, ", ") + ")");
  if (!missing.empty())
    return fail("it lacks tensors of this model (" + llvm::join(missing, ", ") +
                ")");
  if (expected.hash != actual->hash)
    return fail("the ops or weights differ (fingerprint " +
                expected.hash.substr(0, 12) + "... vs " +
                actual->hash.substr(0, 12) + "...)");
  return llvm::Error::success();
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
