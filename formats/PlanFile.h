//===- PlanFile.h - precision plans --------------------------*- C++ -*-===//
//
// A precision plan is the programmatic counterpart of Polygraphy's network
// post-processing script, and what `prec-debug` writes. Schema (version 1):
//
//   {
//     "version": 1,
//     "ops": [                       // per-op requests; the last match wins
//       {"name": "Add",              // glob on the op's name (NameLoc)
//        "op": "tosa.add",           // glob on the op name; name, op or both
//        "compute": "f16",           // at least one of compute and output
//        "accumulate": "f32",        // optional
//        "output": "f16",            // optional storage type
//        "mode": "obey"}             // optional: obey | prefer | none
//     ],
//     "classes": [                   // op-class rules; the last match wins
//       {"class": "contraction", "compute": "bf16", "accumulate": "f32",
//        "output": "bf16", "mode": "prefer"}
//     ]
//   }
//
// Types are spelled as on the command line (f16, float16, int8, ...). An op
// entry outranks a `layer-precisions` pattern, which outranks an enclosing
// `precision.region`, which outranks a class rule (see prec-annotate).
//
//===----------------------------------------------------------------------===//

#ifndef PREC_FORMATS_PLANFILE_H
#define PREC_FORMATS_PLANFILE_H

#include "dialects/Precision/OpClass.h"
#include "dialects/Utils/OpNames.h"

#include "dialects/Precision/PrecisionAttrs.h"

#include "mlir/IR/Types.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace prec {

struct PlanRequest {
  mlir::Type compute;    // null: not set
  mlir::Type accumulate; // null: not set
  mlir::Type output;     // null: not set
  std::optional<precision::ConstraintMode> mode;
};

struct PlanOpEntry {
  std::optional<NamePattern> name;
  std::optional<NamePattern> opName;
  PlanRequest request;

  bool matches(mlir::Operation *op) const;
};

struct PlanClassRule {
  OpClass opClass;
  PlanRequest request;
};

struct PrecisionPlan {
  std::vector<PlanOpEntry> ops;
  std::vector<PlanClassRule> classes;
};

/// Parses a plan from JSON text; errors say where in the document.
llvm::Expected<PrecisionPlan> parsePlan(llvm::StringRef text,
                                        mlir::MLIRContext *context);

/// The plan as JSON text that parsePlan reads back.
std::string serializePlan(const PrecisionPlan &plan);

/// Reads and parses the plan file at `path`; errors name the file.
llvm::Expected<PrecisionPlan> loadPlanFile(llvm::StringRef path,
                                           mlir::MLIRContext *context);

} // namespace prec

#endif // PREC_FORMATS_PLANFILE_H
