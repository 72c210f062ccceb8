//===- PrecisionDialect.cpp - the precision dialect -----------------------===//

#include "dialects/Precision/PrecisionDialect.h"

#include "dialects/Precision/PrecisionAttrs.h"
#include "dialects/Precision/PrecisionOps.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace prec::precision;

#include "dialects/Precision/PrecisionDialect.cpp.inc"

void PrecisionDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Precision/PrecisionOps.cpp.inc"
      >();
  registerAttributes();
}

LogicalResult PrecisionDialect::verifyOperationAttribute(Operation *op,
                                                         NamedAttribute attr) {
  if (attr.getName() != getPolicyAttrName())
    return op->emitError() << "unknown precision dialect attribute '"
                           << attr.getName().getValue() << "'";
  if (!isa<PolicyAttr>(attr.getValue()))
    return op->emitError() << "'" << getPolicyAttrName()
                           << "' must be a #precision.policy, got "
                           << attr.getValue();
  if (!isa<ModuleOp>(op))
    return op->emitError() << "'" << getPolicyAttrName()
                           << "' belongs on a builtin.module, not on '"
                           << op->getName() << "'";
  return success();
}
