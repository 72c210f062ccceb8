//===- PrecisionAttrs.h - precision dialect attributes ----------*- C++ -*-===//

#ifndef PREC_DIALECTS_PRECISION_PRECISIONATTRS_H
#define PREC_DIALECTS_PRECISION_PRECISIONATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "dialects/Precision/PrecisionEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Precision/PrecisionAttrs.h.inc"

#endif // PREC_DIALECTS_PRECISION_PRECISIONATTRS_H
