//===- ComputingAttributes.cpp - what an op's attributes compute ----------===//

#include "lowering/ComputingAttributes.h"

#include "dialects/Precision/PrecisionAttrs.h"
#include "dialects/Precision/PrecisionDialect.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

namespace prec {

using precision::PrecisionDialect;

SmallVector<NamedAttribute> getComputingAttrs(Operation *op) {
  static const StringRef notes[] = {
      PrecisionDialect::getLayerAttrName(),
      PrecisionDialect::getTensorAttrName(),
      PrecisionDialect::getRangeAttrName(),
      PrecisionDialect::getLooseRangeAttrName(),
      PrecisionDialect::getObservedRangeAttrName(),
      PrecisionDialect::getRequestAttrName()};
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : op->getDiscardableAttrs()) {
    if (llvm::is_contained(notes, attr.getName().getValue()))
      continue;
    if (auto assigned = dyn_cast<precision::AssignmentAttr>(attr.getValue())) {
      Type types[] = {assigned.getCompute(), assigned.getAccumulate(),
                      assigned.getStorage()};
      SmallVector<Attribute> typeAttrs;
      for (Type type : types)
        typeAttrs.push_back(TypeAttr::get(type));
      attrs.emplace_back(attr.getName(),
                         ArrayAttr::get(op->getContext(), typeAttrs));
      continue;
    }
    attrs.push_back(attr);
  }
  return attrs;
}

} // namespace prec
