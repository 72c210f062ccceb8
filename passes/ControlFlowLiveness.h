//===- ControlFlowLiveness.h - which blocks a dataflow solver visits -*- C++
//-*-===//
//
// A sparse dataflow analysis visits only the blocks that upstream's
// DeadCodeAnalysis proves live, and that analysis reads the constant value of
// every branch's operands. Upstream's baseline (loadBaselineAnalyses) gets
// them from SparseConstantPropagation, which keeps a lattice for every value
// of the module and tries to fold every op. prec's graphs branch only into
// precision.region bodies (and the rare tosa.cond_if), so the operands of
// branches are taken as unknown: every successor is live, which is what
// constant propagation concludes on such graphs anyway, and the solver keeps
// no state for the other values.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_CONTROLFLOWLIVENESS_H
#define PREC_PASSES_CONTROLFLOWLIVENESS_H

#include "mlir/Analysis/DataFlowFramework.h"

namespace prec {

/// Loads DeadCodeAnalysis into `solver`, with the operands of every branch,
/// region branch and region terminator taken as unknown constants.
void loadControlFlowLiveness(mlir::DataFlowSolver &solver);

} // namespace prec

#endif // PREC_PASSES_CONTROLFLOWLIVENESS_H
