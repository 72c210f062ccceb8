//===- Constants.cpp - questions about constant tensors -------------------===//

#include "dialects/Utils/Constants.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include <cstring>

using namespace mlir;

namespace prec {

bool isZeroConstant(Value value) {
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

std::optional<APFloat> getFloatSplat(Value value) {
  DenseElementsAttr values;
  if (!matchPattern(value, m_Constant(&values)) || !values.isSplat() ||
      !isa<FloatType>(values.getElementType()))
    return std::nullopt;
  return values.getSplatValue<APFloat>();
}

Value lookThroughWidening(Value value) {
  if (auto widening = value.getDefiningOp<tosa::CastOp>())
    if (getElementTypeOrSelf(widening.getInput().getType())
            .getIntOrFloatBitWidth() <
        getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth())
      return widening.getInput();
  return value;
}

bool isConstantWeights(Value value) {
  return matchPattern(lookThroughWidening(value), m_Constant());
}

bool forEachFloat(ElementsAttr values,
                  function_ref<void(int64_t, const APFloat &)> visit) {
  auto elementType = dyn_cast<FloatType>(values.getElementType());
  if (!elementType || elementType.getWidth() % 8 != 0)
    return false;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(values)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    unsigned bytes = elementType.getWidth() / 8;
    int64_t count = resource.getNumElements();
    if (!blob || blob->getData().size() != size_t(count) * bytes)
      return false;
    const char *data = blob->getData().data();
    for (int64_t index = 0; index < count; ++index) {
      uint64_t bits = 0;
      std::memcpy(&bits, data + index * bytes, bytes);
      visit(index, APFloat(elementType.getFloatSemantics(),
                           APInt(elementType.getWidth(), bits)));
    }
    return true;
  }
  auto dense = dyn_cast<DenseElementsAttr>(values);
  if (!dense)
    return false;
  for (auto [index, element] : llvm::enumerate(dense.getValues<APFloat>()))
    visit(index, element);
  return true;
}

} // namespace prec
