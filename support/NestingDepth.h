//===- NestingDepth.h - a bound on nested brackets in input ----*- C++ -*-===//
//
// MLIR's parser and llvm::json recurse once per nesting level: text nested
// a hundred thousand brackets deep overflows the stack before either can
// say what is wrong. prec measures the nesting of every MLIR and JSON text
// it reads before parsing it; real models and files nest a few tens deep.
//
//===----------------------------------------------------------------------===//
#ifndef PREC_SUPPORT_NESTINGDEPTH_H
#define PREC_SUPPORT_NESTINGDEPTH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace prec {

/// The deepest nesting of ( [ { < prec parses.
constexpr unsigned kMaxNestingDepth = 256;

/// An error "NAME:LINE:COL: brackets nest more than 256 deep" (with no
/// name, "line LINE, column COL: ...") where `text` (MLIR or JSON) first
/// nests deeper than kMaxNestingDepth. Brackets in string literals and
/// comments do not count, nor the > of `->` and `>=`. MLIR bytecode is not
/// text and passes.
llvm::Error checkNestingDepth(llvm::StringRef text, llvm::StringRef name);

} // namespace prec

#endif // PREC_SUPPORT_NESTINGDEPTH_H
