//===- KernelGroups.h - the kernels an engine plan records ------*- C++ -*-===//

#ifndef PREC_LOWERING_KERNELGROUPS_H
#define PREC_LOWERING_KERNELGROUPS_H

#include "dialects/Engine/EngineDialect.h"

#include "mlir/IR/Block.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

namespace prec {

/// The ops one kernel computes, as prec-plan-kernels recorded them.
struct KernelGroup {
  engine::KernelKind kind = engine::KernelKind::Single;
  /// In program order; the kernel launches at the last one.
  llvm::SmallVector<mlir::Operation *> ops;

  mlir::Operation *getLaunch() const { return ops.back(); }

  /// The values the kernel stores: those of a row kernel, or of an
  /// epilogue (its own result beside a sibling's), that ops after it read;
  /// else its launch's result.
  llvm::SmallVector<mlir::Value> getOutputs() const;
};

/// The kernels of `body` by their index (`engine.kernel`), in the order
/// their first ops appear.
llvm::MapVector<int64_t, KernelGroup> getKernelGroups(mlir::Block &body);

} // namespace prec

#endif // PREC_LOWERING_KERNELGROUPS_H
