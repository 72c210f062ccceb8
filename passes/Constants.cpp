//===- Constants.cpp - questions about constant tensors -------------------===//

#include "passes/Constants.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;

namespace prec {

bool isZeroConstant(Value value) {
  auto constant = value.getDefiningOp<tosa::ConstOp>();
  auto values =
      constant ? dyn_cast<DenseElementsAttr>(constant.getValues()) : nullptr;
  return values && values.isSplat() &&
         (isa<FloatType>(values.getElementType())
              ? values.getSplatValue<APFloat>().isZero()
              : values.getSplatValue<APInt>().isZero());
}

} // namespace prec
