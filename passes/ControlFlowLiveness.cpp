//===- ControlFlowLiveness.cpp - which blocks a dataflow solver visits ----===//

#include "passes/ControlFlowLiveness.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

using namespace mlir;

namespace prec {

namespace {

/// Whether DeadCodeAnalysis reads the constant values of `op`'s operands to
/// choose its successors.
bool choosesSuccessors(Operation *op) {
  if (isa<BranchOpInterface, RegionBranchOpInterface>(op))
    return true;
  return op->hasTrait<OpTrait::IsTerminator>() &&
         isa_and_nonnull<RegionBranchOpInterface>(op->getParentOp());
}

/// Sets the constant value of the operands of the ops that choose successors
/// to unknown, once, so that DeadCodeAnalysis takes every successor as live.
class UnknownBranchOperands : public DataFlowAnalysis {
public:
  using DataFlowAnalysis::DataFlowAnalysis;

  LogicalResult initialize(Operation *top) override {
    top->walk([&](Operation *op) {
      if (!choosesSuccessors(op))
        return;
      for (Value operand : op->getOperands()) {
        auto *lattice =
            getOrCreate<dataflow::Lattice<dataflow::ConstantValue>>(operand);
        propagateIfChanged(
            lattice,
            lattice->join(dataflow::ConstantValue::getUnknownConstant()));
      }
    });
    return success();
  }

  LogicalResult visit(ProgramPoint *) override { return success(); }
};

} // namespace

void loadControlFlowLiveness(DataFlowSolver &solver) {
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<UnknownBranchOperands>();
}

} // namespace prec
