//===- BufferAliases.h - values that share a buffer -------------*- C++ -*-===//

#ifndef PREC_LOWERING_BUFFERALIASES_H
#define PREC_LOWERING_BUFFERALIASES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

namespace prec {

/// Whether `op` moves no element: a reshape or an identity, whose result is
/// its operand's buffer, the same elements in the same order.
bool isBufferAlias(mlir::Operation *op);

/// The value whose buffer `value` uses in an engine: reshapes and
/// identities alias their input's, and so do the ops GEMMs read through
/// (engine.read_through).
mlir::Value getStorageRoot(mlir::Value value);

/// The values `function` computes straight into its output bindings (the
/// binding's index among inputs then outputs): results it produces, through
/// reshapes that only alias them, returned once. Others are copied there.
llvm::DenseMap<mlir::Value, int64_t>
getResultsWrittenInPlace(mlir::func::FuncOp function);

} // namespace prec

#endif // PREC_LOWERING_BUFFERALIASES_H
