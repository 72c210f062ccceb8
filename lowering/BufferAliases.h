//===- BufferAliases.h - values that share a buffer -------------*- C++ -*-===//

#ifndef PREC_LOWERING_BUFFERALIASES_H
#define PREC_LOWERING_BUFFERALIASES_H

#include "mlir/IR/Value.h"

namespace prec {

/// The value whose buffer `value` uses in an engine: reshapes and
/// identities alias their input's.
mlir::Value getStorageRoot(mlir::Value value);

} // namespace prec

#endif // PREC_LOWERING_BUFFERALIASES_H
