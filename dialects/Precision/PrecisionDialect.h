//===- PrecisionDialect.h - the precision dialect ---------------*- C++ -*-===//

#ifndef PREC_DIALECTS_PRECISION_PRECISIONDIALECT_H
#define PREC_DIALECTS_PRECISION_PRECISIONDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dialects/Precision/PrecisionDialect.h.inc"

#endif // PREC_DIALECTS_PRECISION_PRECISIONDIALECT_H
