//===- ReportGraph.cpp - the precision report as a picture ----------------===//

#include "passes/ReportGraph.h"

#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Precision/PrecisionOps.h"
#include "dialects/Utils/OpNames.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cmath>

using namespace mlir;
using namespace prec::precision;

namespace prec {

llvm::StringRef getComputeColor(llvm::StringRef type) {
  return llvm::StringSwitch<llvm::StringRef>(type)
      .Case("f32", "#d9d9d9")
      .Case("f16", "#a6d96a")
      .Case("bf16", "#66c2a5")
      .Case("i8", "#fdae61")
      .StartsWith("f8", "#f46d43")
      .Default("#ffffff");
}

namespace {

/// The error bands of prec-debug's picture, relative to the largest error
/// a layer introduces: at least half of it, a tenth, a hundredth, more than
/// nothing, and none measured.
struct ErrorBand {
  double atLeast;
  const char *color, *label;
};
constexpr ErrorBand errorBands[] = {
    {0.5, "#cb181d", ">= 50% of the worst, or inf"},
    {0.1, "#fb6a4a", ">= 10%"},
    {0.01, "#fcae91", ">= 1%"},
    {0.0, "#fee5d9", "< 1%"}};
constexpr const char *unmeasuredColor = "#ffffff";

/// The band of `error` against the largest finite error `worst`; an
/// infinite or NaN error is the worst band.
llvm::StringRef errorColor(double error, double worst) {
  if (!std::isfinite(error))
    return errorBands[0].color;
  if (!(error > 0))
    return unmeasuredColor;
  for (const ErrorBand &band : errorBands)
    if (error >= band.atLeast * worst)
      return band.color;
  return unmeasuredColor;
}

std::string escape(llvm::StringRef text) {
  std::string escaped;
  for (char c : text) {
    if (c == '"' || c == '\\')
      escaped += '\\';
    escaped += c == '\n' ? std::string("\\n") : std::string(1, c);
  }
  return escaped;
}

std::string shortened(llvm::StringRef text, size_t width) {
  return text.size() <= width ? text.str()
                              : text.take_front(width - 3).str() + "...";
}

/// One function's nodes and edges.
class GraphPrinter {
public:
  GraphPrinter(func::FuncOp function, bool reducedEnabled,
               const ReportGraphOverlay &overlay, double worst, int &count,
               llvm::raw_ostream &os)
      : function(function), reducedEnabled(reducedEnabled), overlay(overlay),
        worst(worst), count(count), os(os) {}

  void print() {
    std::string prefix = function.getName().str();
    os << "  subgraph \"cluster_" << escape(prefix) << "\" {\n    label=\"@"
       << escape(prefix) << "\";\n";
    for (BlockArgument argument : function.getArguments()) {
      std::string id = newNode();
      nodes[argument] = id;
      os << llvm::formatv(
          "    {0} [shape=ellipse, fillcolor=\"#ffffff\", label=\"{1}\"];\n",
          id, escape(argumentLabel(argument)));
    }
    function.walk([&](Operation *op) { printOp(op); });
    function.walk([&](func::ReturnOp ret) { printOutputs(ret); });
    os << "  }\n";
  }

private:
  std::string newNode() { return "n" + std::to_string(count++); }

  std::string argumentLabel(BlockArgument argument) {
    auto name = function.getArgAttrOfType<StringAttr>(argument.getArgNumber(),
                                                      "precision.name");
    std::string label =
        name ? name.str() : "%arg" + std::to_string(argument.getArgNumber());
    return label + "\n" + getTypeName(argument.getType());
  }

  void printOp(Operation *op) {
    bool cast = op->hasAttr(PrecisionDialect::getInsertedCastAttrName());
    auto assignment = op->getAttrOfType<AssignmentAttr>(
        PrecisionDialect::getAssignmentAttrName());
    if (!cast && !assignment)
      return;
    std::string id = newNode();
    for (Value result : op->getResults())
      nodes[result] = id;
    if (cast) {
      Type from = getElementTypeOrSelf(op->getOperand(0).getType());
      Type to = getElementTypeOrSelf(op->getResult(0).getType());
      os << llvm::formatv(
          "    {0} [shape=diamond, color=\"#d62728\", penwidth=2, "
          "fillcolor=\"{1}\", label=\"cast\\n{2} to {3}\"];\n",
          id, getComputeColor(getTypeName(to)), escape(getTypeName(from)),
          escape(getTypeName(to)));
    } else {
      std::string compute = getTypeName(assignment.getCompute());
      llvm::StringRef layer = getLayerName(op);
      std::string label =
          layer.empty() ? op->getName().getStringRef().str() : layer.str();
      label += "\n" + op->getName().getStringRef().str() + "\n" + compute;
      if (Type accumulate = assignment.getAccumulate();
          accumulate && accumulate != assignment.getCompute())
        label += ", accumulate " + getTypeName(accumulate);
      std::string reason = stringifyReason(assignment.getReason()).str();
      std::string detail = assignment.getDetail().str();
      // Why an op stayed in f32 is what a user of reduced precision asks.
      if (reducedEnabled && compute == "f32")
        label += "\nf32: " + reason +
                 (detail.empty() ? "" : ": " + shortened(detail, 48));
      std::string fill = getComputeColor(compute).str(), border;
      if (!overlay.errors.empty()) {
        auto error = overlay.errors.find(layer);
        double introduced = error == overlay.errors.end() ? 0.0 : error->second;
        fill = errorColor(introduced, worst).str();
        if (!std::isfinite(introduced))
          label += std::isnan(introduced) ? "\nerror nan" : "\nerror inf";
        else if (introduced > 0)
          label += llvm::formatv("\nerror {0:e2}", introduced).str();
      }
      if (!layer.empty() && overlay.kept.contains(layer)) {
        label += "\nkept";
        border = ", color=\"#2171b5\", penwidth=3";
      }
      os << llvm::formatv(
          "    {0} [fillcolor=\"{1}\"{2}, label=\"{3}\", "
          "tooltip=\"{4}\"];\n",
          id, fill, border, escape(label),
          escape(reason + (detail.empty() ? "" : ": ") + detail));
    }
    for (Value operand : op->getOperands())
      printEdge(operand, id);
  }

  void printOutputs(func::ReturnOp ret) {
    for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
      std::string id = newNode();
      os << llvm::formatv("    {0} [shape=ellipse, fillcolor=\"#ffffff\", "
                          "label=\"output {1}\\n{2}\"];\n",
                          id, index, escape(getTypeName(value.getType())));
      printEdge(value, id);
    }
  }

  /// The drawn nodes `value` comes from: its producer's, or, through
  /// what is not drawn (regions, epilogue conversions, ops on constants),
  /// those of the values it was computed from; none for constants.
  const llvm::SmallVector<std::string, 1> &sources(Value value) {
    if (auto it = sourcesOf.find(value); it != sourcesOf.end())
      return it->second;
    llvm::SmallVector<std::string, 1> found;
    auto add = [&](Value from) {
      for (const std::string &node : sources(from))
        if (!llvm::is_contained(found, node))
          found.push_back(node);
    };
    if (auto it = nodes.find(value); it != nodes.end()) {
      found.push_back(it->second);
    } else if (auto argument = dyn_cast<BlockArgument>(value)) {
      if (auto region = dyn_cast<RegionOp>(argument.getOwner()->getParentOp()))
        add(region.getInputs()[argument.getArgNumber()]);
    } else if (auto region = value.getDefiningOp<RegionOp>()) {
      auto yield = cast<YieldOp>(region.getBodyBlock().getTerminator());
      add(yield.getValues()[cast<OpResult>(value).getResultNumber()]);
    } else {
      for (Value operand : value.getDefiningOp()->getOperands())
        add(operand);
    }
    return sourcesOf[value] = std::move(found);
  }

  void printEdge(Value from, llvm::StringRef to) {
    for (const std::string &node : sources(from))
      os << "    " << node << " -> " << to << ";\n";
  }

  func::FuncOp function;
  bool reducedEnabled;
  const ReportGraphOverlay &overlay;
  double worst; // the largest finite error a layer introduces
  int &count;
  llvm::raw_ostream &os;
  llvm::DenseMap<Value, std::string> nodes;
  llvm::DenseMap<Value, llvm::SmallVector<std::string, 1>> sourcesOf;
};

} // namespace

/// The legend: compute types, or the error bands where errors are drawn.
void printLegend(bool errors, bool kept, llvm::raw_ostream &os) {
  os << "  subgraph cluster_legend {\n";
  if (errors) {
    os << "    label=\"error introduced\";\n";
    for (auto [index, band] : llvm::enumerate(errorBands))
      os << llvm::formatv(
          "    legend_error{0} [label=\"{1}\", fillcolor=\"{2}\"];\n", index,
          band.label, band.color);
    os << "    legend_error_none [label=\"0, or not measured\", "
          "fillcolor=\"#ffffff\"];\n";
  } else {
    os << "    label=\"compute type\";\n";
    for (llvm::StringRef type : {"f32", "f16", "bf16", "i8", "f8"})
      os << llvm::formatv(
          "    legend_{0} [label=\"{0}\", fillcolor=\"{1}\"];\n", type,
          getComputeColor(type));
  }
  if (kept)
    os << "    legend_kept [label=\"kept in the higher precision\", "
          "fillcolor=\"#ffffff\", color=\"#2171b5\", penwidth=3];\n";
  os << "    legend_cast [shape=diamond, color=\"#d62728\", penwidth=2, "
        "fillcolor=\"#ffffff\", label=\"inserted cast\"];\n  }\n";
}

void printReportGraph(ModuleOp module, llvm::raw_ostream &os,
                      const ReportGraphOverlay &overlay) {
  auto policy =
      module->getAttrOfType<PolicyAttr>(PrecisionDialect::getPolicyAttrName());
  bool reducedEnabled = policy && !policy.getEnabled().empty();
  os << "digraph precision {\n  rankdir=TB;\n"
        "  node [shape=box, style=\"filled,rounded\", fontname=\"Helvetica\", "
        "fontsize=10];\n  edge [color=\"#555555\"];\n";
  double worst = 0; // the largest finite error
  for (const auto &entry : overlay.errors)
    if (std::isfinite(entry.getValue()))
      worst = std::max(worst, entry.getValue());
  printLegend(!overlay.errors.empty(), !overlay.kept.empty(), os);
  int nodes = 0; // numbered across functions
  for (auto function : module.getOps<func::FuncOp>())
    GraphPrinter(function, reducedEnabled, overlay, worst, nodes, os).print();
  os << "}\n";
}

llvm::Expected<std::optional<std::string>>
findReportGraphRenderer(llvm::StringRef path) {
  llvm::StringRef extension = llvm::sys::path::extension(path);
  if (extension == ".dot" || extension == ".gv")
    return std::nullopt;
  if (extension != ".svg" && extension != ".png" && extension != ".pdf")
    return llvm::createStringError("report-graph '" + path +
                                   "': name a .dot, .svg, .png or .pdf file");
  llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("dot");
  if (!found)
    return llvm::createStringError(
        "report-graph '" + path +
        "': Graphviz's dot is not installed (the Debian package graphviz); a "
        ".dot file needs no Graphviz");
  return *found;
}

LogicalResult writeReportGraph(ModuleOp module, llvm::StringRef path,
                               const ReportGraphOverlay &overlay) {
  llvm::Expected<std::optional<std::string>> dotProgram =
      findReportGraphRenderer(path);
  if (!dotProgram)
    return module.emitError() << llvm::toString(dotProgram.takeError());
  bool dotOnly = !*dotProgram;
  std::string dotPath = dotOnly ? path.str() : path.str() + ".dot";
  std::string format = llvm::sys::path::extension(path).drop_front().str();
  {
    std::error_code error;
    llvm::ToolOutputFile file(dotPath, error, llvm::sys::fs::OF_Text);
    if (error)
      return module.emitError() << "cannot write report graph '" << dotPath
                                << "': " << error.message();
    printReportGraph(module, file.os(), overlay);
    file.keep();
  }
  if (dotOnly)
    return success();
  std::string message;
  std::string formatFlag = "-T" + format;
  llvm::StringRef arguments[] = {**dotProgram, formatFlag, dotPath, "-o", path};
  int status = llvm::sys::ExecuteAndWait(**dotProgram, arguments, std::nullopt,
                                         {}, 0, 0, &message);
  llvm::sys::fs::remove(dotPath);
  if (status != 0)
    return module.emitError() << "report-graph: dot failed to draw '" << path
                              << "'" << (message.empty() ? "" : ": " + message);
  return success();
}

} // namespace prec
