//===- EngineDialect.h - the engine plan ------------------------*- C++ -*-===//
//
// Attributes that record how a lowered function runs as a CUDA engine, and
// the ops that stand for kernels replacing several ops: set by lowering/'s
// plan passes, read by codegen/'s emitter.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DIALECTS_ENGINE_ENGINEDIALECT_H
#define PREC_DIALECTS_ENGINE_ENGINEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/Engine/EngineEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Engine/EngineAttrs.h.inc"

#include "dialects/Engine/EngineDialect.h.inc"

#define GET_OP_CLASSES
#include "dialects/Engine/EngineOps.h.inc"

#endif // PREC_DIALECTS_ENGINE_ENGINEDIALECT_H
