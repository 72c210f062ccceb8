//===- PrecisionTypes.h - the element types prec assigns --------*- C++ -*-===//
//
// The element types an op may compute, accumulate or store in, and how users
// spell them on command lines and in plan files.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DIALECTS_PRECISION_PRECISIONTYPES_H
#define PREC_DIALECTS_PRECISION_PRECISIONTYPES_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

namespace prec::precision {

/// Whether `type` is one of f32, f16, bf16, i8, f8E4M3FN, f8E5M2.
bool isPrecisionType(mlir::Type type);

/// Whether `type` is a precision that needs dynamic ranges (scales): i8 and
/// the f8 types.
bool isQuantizedPrecision(mlir::Type type);

/// Parses a precision as users write it: MLIR's spelling (`f16`, `f8E4M3FN`)
/// or the PyTorch / TensorRT one (`float16`, `half`, `int8`, `fp8`).
/// Returns a null type for anything else.
mlir::Type parsePrecisionType(mlir::MLIRContext *context, llvm::StringRef name);

/// The accepted spellings, for error messages.
llvm::StringRef getPrecisionTypeSpellings();

/// Whether every value of `narrow` is exactly representable in `wide`
/// (f32 holds f16 and bf16; f16 and bf16 do not hold each other).
bool canRepresentAllValues(mlir::Type wide, mlir::Type narrow);

} // namespace prec::precision

#endif // PREC_DIALECTS_PRECISION_PRECISIONTYPES_H
