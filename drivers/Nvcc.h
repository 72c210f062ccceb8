//===- Nvcc.h - compiling emitted engines with nvcc -------------*- C++ -*-===//
//
// What prec-build and the tools that run engines (prec-debug and
// prec-calibrate --device gpu) share to turn an emitted engine into a
// shared library: finding nvcc, its command line for the module's target,
// the libraries the engine's manifest names, and running it.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DRIVERS_NVCC_H
#define PREC_DRIVERS_NVCC_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace prec {

/// nvcc: `requested` (a path, or a name looked up on PATH) when given,
/// else nvcc on PATH, then in /usr/local/cuda/bin; none when not found.
std::optional<std::string> findNvcc(llvm::StringRef requested);

/// findNvcc's nvcc, or an error saying where it was looked for.
llvm::Expected<std::string> requireNvcc(llvm::StringRef requested);

/// nvcc's -arch for a legalized module: its policy's target (sm_90 when it
/// has none), with sm_90's architecture-specific features (wgmma), which
/// prec's kernels use where they are compiled in.
std::string getNvccArch(mlir::ModuleOp module);

/// The libraries an engine's manifest (`<engine>.json`) says it links.
llvm::Expected<std::vector<std::string>>
readManifestLibraries(llvm::StringRef path);

/// An nvcc command line: optimized, for `arch`, then `arguments`, then the
/// engine's libraries.
std::vector<std::string> nvccCommand(llvm::StringRef nvcc, llvm::StringRef arch,
                                     llvm::ArrayRef<std::string> arguments,
                                     llvm::ArrayRef<std::string> libraries);

/// Runs `command`, its output into `log`; on failure the error carries the
/// log's last lines.
llvm::Error execute(llvm::ArrayRef<std::string> command, llvm::StringRef log);

/// Shell-quotes `command` into one line.
std::string quoteCommand(llvm::ArrayRef<std::string> command);

} // namespace prec

#endif // PREC_DRIVERS_NVCC_H
