//===- BufferAliases.cpp - values that share a buffer ---------------------===//

#include "lowering/BufferAliases.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;

namespace prec {

Value getStorageRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<tosa::ReshapeOp, tosa::IdentityOp>(def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

} // namespace prec
