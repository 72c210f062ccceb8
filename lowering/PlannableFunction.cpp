//===- PlannableFunction.cpp - what the engine plan accepts ---------------===//

#include "lowering/PlannableFunction.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace prec {

LogicalResult checkPlannable(func::FuncOp function) {
  if (!function.getBody().hasOneBlock() ||
      !isa<func::ReturnOp>(function.getBody().front().getTerminator()))
    return function.emitError()
           << "the engine plan needs a function of one block";
  for (Operation &op : function.getBody().front())
    for (Value value :
         llvm::concat<Value>(op.getOperands(), op.getResults())) {
      auto tensor = dyn_cast<TensorType>(value.getType());
      if (tensor && !tensor.hasStaticShape())
        return op.emitError()
               << "the engine plan needs statically shaped tensors, not "
               << tensor;
    }
  return success();
}

} // namespace prec
