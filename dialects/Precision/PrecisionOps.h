//===- PrecisionOps.h - precision dialect ops -------------------*- C++ -*-===//

#ifndef PREC_DIALECTS_PRECISION_PRECISIONOPS_H
#define PREC_DIALECTS_PRECISION_PRECISIONOPS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/Precision/PrecisionAttrs.h"
#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Precision/PrecisionOpInterface.h"

#define GET_OP_CLASSES
#include "dialects/Precision/PrecisionOps.h.inc"

#endif // PREC_DIALECTS_PRECISION_PRECISIONOPS_H
