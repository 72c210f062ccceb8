//===- LayerPatterns.h - <pattern>:<type> option entries --------*- C++ -*-===//
//
// Polygraphy's `--layer-precisions Add:float16 Sub:float32`, as pass options
// `layer-precisions=Add:f16,Sub:f32`; also `layer-output-types` and
// `io-types`.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_LAYERPATTERNS_H
#define PREC_PASSES_LAYERPATTERNS_H

#include "dialects/Utils/OpNames.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <vector>

namespace prec {

struct LayerPattern {
  NamePattern pattern;
  mlir::Type type;
};

/// Parses `<pattern>:<type>` entries of the option `optionName`. On a
/// malformed entry, emits an error naming the option and the entry and
/// returns failure.
mlir::FailureOr<std::vector<LayerPattern>>
parseLayerPatterns(llvm::ArrayRef<std::string> entries,
                   llvm::StringRef optionName, mlir::MLIRContext *context,
                   llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// Compiles a glob for op and binding names, with an error naming `what`.
mlir::FailureOr<NamePattern>
compileGlob(llvm::StringRef pattern, llvm::StringRef what,
            llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

} // namespace prec

#endif // PREC_PASSES_LAYERPATTERNS_H
