//===- TargetSupport.h - which op classes run in which types ----*- C++ -*-===//
//
// The one support table of prec: for each target, the element types each op
// class has an implementation in. Legalization checks every choice against
// it and falls back along `getFallbackChain`.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_TARGETSUPPORT_H
#define PREC_PASSES_TARGETSUPPORT_H

#include "passes/OpClasses.h"

#include "dialects/Precision/Target.h"

#include "mlir/IR/Types.h"

#include <string>

namespace prec {

/// Whether `target` runs ops of `opClass` computing in `type`.
bool isSupported(const precision::Target &target, OpClass opClass,
                 mlir::Type type);

/// Why `target` does not run `opClass` in `type`, in words
/// ("bf16 needs sm_80 or later"). Only meaningful when unsupported.
std::string explainUnsupported(const precision::Target &target, OpClass opClass,
                               mlir::Type type);

/// The nearest wider type than `type` that `target` runs `opClass` in and
/// that holds every value of `type`; f32 runs everywhere, so there always
/// is one.
mlir::Type getFallbackType(const precision::Target &target, OpClass opClass,
                           mlir::Type type);

} // namespace prec

#endif // PREC_PASSES_TARGETSUPPORT_H
