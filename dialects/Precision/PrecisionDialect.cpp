//===- PrecisionDialect.cpp - the precision dialect -----------------------===//

#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Precision/PrecisionTypes.h"

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

/// Checks a `precision.range` value: `array<f64: lo, hi>` with lo <= hi.
static LogicalResult verifyRangeAttr(Operation *op, NamedAttribute attr) {
  auto range = dyn_cast<DenseF64ArrayAttr>(attr.getValue());
  if (!range || range.size() != 2)
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' must be array<f64: lo, hi>, got "
                           << attr.getValue();
  if (range[0] > range[1])
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' has its minimum above its maximum";
  return success();
}

/// Checks that the attribute `name` holds an `AttrT`, described as `kind`.
template <typename AttrT>
static LogicalResult verifyAttrKind(Operation *op, StringRef name,
                                    Attribute value, StringRef kind) {
  if (isa<AttrT>(value))
    return success();
  return op->emitError() << "'" << name << "' must be " << kind << ", got "
                         << value;
}

LogicalResult PrecisionDialect::verifyOperationAttribute(Operation *op,
                                                         NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  if (name == getPolicyAttrName()) {
    if (failed(
            verifyAttrKind<PolicyAttr>(op, name, value, "a #precision.policy")))
      return failure();
    if (!isa<ModuleOp>(op))
      return op->emitError()
             << "'" << name << "' belongs on a builtin.module, not on '"
             << op->getName() << "'";
    return success();
  }
  if (name == getRequestAttrName())
    return verifyAttrKind<RequestAttr>(op, name, value, "a #precision.request");
  if (name == getAssignmentAttrName())
    return verifyAttrKind<AssignmentAttr>(op, name, value,
                                          "a #precision.assignment");
  if (name == getRangeAttrName() || name == getInputRangeAttrName() ||
      name == getBInputRangeAttrName() || name == getObservedRangeAttrName())
    return verifyRangeAttr(op, attr);
  if (name == getQuantizeAttrName()) {
    auto type = dyn_cast<TypeAttr>(value);
    if (!type || !isQuantizedPrecision(type.getValue()))
      return op->emitError()
             << "'" << name << "' must be an i8 or f8 type, got " << value;
    return success();
  }
  if (name == getLayerAttrName() || name == getTensorAttrName())
    return verifyAttrKind<StringAttr>(op, name, value, "a string");
  if (name == getInsertedCastAttrName() || name == getEpilogueAttrName() ||
      name == getLooseRangeAttrName())
    return verifyAttrKind<UnitAttr>(op, name, value, "a unit attribute");
  return op->emitError() << "unknown precision dialect attribute '" << name
                         << "'";
}

LogicalResult PrecisionDialect::verifyRegionArgAttribute(Operation *op,
                                                         unsigned, unsigned,
                                                         NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == getRangeAttrName())
    return verifyRangeAttr(op, attr);
  if (name == getNameAttrName())
    return verifyAttrKind<StringAttr>(op, name, attr.getValue(), "a string");
  return op->emitError() << "unknown precision dialect argument attribute '"
                         << name << "'";
}

LogicalResult
PrecisionDialect::verifyRegionResultAttribute(Operation *op, unsigned, unsigned,
                                              NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == getNameAttrName())
    return verifyAttrKind<StringAttr>(op, name, attr.getValue(), "a string");
  return op->emitError() << "unknown precision dialect result attribute '"
                         << name << "'";
}
