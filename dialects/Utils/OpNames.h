//===- OpNames.h - the names users know ops by ------------------*- C++ -*-===//
//
// Users name ops by the names of their model (ONNX node names become
// `NameLoc`s) and by op kind (`tosa.add`). Patterns, plans and reports all
// speak these names.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DIALECTS_UTILS_OPNAMES_H
#define PREC_DIALECTS_UTILS_OPNAMES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/GlobPattern.h"

#include <memory>
#include <string>

namespace prec {

/// The name in a location: the first `NameLoc` found, looking through fused,
/// call-site and opaque locations, or null.
mlir::StringAttr getLocationNameAttr(mlir::Location location);

/// The text of getLocationNameAttr, or "".
llvm::StringRef getLocationName(mlir::Location location);

/// The op's layer name: its `precision.layer` attribute, else
/// getLocationName of its location.
llvm::StringRef getLayerName(mlir::Operation *op);

/// How an op reads in messages: `'Add' (tosa.add)`, or the op name alone.
std::string describeOp(mlir::Operation *op);

/// The name a function argument is known by: its `precision.name`
/// attribute, else its `NameLoc`, else `argN`.
std::string getBindingName(mlir::BlockArgument argument);

/// The name a function result is known by: its `precision.name` attribute,
/// else `resultN`.
std::string getResultName(mlir::Operation *function, unsigned index);

/// `type` as MLIR prints it (f16, tensor<4xf32>), as reports and manifests
/// spell it; empty for a null type.
std::string getTypeName(mlir::Type type);

/// A glob (`*`, `?`, `[...]`) over op and binding names. It owns its text:
/// llvm::GlobPattern only refers to the text it was made from.
class NamePattern {
public:
  static llvm::Expected<NamePattern> create(llvm::StringRef text);

  llvm::StringRef getText() const { return *text; }
  bool match(llvm::StringRef name) const { return glob.match(name); }
  /// Whether the pattern matches the op's name or its op name.
  bool matchesOp(mlir::Operation *op) const;

private:
  NamePattern(std::shared_ptr<const std::string> text, llvm::GlobPattern glob)
      : text(std::move(text)), glob(std::move(glob)) {}

  std::shared_ptr<const std::string> text;
  llvm::GlobPattern glob;
};

} // namespace prec

#endif // PREC_DIALECTS_UTILS_OPNAMES_H
