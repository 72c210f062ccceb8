//===- OpClass.h - the op classes precision rules speak of -----*- C++ -*-===//
//
// The built-in rules (DESIGN.md, "Op classes") and the target support table
// speak of classes of ops rather than of single ops: contractions prefer low
// precision, numerically sensitive ops stay f32, the rest follow their
// producers. Plan files name these classes too.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DIALECTS_PRECISION_OPCLASS_H
#define PREC_DIALECTS_PRECISION_OPCLASS_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace prec {

enum class OpClass {
  Contraction,  // matmul, conv, fully connected: GEMM-like, accumulate
  Sensitive,    // exp, log, pow, reciprocal, rsqrt, long sum reductions
  Reduction,    // other reductions (max, min, short sums)
  Pooling,      // max / average pooling
  Elementwise,  // arithmetic and activations element by element
  DataMovement, // reshape, transpose, slice, concat, pad, gather ...
  Cast,         // casts the model asked for
  Other,        // anything prec does not assign a precision to
};

/// `contraction`, `sensitive`, ... as plan files and reports spell them.
llvm::StringRef getOpClassName(OpClass opClass);
std::optional<OpClass> parseOpClassName(llvm::StringRef name);

/// The accepted class names, for error messages.
llvm::StringRef getOpClassSpellings();

} // namespace prec

#endif // PREC_DIALECTS_PRECISION_OPCLASS_H
