//===- RowGroups.h - ops one row kernel computes ----------------*- C++ -*-===//
//
// LayerNorm and softmax are chains of elementwise ops and reductions along
// the last axis. Each op as its own kernel reads and writes the whole tensor
// (LayerNorm: nine passes); one kernel whose threads share each row keeps
// the row in registers and reads it once. A row group is a contiguous run of
// such ops over the same rows: every value is either a full row (`rows` x
// `width`) or one value per row (`rows` x 1).
//
//===----------------------------------------------------------------------===//

#ifndef PREC_LOWERING_ROWGROUPS_H
#define PREC_LOWERING_ROWGROUPS_H

#include "mlir/IR/Block.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace prec {

struct RowGroup {
  /// In program order; the kernel runs at the last one.
  llvm::SmallVector<mlir::Operation *> ops;
  int64_t rows = 0, width = 0;
};

/// How a value relates to the rows of a group.
enum class RowValueKind { Full, PerRow, Other };
RowValueKind getRowValueKind(mlir::Value value, int64_t rows, int64_t width);

/// The row groups of `block` with at least one reduction and rows no wider
/// than `maxWidth`. `isElementwise` says which ops are elementwise over their
/// (broadcast) operands; `isExcluded` marks ops computed elsewhere (a GEMM's
/// epilogue). Reductions join only when `canReduce` accepts them.
std::vector<RowGroup>
planRowGroups(mlir::Block &block, int64_t maxWidth,
              llvm::function_ref<bool(mlir::Operation *)> isElementwise,
              llvm::function_ref<bool(mlir::Operation *)> canReduce,
              llvm::function_ref<bool(mlir::Operation *)> isExcluded);

/// Whether `value` is one vector along rows of `width` that every row shares
/// (its leading dimensions 1): a LayerNorm's weight or bias.
bool isRowVector(mlir::Value value, int64_t width);

/// The values a row kernel of `group` moves as runs of consecutive elements
/// where it has runs (engine.vector_bytes): the full rows and row vectors
/// computed before it that it loads (float splats are literals, unless
/// reduced), and the full rows read after it.
llvm::SetVector<mlir::Value> getRowRunValues(const RowGroup &group);

/// The widest element, in bytes, of `runValues` (getRowRunValues), which
/// sizes their runs; 0 where there are none or one has no device type (no
/// runs).
int64_t getRowRunElementBytes(llvm::ArrayRef<mlir::Value> runValues);

/// The values a row group of `ops` writes to memory, in program order: the
/// results of its ops (reshapes alias theirs) that ops after it read.
llvm::SmallVector<mlir::Value>
getRowGroupOutputs(llvm::ArrayRef<mlir::Operation *> ops);

/// The row group of `ops`, one that planRowGroups made: its rows and width
/// are those of the input of its reductions.
RowGroup getRowGroup(llvm::ArrayRef<mlir::Operation *> ops);

/// The threads that compute a row of `width` elements: a warp for short
/// rows, more as rows grow (each thread holds width / threads of them in
/// registers), at most 256.
int64_t getRowBlockThreads(int64_t width);

/// The threads that compute a row of `runs` runs of `lanes` elements: as
/// for a row of `runs` elements, doubled while a thread would hold more
/// than 32 elements (as the widest rows without runs do) up to 256.
int64_t getRowRunThreads(int64_t runs, int64_t lanes);

/// The rows one block computes where each row takes `threads` threads: rows
/// of one warp share blocks of four warps, so that short rows do not leave
/// an SM's block slots full and its warp slots idle.
inline int64_t getRowsPerBlock(int64_t threads) {
  return threads == 32 ? 4 : 1;
}

} // namespace prec

#endif // PREC_LOWERING_ROWGROUPS_H
