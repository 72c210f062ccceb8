//===- BlasContractions.h - BLAS for JIT-compiled contractions --*- C++ -*-===//
//
// The functions prec-blas-contractions calls (lowering/BlasContractions.h),
// for the JIT to resolve: OpenBLAS sgemm, whose threads use every core.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_RUNTIME_BLASCONTRACTIONS_H
#define PREC_RUNTIME_BLASCONTRACTIONS_H

#include "llvm/ExecutionEngine/Orc/Mangling.h"

namespace prec {

/// The C-interface entry points of the prec_blas_* functions.
llvm::orc::SymbolMap
getBlasContractionSymbols(llvm::orc::MangleAndInterner interner);

} // namespace prec

#endif // PREC_RUNTIME_BLASCONTRACTIONS_H
