//===- FuzzSupport.cpp - what prec's libFuzzer targets share --------------===//

#include "tools/fuzz/FuzzSupport.h"

#include "registration/InitAll.h"
#include "support/NestingDepth.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace prec::fuzz {

const mlir::DialectRegistry &getRegistry() {
  static const mlir::DialectRegistry registry = [] {
    mlir::DialectRegistry all;
    registerAllDialects(all);
    registerAllPasses();
    return all;
  }();
  return registry;
}

std::unique_ptr<mlir::MLIRContext> makeContext() {
  auto context = std::make_unique<mlir::MLIRContext>(
      getRegistry(), mlir::MLIRContext::Threading::DISABLED);
  context->getDiagEngine().registerHandler([](mlir::Diagnostic &diagnostic) {
    std::string rendered;
    llvm::raw_string_ostream stream(rendered);
    stream << diagnostic.getLocation() << ": " << diagnostic;
    for (const mlir::Diagnostic &note : diagnostic.getNotes())
      stream << note;
    return mlir::success();
  });
  return context;
}

mlir::OwningOpRef<mlir::ModuleOp> parseModule(llvm::StringRef text,
                                              mlir::MLIRContext &context) {
  // As the tools do: MLIR's parser recurses per nesting level.
  if (llvm::Error error = checkNestingDepth(text, "fuzz-input")) {
    consume(std::move(error));
    return nullptr;
  }
  return mlir::parseSourceString<mlir::ModuleOp>(
      text, mlir::ParserConfig(&context), "fuzz-input");
}

std::string readSourceFile(llvm::StringRef relativePath) {
  llvm::SmallString<256> path(PREC_SOURCE_DIR);
  llvm::sys::path::append(path, relativePath);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    llvm::errs() << "fuzz target: cannot read '" << path
                 << "': " << buffer.getError().message() << "\n";
    std::abort();
  }
  return (*buffer)->getBuffer().str();
}

std::string writeScratchFile(llvm::StringRef bytes, llvm::StringRef suffix) {
  llvm::SmallString<256> path;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, path);
  llvm::sys::path::append(
      path,
      "prec-fuzz-" + llvm::Twine(llvm::sys::Process::getProcessId()) + suffix);
  std::error_code error;
  llvm::raw_fd_ostream file(path, error);
  require(!error, "cannot write the scratch file");
  file << bytes;
  file.close();
  require(!file.has_error(), "cannot write the scratch file");
  return path.str().str();
}

ExampleModel::ExampleModel(llvm::StringRef relativePath)
    : context(makeContext()),
      module(parseModule(readSourceFile(relativePath), *context)) {
  require(static_cast<bool>(module), "the example does not parse");
}

void legalizeCopy(const ExampleModel &example,
                  const LegalizePipelineOptions &options) {
  mlir::PassManager pm(example.context.get(),
                       mlir::ModuleOp::getOperationName());
  buildLegalizePipeline(pm, options);
  mlir::ModuleOp original = example.module.get();
  mlir::OwningOpRef<mlir::ModuleOp> copy = original.clone();
  (void)pm.run(*copy);
}

void consume(llvm::Error error) {
  std::string message = llvm::toString(std::move(error));
  (void)message;
}

void require(bool holds, llvm::StringRef what) {
  if (holds)
    return;
  llvm::errs() << "fuzz target: " << what << "\n";
  std::abort();
}

} // namespace prec::fuzz
