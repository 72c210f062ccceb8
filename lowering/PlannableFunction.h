//===- PlannableFunction.h - what the engine plan accepts -------*- C++ -*-===//

#ifndef PREC_LOWERING_PLANNABLEFUNCTION_H
#define PREC_LOWERING_PLANNABLEFUNCTION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace prec {

/// Whether the engine plan's passes can plan `function`: one block ended by
/// a return, whose ops' tensors all have static shapes (an engine's buffers
/// have fixed sizes). If not, an error at the op says why.
mlir::LogicalResult checkPlannable(mlir::func::FuncOp function);

/// A pass of the engine plan, over `GeneratedBase` (its tablegen'd base): it
/// skips declarations, fails with checkPlannable's error on a function it
/// cannot plan, and otherwise runs `Derived::plan(function)`.
template <typename Derived, template <typename> class GeneratedBase>
class PlanPass : public GeneratedBase<Derived> {
public:
  using GeneratedBase<Derived>::GeneratedBase;

  void runOnOperation() final {
    mlir::func::FuncOp function = this->getOperation();
    if (function.isExternal())
      return;
    if (mlir::failed(checkPlannable(function)) ||
        mlir::failed(static_cast<Derived &>(*this).plan(function)))
      this->signalPassFailure();
  }
};

} // namespace prec

#endif // PREC_LOWERING_PLANNABLEFUNCTION_H
