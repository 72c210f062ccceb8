//===- DissolveRegions.h - inline precision.region bodies -------*- C++ -*-===//

#ifndef PREC_PASSES_DISSOLVEREGIONS_H
#define PREC_PASSES_DISSOLVEREGIONS_H

#include "mlir/IR/BuiltinOps.h"

namespace prec {

/// Inlines the body of every precision.region into its parent, innermost
/// first, so that the region's results become what its body yields.
void dissolveRegions(mlir::ModuleOp module);

} // namespace prec

#endif // PREC_PASSES_DISSOLVEREGIONS_H
