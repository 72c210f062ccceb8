//===- Attributes.h - changing an op's discardable attributes --*- C++ -*-===//
//
// Every Operation::setAttr of a discardable attribute builds and uniques a
// new attribute dictionary, and on large models that is most of what a pass
// that annotates every op costs: a pass that sets several attributes of an
// op sets them in one update.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DIALECTS_UTILS_ATTRIBUTES_H
#define PREC_DIALECTS_UTILS_ATTRIBUTES_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace prec {

/// Changes the attributes `op` does not keep as properties with `update`,
/// building their dictionary once.
inline void
updateDiscardableAttrs(mlir::Operation *op,
                       llvm::function_ref<void(mlir::NamedAttrList &)> update) {
  mlir::NamedAttrList attributes(op->getRawDictionaryAttrs());
  update(attributes);
  op->setDiscardableAttrs(attributes.getDictionary(op->getContext()));
}

} // namespace prec

#endif // PREC_DIALECTS_UTILS_ATTRIBUTES_H
