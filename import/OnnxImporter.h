//===- OnnxImporter.h - ONNX models to func + TOSA --------------*- C++ -*-===//
//
// Imports an ONNX model (IR version <= 10, opsets 13-21, external data next
// to the model) as one func.func @main of TOSA ops (tensor/arith/linalg
// where TOSA has no op). Bindings keep their ONNX names (precision.name),
// every op's location is a NameLoc with its node's name, initializers become
// constants (large ones as resource blobs).
//
//===----------------------------------------------------------------------===//

#ifndef PREC_IMPORT_ONNXIMPORTER_H
#define PREC_IMPORT_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <vector>

namespace prec {

struct OnnxImportOptions {
  /// Static shapes for inputs with dynamic dimensions (`--input-shape`).
  llvm::StringMap<std::vector<int64_t>> inputShapes;
  /// Polygraphy's `inspect capability`: try every node, report each one
  /// that cannot be imported, grouped by op type and reason, and fail if
  /// any; nodes fed by those are not tried.
  bool checkSupport = false;
};

/// Parses `name:1x3x224x224` entries into `options`; false with `error` set
/// on a malformed entry.
bool parseInputShapes(llvm::ArrayRef<std::string> entries,
                      OnnxImportOptions &options, std::string &error);

/// Imports the serialized model `bytes`; `modelPath` locates external data
/// and names locations. Errors are emitted as diagnostics at the failing
/// node's location; returns null on failure.
mlir::OwningOpRef<mlir::ModuleOp>
importOnnxModel(llvm::StringRef bytes, llvm::StringRef modelPath,
                mlir::MLIRContext *context, const OnnxImportOptions &options);

/// Registers `--import-onnx` with prec-translate (with `--input-shape`).
void registerOnnxImportTranslation();

} // namespace prec

#endif // PREC_IMPORT_ONNXIMPORTER_H
