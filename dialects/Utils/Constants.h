//===- Constants.h - questions about constant tensors -----------*- C++ -*-===//

#ifndef PREC_DIALECTS_UTILS_CONSTANTS_H
#define PREC_DIALECTS_UTILS_CONSTANTS_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace prec {

/// Whether `value` is a constant (a tosa.const or another constant-like op)
/// whose elements are all zero.
bool isZeroConstant(mlir::Value value);

/// The value of every element of `value`, a tosa.const or arith.constant
/// whose dense float elements are all one value.
std::optional<llvm::APFloat> getFloatSplat(mlir::Value value);

/// `value`, or the source of the cast that widens it from a narrower type
/// (f16 or bf16 weights that the program reads in f32).
mlir::Value lookThroughWidening(mlir::Value value);

/// Whether `value` is a constant, or a constant widened by a cast.
bool isConstantWeights(mlir::Value value);

/// Calls `visit(index, value)` for every element of a float constant, dense
/// or a resource blob (whose bytes are decoded in its element type); false,
/// visiting nothing, for other element types or a blob of the wrong size.
bool forEachFloat(
    mlir::ElementsAttr values,
    llvm::function_ref<void(int64_t, const llvm::APFloat &)> visit);

} // namespace prec

#endif // PREC_DIALECTS_UTILS_CONSTANTS_H
