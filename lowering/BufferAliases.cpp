//===- BufferAliases.cpp - values that share a buffer ---------------------===//

#include "lowering/BufferAliases.h"

#include "dialects/Engine/EngineDialect.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace prec {

bool isBufferAlias(Operation *op) {
  return isa<tosa::ReshapeOp, tosa::IdentityOp>(op);
}

Value getStorageRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isBufferAlias(def) &&
        !def->hasAttr(
            engine::EngineDialect::ReadThroughAttrHelper::getNameStr()))
      break;
    value = def->getOperand(0);
  }
  return value;
}

llvm::DenseMap<Value, int64_t> getResultsWrittenInPlace(func::FuncOp function) {
  llvm::DenseMap<Value, int64_t> written;
  auto ret = cast<func::ReturnOp>(function.getBody().front().getTerminator());
  for (auto [index, operand] : llvm::enumerate(ret.getOperands())) {
    Value value = operand;
    while (Operation *def = value.getDefiningOp()) {
      if (!isBufferAlias(def) || !def->getOperand(0).hasOneUse())
        break;
      value = def->getOperand(0);
    }
    Operation *def = value.getDefiningOp();
    if (def && !matchPattern(def, m_Constant()) &&
        llvm::count(ret.getOperands(), operand) == 1 && !written.count(value))
      written[value] = function.getNumArguments() + index;
  }
  return written;
}

} // namespace prec
