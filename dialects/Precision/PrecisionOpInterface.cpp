//===- PrecisionOpInterface.cpp - what prec knows of an op ----------------===//

#include "dialects/Precision/PrecisionOpInterface.h"

using namespace mlir;

#include "dialects/Precision/PrecisionOpInterface.cpp.inc"

namespace prec {

OpClass classifyOp(Operation *op) {
  if (auto known = dyn_cast<precision::PrecisionOpInterface>(op))
    return known.getOpClass();
  return OpClass::Other;
}

bool accumulates(Operation *op) {
  auto known = dyn_cast<precision::PrecisionOpInterface>(op);
  return known && known.accumulates();
}

bool isQuantizable(Operation *op) {
  auto known = dyn_cast<precision::PrecisionOpInterface>(op);
  return known && known.isQuantizable();
}

AccumulatorForm getAccumulatorForm(Operation *op) {
  auto known = dyn_cast<precision::PrecisionOpInterface>(op);
  return known ? known.getAccumulatorForm() : AccumulatorForm::None;
}

SmallVector<Value> getDataOperands(Operation *op) {
  if (auto known = dyn_cast<precision::PrecisionOpInterface>(op))
    return known.getDataOperands();
  return getTensorOperands(op);
}

SmallVector<Value> getTensorOperands(Operation *op) {
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    if (isa<RankedTensorType>(operand.getType()))
      operands.push_back(operand);
  return operands;
}

} // namespace prec
