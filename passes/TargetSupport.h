//===- TargetSupport.h - which op classes run in which types ----*- C++ -*-===//
//
// The one support table of prec: for each target, the element types each op
// class has an implementation in. Legalization checks every choice against
// it and falls back along `getFallbackChain`.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_TARGETSUPPORT_H
#define PREC_PASSES_TARGETSUPPORT_H

#include "dialects/Precision/PrecisionOpInterface.h"

#include "dialects/Precision/Target.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"

#include <optional>
#include <string>

namespace prec {

/// Whether `target` runs ops of `opClass` computing in `type`.
bool isSupported(const precision::Target &target, OpClass opClass,
                 mlir::Type type);

/// Why `target` does not run `opClass` in `type`, in words
/// ("bf16 needs sm_80 or later"). Only meaningful when unsupported.
std::string explainUnsupported(const precision::Target &target, OpClass opClass,
                               mlir::Type type);

/// Why `target` cannot run this particular `op` in `type` although its
/// class runs in it: cuBLASLt's 8-bit GEMMs need the reduced dimension K to
/// be a multiple of 16 (convolutions pad theirs; a matmul's activations
/// cannot be) and its f8 GEMMs N to be a multiple of 8. None when it can.
std::optional<std::string>
explainShapeUnsupported(const precision::Target &target, mlir::Operation *op,
                        mlir::Type type);

/// The nearest wider type than `type` that `target` runs `opClass` in and
/// that holds every value of `type`; f32 runs everywhere, so there always
/// is one.
mlir::Type getFallbackType(const precision::Target &target, OpClass opClass,
                           mlir::Type type);

} // namespace prec

#endif // PREC_PASSES_TARGETSUPPORT_H
