//===- StridedLayouts.h - indices through moves of elements -*- C++ -*-===//
//
// Reshapes, transposes and tiles only move elements. Where a consumer reads
// a tensor by strides, it can read the tensor they moved instead, with other
// strides: this is the arithmetic of that, one op at a time.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_LOWERING_STRIDEDLAYOUTS_H
#define PREC_LOWERING_STRIDEDLAYOUTS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace prec {

/// One index of `size` values, moving `stride` elements each.
struct StridedPart {
  int64_t size, stride;
};

/// A logical index as parts of a mixed radix, outermost first: value x
/// moves by the sum over parts of digit(x, part) * stride.
using StridedIndex = llvm::SmallVector<StridedPart, 2>;

/// `index`, which moves through a row-major tensor of shape `from`,
/// re-expressed where dimension d of `from` moves by `to[d]` elements
/// (std::nullopt: by no fixed amount). Parts that span dimensions are
/// split; fails where a part does not line up with the dimensions or meets
/// one without a stride.
std::optional<StridedIndex> mapIndex(const StridedIndex &index,
                                     llvm::ArrayRef<int64_t> from,
                                     llvm::ArrayRef<std::optional<int64_t>> to);

/// `index` without parts of one value, adjacent parts that move as one
/// merged.
StridedIndex simplify(const StridedIndex &index);

/// For a reshape (or identity), transpose or tile `op`: how each dimension of
/// its result moves in its input, where an index of the result reads the input
/// (std::nullopt where a tile repeats a dimension longer than 1). None for
/// other ops.
std::optional<llvm::SmallVector<std::optional<int64_t>>>
getInputStrides(mlir::Operation *op);

/// For a reshape (or identity) or transpose `op`: how each dimension of its
/// input moves in its result. None for other ops.
std::optional<llvm::SmallVector<std::optional<int64_t>>>
getResultStrides(mlir::Operation *op);

} // namespace prec

#endif // PREC_LOWERING_STRIDEDLAYOUTS_H
