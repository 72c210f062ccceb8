//===- Target.h - names of the targets prec compiles for -------*- C++ -*-===//
//
// A target is `cpu` (every type, emulated) or an NVIDIA GPU architecture
// `sm_XY` (optionally with the arch-specific `a` suffix, e.g. `sm_90a`).
// Which op classes run in which types on which target is the support table in
// passes/TargetSupport; this file only names the targets.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DIALECTS_PRECISION_TARGET_H
#define PREC_DIALECTS_PRECISION_TARGET_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace prec::precision {

struct Target {
  /// Compute capability times ten (sm_90 -> 90); 0 for the CPU.
  unsigned computeCapability = 0;

  bool isCpu() const { return computeCapability == 0; }
};

/// Parses `cpu` or `sm_XY[a]` for a compute capability NVIDIA ships
/// (5.3 and later). Returns std::nullopt for anything else.
std::optional<Target> parseTarget(llvm::StringRef name);

/// The accepted names, for error messages.
llvm::StringRef getTargetSpellings();

} // namespace prec::precision

#endif // PREC_DIALECTS_PRECISION_TARGET_H
