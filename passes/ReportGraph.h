//===- ReportGraph.h - the precision report as a picture --------*- C++ -*-===//
//
// Draws a legalized function's dataflow with Graphviz: each op the report
// lists is a box filled with its compute type's colour, each inserted cast a
// red diamond, f32 ops in a module that enables reduced precisions say
// why they stayed, and the inputs and outputs are ellipses. Users look at a
// 300-op model rather than read 300 rows.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_PASSES_REPORTGRAPH_H
#define PREC_PASSES_REPORTGRAPH_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace prec {

/// What prec-debug adds to the picture, by layer name: the error each layer
/// introduces on exact inputs (worst-first's measurement), which then fills
/// the boxes instead of the compute type; and the layers its search kept in
/// the higher precision, drawn with a thick blue border.
struct ReportGraphOverlay {
  llvm::StringMap<double> errors;
  llvm::StringSet<> kept;
};

/// The fill colour of ops computing in `type` (as the report spells it:
/// f32, f16, bf16, i8, f8E4M3FN, ...).
llvm::StringRef getComputeColor(llvm::StringRef type);

/// Writes the graph of `module`'s functions in Graphviz's DOT language.
void printReportGraph(mlir::ModuleOp module, llvm::raw_ostream &os,
                      const ReportGraphOverlay &overlay = {});

/// The `dot` that renders `path`, none for a `.dot` file, or why it cannot
/// be drawn (an unknown extension, no Graphviz).
llvm::Expected<std::optional<std::string>>
findReportGraphRenderer(llvm::StringRef path);

/// Writes the graph to `path`: as DOT for `.dot`, else rendered by
/// Graphviz's `dot` in the format the extension names. Errors are emitted
/// on the module.
mlir::LogicalResult writeReportGraph(mlir::ModuleOp module,
                                     llvm::StringRef path,
                                     const ReportGraphOverlay &overlay = {});

} // namespace prec

#endif // PREC_PASSES_REPORTGRAPH_H
