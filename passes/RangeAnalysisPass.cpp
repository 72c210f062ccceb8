//===- RangeAnalysisPass.cpp - record value ranges on the IR --------------===//

#include "passes/Passes.h"

#include "dialects/Utils/Attributes.h"
#include "dialects/Utils/OpNames.h"
#include "passes/RangeAnalysis.h"

#include "dialects/Precision/PrecisionDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <cmath>

namespace prec {
#define GEN_PASS_DEF_PRECRANGEANALYSIS
#include "passes/Passes.h.inc"
} // namespace prec

using namespace mlir;
using namespace prec;

namespace {

struct NamedRange {
  std::string name;
  Interval range;
  bool used = false;
};

/// Parses `name:[lo,hi]`, Polygraphy's --val-range syntax.
static FailureOr<NamedRange>
parseValRange(StringRef entry, function_ref<InFlightDiagnostic()> emitError) {
  size_t colon = entry.rfind(":[");
  auto malformed = [&] {
    emitError() << "val-range entry '" << entry
                << "' is not <input>:[<lo>,<hi>]";
    return failure();
  };
  if (colon == StringRef::npos || colon == 0 || !entry.ends_with("]"))
    return malformed();
  StringRef bounds = entry.drop_front(colon + 2).drop_back();
  auto [loText, hiText] = bounds.split(',');
  double lo = 0, hi = 0;
  if (loText.trim().getAsDouble(lo) || hiText.trim().getAsDouble(hi))
    return malformed();
  if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi) {
    emitError() << "val-range entry '" << entry
                << "' needs finite bounds with lo <= hi";
    return failure();
  }
  return NamedRange{entry.take_front(colon).str(), Interval{lo, hi}};
}

class RangeAnalysisPass
    : public prec::impl::PrecRangeAnalysisBase<RangeAnalysisPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::vector<NamedRange> inputRanges;
    for (const std::string &entry : valRanges) {
      FailureOr<NamedRange> parsed =
          parseValRange(entry, [&] { return emitError(module.getLoc()); });
      if (failed(parsed))
        return signalPassFailure();
      inputRanges.push_back(*parsed);
    }

    Builder builder(&getContext());
    // Names made attributes once, not looked up again for every op.
    StringAttr rangeName =
        builder.getStringAttr(precision::PrecisionDialect::getRangeAttrName());
    StringAttr looseName = builder.getStringAttr(
        precision::PrecisionDialect::getLooseRangeAttrName());
    auto toAttr = [&](const Interval &range) {
      return builder.getDenseF64ArrayAttr({range.lo, range.hi});
    };

    DenseMap<Value, Interval> argumentRanges;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      for (BlockArgument argument : function.getArguments()) {
        std::optional<Interval> range;
        if (auto recorded = function.getArgAttrOfType<DenseF64ArrayAttr>(
                argument.getArgNumber(), rangeName))
          range = Interval{recorded[0], recorded[1]};
        std::string name = getBindingName(argument);
        for (NamedRange &input : inputRanges) {
          if (input.name != name)
            continue;
          range = input.range;
          input.used = true;
          function.setArgAttr(argument.getArgNumber(), rangeName,
                              toAttr(input.range));
        }
        if (range)
          argumentRanges[argument] = *range;
      }
    }

    RangeAnalysis analysis(module, argumentRanges);
    for (auto function : module.getOps<func::FuncOp>())
      function.walk([&](Operation *op) {
        if (op->getNumResults() != 1 || op == function.getOperation())
          return;
        Interval range = analysis.getRange(op->getResult(0));
        if (range.isUnknown() || std::isnan(range.lo) || std::isnan(range.hi))
          return;
        bool loose = !analysis.isReached(op->getResult(0));
        updateDiscardableAttrs(op, [&](NamedAttrList &attributes) {
          attributes.set(rangeName, toAttr(range));
          if (loose)
            attributes.set(looseName, builder.getUnitAttr());
          else
            attributes.erase(looseName);
        });
      });

    for (const NamedRange &input : inputRanges) {
      if (input.used)
        continue;
      std::string known;
      for (auto function : module.getOps<func::FuncOp>())
        for (BlockArgument argument : function.getArguments())
          known += (known.empty() ? "" : ", ") + getBindingName(argument);
      emitError(module.getLoc()) << "val-range names input '" << input.name
                                 << "', but the inputs are: " << known;
      return signalPassFailure();
    }
  }
};

} // namespace
