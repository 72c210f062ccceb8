//===- PrecisionModels.h - prec's knowledge of upstream ops -----*- C++ -*-===//
//
// PrecisionOpInterface for the TOSA and arith ops prec handles, attached as
// external models: adding an op to what prec's passes understand is a line
// in TosaPrecisionModels.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DIALECTS_EXTERNALMODELS_PRECISIONMODELS_H
#define PREC_DIALECTS_EXTERNALMODELS_PRECISIONMODELS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace prec {

/// Attaches PrecisionOpInterface to the TOSA and arith ops prec handles.
void registerPrecisionExternalModels(mlir::DialectRegistry &registry);

} // namespace prec

#endif // PREC_DIALECTS_EXTERNALMODELS_PRECISIONMODELS_H
