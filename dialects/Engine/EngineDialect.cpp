//===- EngineDialect.cpp - the engine plan --------------------------------===//

#include "dialects/Engine/EngineDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace prec::engine;

#include "dialects/Engine/EngineDialect.cpp.inc"
#include "dialects/Engine/EngineEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Engine/EngineAttrs.cpp.inc"

void EngineDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Engine/EngineAttrs.cpp.inc"
      >();
}

LogicalResult EngineDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == ConvAlgorithmAttrHelper::getNameStr()) {
    if (!isa<ConvAlgorithmAttr>(attr.getValue()))
      return op->emitError() << "'" << name
                             << "' must be a #engine.conv_algorithm, got "
                             << attr.getValue();
    if (op->getName().getStringRef() != "tosa.conv2d")
      return op->emitError() << "'" << name
                             << "' belongs on a tosa.conv2d, not on '"
                             << op->getName() << "'";
    return success();
  }
  if (name == KernelAttrHelper::getNameStr()) {
    auto kernel = dyn_cast<KernelAttr>(attr.getValue());
    if (!kernel)
      return op->emitError() << "'" << name << "' must be a #engine.kernel, got "
                             << attr.getValue();
    if (kernel.getIndex() < 0)
      return op->emitError() << "'" << name << "' has a negative index";
    return success();
  }
  if (name == BatchedInputsAttrHelper::getNameStr()) {
    if (!isa<DenseI64ArrayAttr>(attr.getValue()) ||
        op->getName().getStringRef() != "func.func")
      return op->emitError() << "'" << name
                             << "' must be array<i64: argument indices> on a "
                                "func.func";
    return success();
  }
  if (name == ReadThroughAttrHelper::getNameStr()) {
    StringRef opName = op->getName().getStringRef();
    if (!isa<UnitAttr>(attr.getValue()) ||
        (opName != "tosa.transpose" && opName != "tosa.cast"))
      return op->emitError() << "'" << name
                             << "' is a unit attribute of a tosa.transpose "
                                "or tosa.cast";
    return success();
  }
  if (name == IndexBitwidthAttrHelper::getNameStr()) {
    auto bits = dyn_cast<IntegerAttr>(attr.getValue());
    if (!bits || !bits.getType().isInteger(64) ||
        (bits.getInt() != 32 && bits.getInt() != 64) ||
        op->getName().getStringRef() != "func.func")
      return op->emitError()
             << "'" << name << "' must be 32 or 64 (i64) on a func.func";
    return success();
  }
  if (name == ArenaOffsetAttrHelper::getNameStr() ||
      name == BatchDimAttrHelper::getNameStr() ||
      name == ColumnsOffsetAttrHelper::getNameStr() ||
      name == ArenaBytesAttrHelper::getNameStr()) {
    auto bytes = dyn_cast<IntegerAttr>(attr.getValue());
    if (!bytes || !bytes.getType().isInteger(64) || bytes.getInt() < 0)
      return op->emitError() << "'" << name
                             << "' must be a non-negative i64, got "
                             << attr.getValue();
    if ((name == ArenaBytesAttrHelper::getNameStr()) !=
        (op->getName().getStringRef() == "func.func"))
      return op->emitError() << "'" << name << "' does not belong on '"
                             << op->getName() << "'";
    return success();
  }
  return op->emitError() << "unknown engine attribute '" << name << "'";
}
