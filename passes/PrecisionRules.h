//===- PrecisionRules.h - the rules that choose an op's types ---*- C++ -*-===//
//
// The precision model of DESIGN.md as functions: which ops get types, what
// an op follows, its default accumulate type, layer casting. prec-propagate
// proposes with them and prec-legalize-types re-applies the follow rule
// after promotions.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_PRECISIONRULES_H
#define PREC_PASSES_PRECISIONRULES_H

#include "passes/Normalization.h"

#include "dialects/Precision/PrecisionAttrs.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"

namespace prec {

/// The module's policy, or the default policy if it has none.
precision::PolicyAttr getPolicy(mlir::ModuleOp module);

/// Whether `op` gets a `precision.assigned`: an op of a known class with a
/// float tensor result.
bool isAssignable(mlir::Operation *op);

/// The element type of `op`'s first float tensor result, as in the IR.
mlir::Type getResultElementType(mlir::Operation *op);

/// The narrowest enabled float precision for ops the compiler is free to
/// lower: f16, else bf16, else f32. (i8 and f8 need scales, so they are
/// only ever requested.)
mlir::Type getLowestEnabledFloat(precision::PolicyAttr policy);

/// The accumulate type of `op` computing in `compute` when nobody asked for
/// one: f32 for reduced float contractions and sums, i32 for i8, else
/// `compute`.
mlir::Type getDefaultAccumulate(mlir::Operation *op, mlir::Type compute);

/// The accumulate type the IR itself states (strong typing): a conv's
/// `acc_type`, a matmul's result type, else `compute`.
mlir::Type getIRAccumulate(mlir::Operation *op, mlir::Type compute);

/// The narrowest type holding every value of both `a` and `b` (f16 and bf16
/// join to f32).
mlir::Type joinTypes(mlir::Type a, mlir::Type b);

/// The storage type `op`'s producers hand it, joined over its float
/// operands; null when every operand is a binding or a constant (they pin
/// nothing). Looks through precision.region boundaries.
mlir::Type followProducers(mlir::Operation *op);

/// The follow rule of weak typing: the join of the producers' storage types
/// (reason Follow), or the lowest enabled precision when only bindings and
/// constants feed the op (reason Inputs). A joined type that is not
/// enabled gives way to f32: the compiler only chooses enabled types.
std::pair<mlir::Type, precision::Reason>
applyFollowRule(mlir::Operation *op, precision::PolicyAttr policy);

/// The normalization rule: statistics compute and store in f32; an op
/// applying them computes in f32 and stores the type its normalized input
/// comes in, as the follow rule would for that input alone. Null types for
/// ops outside normalizations.
std::pair<mlir::Type, mlir::Type>
applyNormalizationRule(mlir::Operation *op,
                       const NormalizationAnalysis &normalizations,
                       precision::PolicyAttr policy);

/// Layer casting: the element type of a contraction's constant weights
/// (through casts) when it is a reduced float type; null otherwise.
mlir::Type getReducedWeightType(mlir::Operation *op);

} // namespace prec

#endif // PREC_PASSES_PRECISIONRULES_H
