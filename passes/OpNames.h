//===- OpNames.h - the names users know ops by ------------------*- C++ -*-===//
//
// Users name ops by the names of their model (ONNX node names become
// `NameLoc`s) and by op kind (`tosa.add`). Patterns, plans and reports all
// speak these names.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_OPNAMES_H
#define PREC_PASSES_OPNAMES_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/GlobPattern.h"

#include <string>

namespace prec {

/// The op's name from its location (the first `NameLoc` found, looking
/// through fused and call-site locations), or "" if it has none.
std::string getLayerName(mlir::Operation *op);

/// The name a block argument is known by: its `NameLoc`, else `argN`.
std::string getBindingName(mlir::BlockArgument argument);

/// Whether `pattern` matches the op's name or its op name.
bool matchesOp(const llvm::GlobPattern &pattern, mlir::Operation *op);

} // namespace prec

#endif // PREC_PASSES_OPNAMES_H
