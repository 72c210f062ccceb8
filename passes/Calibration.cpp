//===- Calibration.cpp - what a calibration covers ------------------------===//

#include "passes/Calibration.h"

#include "support/Errors.h"

#include "dialects/Utils/OpNames.h"
#include "dialects/Utils/RegionBoundaries.h"

#include "dialects/Precision/PrecisionOpInterface.h"
#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace mlir;

namespace prec {
namespace {

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

llvm::Expected<ModelFingerprint> computeModelFingerprint(ModuleOp module,
                                                         StringRef function) {
  auto original = module.lookupSymbol<func::FuncOp>(function);
  if (!original)
    return makeError("the model has no function @" + function);
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
  std::string name = getLayerName(op).str();
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

Value getCalibratedInput(Operation *op, unsigned operand) {
  Value input = lookThroughRegions(op->getOperand(operand));
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
    if (!isQuantizable(op))
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
    return makeError("calibration '" + path + "' was made for another model: " +
                     what + "; calibrate this model with prec-calibrate");
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

} // namespace prec
