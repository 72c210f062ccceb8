//===- FuzzSupport.h - what prec's libFuzzer targets share ------*- C++ -*-===//
//
// Each target feeds one input surface of prec with libFuzzer's bytes. A
// target's only oracle besides the sanitizers is that bad input ends in an
// error: every error path renders its message, so that code runs too.
//
//===----------------------------------------------------------------------===//
#ifndef PREC_TOOLS_FUZZ_FUZZSUPPORT_H
#define PREC_TOOLS_FUZZ_FUZZSUPPORT_H

#include "passes/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace prec::fuzz {

/// A context with every dialect prec reads, one thread (libFuzzer runs one
/// input at a time), whose diagnostics are rendered and dropped.
std::unique_ptr<mlir::MLIRContext> makeContext();

/// Every dialect prec reads, with prec's passes registered.
const mlir::DialectRegistry &getRegistry();

/// Parses the module in `text` (null when it is not valid MLIR or nests
/// deeper than the tools accept).
mlir::OwningOpRef<mlir::ModuleOp> parseModule(llvm::StringRef text,
                                              mlir::MLIRContext &context);

/// The text of a file of prec's source tree (the model a target compiles);
/// aborts when it is missing: the target cannot run without it.
std::string readSourceFile(llvm::StringRef relativePath);

/// Writes `bytes` to this process's scratch file ending in `suffix` and
/// returns its path, for readers that take a path.
std::string writeScratchFile(llvm::StringRef bytes, llvm::StringRef suffix);

/// One of prec's examples, parsed once with a context of its own; aborts
/// when it does not parse (the target cannot run without it).
struct ExampleModel {
  explicit ExampleModel(llvm::StringRef relativePath);
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

/// Runs the prec-legalize pipeline with `options` on a copy of the example;
/// the result is whatever the passes say.
void legalizeCopy(const ExampleModel &example,
                  const LegalizePipelineOptions &options);

/// Renders and drops an error (a failure is a valid answer to bad input).
void consume(llvm::Error error);
template <typename T> void consume(llvm::Expected<T> &value) {
  if (!value)
    consume(value.takeError());
}

/// Aborts with `what` when a property of accepted input does not hold: a
/// crash libFuzzer reports and keeps, like a sanitizer's.
void require(bool holds, llvm::StringRef what);

} // namespace prec::fuzz

#endif // PREC_TOOLS_FUZZ_FUZZSUPPORT_H
