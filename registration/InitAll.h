//===- InitAll.h - everything prec's tools register -------------*- C++ -*-===//

#ifndef PREC_REGISTRATION_INITALL_H
#define PREC_REGISTRATION_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace prec {

/// Registers the precision dialect with every upstream dialect, interface
/// model and extension, and prec's own models of upstream ops. The pipelines go from TOSA through linalg,
/// bufferization and vector down to LLVM and GPU, and the external models
/// those passes rely on are registered together with the dialects upstream.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers prec's passes and pipelines with the upstream ones.
void registerAllPasses();

} // namespace prec

#endif // PREC_REGISTRATION_INITALL_H
