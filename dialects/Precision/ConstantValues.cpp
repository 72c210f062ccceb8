//===- ConstantValues.cpp - constant tensors read as doubles --------------===//

#include "dialects/Precision/ConstantValues.h"

#include "dialects/Precision/PrecisionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;

namespace prec {

/// The elements of a constant tensor (through casts), as doubles, or
/// std::nullopt when `value` is not a constant prec can read.
static std::optional<std::vector<double>> readConstant(Value value) {
  Operation *def = value.getDefiningOp();
  while (def && isa<tosa::CastOp, precision::CastOp>(def))
    def = def->getOperand(0).getDefiningOp();
  if (!def)
    return std::nullopt;
  Attribute attr;
  if (auto constant = dyn_cast<tosa::ConstOp>(def))
    attr = constant.getValues();
  else if (auto constant = dyn_cast<arith::ConstantOp>(def))
    attr = constant.getValue();
  else
    return std::nullopt;

  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr)) {
    std::vector<double> values;
    values.reserve(dense.getNumElements());
    for (const APFloat &element : dense.getValues<APFloat>())
      values.push_back(element.convertToDouble());
    return values;
  }
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
    std::vector<double> values;
    values.reserve(dense.getNumElements());
    for (const APInt &element : dense.getValues<APInt>())
      values.push_back(static_cast<double>(element.getSExtValue()));
    return values;
  }
  if (auto resource = dyn_cast<DenseF32ResourceElementsAttr>(attr)) {
    std::optional<ArrayRef<float>> data = resource.tryGetAsArrayRef();
    if (!data)
      return std::nullopt;
    return std::vector<double>(data->begin(), data->end());
  }
  return std::nullopt;
}

const std::vector<double> *ConstantValues::lookup(Value value) {
  auto [it, inserted] = read.try_emplace(value.getAsOpaquePointer());
  if (inserted)
    it->second = readConstant(value);
  return it->second ? &*it->second : nullptr;
}

} // namespace prec
