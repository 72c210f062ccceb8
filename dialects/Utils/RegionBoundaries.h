//===- RegionBoundaries.h - values across region boundaries -----*- C++ -*-===//

#ifndef PREC_DIALECTS_UTILS_REGIONBOUNDARIES_H
#define PREC_DIALECTS_UTILS_REGIONBOUNDARIES_H

#include "mlir/IR/Value.h"

namespace prec {

/// The value `value` stands for across region boundaries: a region's entry
/// argument stands for the operand forwarded to it, an op's result for the
/// value its region yields (a precision.region's, or any
/// RegionBranchOpInterface op with one predecessor value). Other values
/// stand for themselves.
mlir::Value lookThroughRegions(mlir::Value value);

} // namespace prec

#endif // PREC_DIALECTS_UTILS_REGIONBOUNDARIES_H
