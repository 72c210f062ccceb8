//===- PrecisionSearch.h - ops that stay in high precision -----*- C++ -*-===//
//
// The searches of prec-debug over the model's eligible ops ("units", in
// program order): each evaluation runs the model with a set of units
// marked (moved to the higher precision) and the rest at the low one, and
// says whether the outputs pass. Polygraphy's `linear` and `bisect` look
// for a prefix (forward) or suffix (reverse) of units; `worst-first` marks
// units in the order of the error each introduces; `delta` is delta
// debugging over arbitrary sets (divide and conquer, as QuickXplain), which
// returns a 1-minimal set: unmarking any one of its units fails. Evaluations
// are cached by set and counted.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DRIVERS_PRECISIONSEARCH_H
#define PREC_DRIVERS_PRECISIONSEARCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace prec {

enum class SearchMode { Bisect, Linear, WorstFirst, Delta };
enum class SearchDirection { Forward, Reverse };

/// `bisect`, `linear`, ... as prec-debug's --mode spells them.
llvm::StringRef getSearchModeName(SearchMode mode);
/// `forward` or `reverse`, as prec-debug's --dir spells them.
llvm::StringRef getSearchDirectionName(SearchDirection direction);

/// What one run of the model with some units marked gave.
struct Evaluation {
  bool passed = false;
  double error = 0; // the checked error statistic, for the report
};

/// One evaluation as the search made it.
struct SearchStep {
  std::vector<int> marked; // sorted unit indices
  Evaluation evaluation;
};

struct SearchResult {
  /// The marked units of the passing configuration found (sorted), or of
  /// the last one tried when none passed.
  std::vector<int> marked;
  Evaluation evaluation;
  /// Whether the model passes with every unit marked; if not, no marking
  /// can help and `marked` is every unit.
  bool fixable = true;
  int evaluations = 0;
  std::vector<SearchStep> steps;
};

/// Runs the model with `marked` (sorted) at the high precision.
using SearchOracle =
    std::function<llvm::Expected<Evaluation>(llvm::ArrayRef<int> marked)>;
/// Told of every evaluation as it is made (for printing).
using StepObserver = std::function<void(const SearchStep &)>;

/// Searches `units` units. `introducedError` (one per unit) ranks them for
/// worst-first: the larger, the earlier marked.
llvm::Expected<SearchResult>
searchPrecision(SearchMode mode, SearchDirection direction, int units,
                llvm::ArrayRef<double> introducedError,
                const SearchOracle &oracle, const StepObserver &observe = {});

} // namespace prec

#endif // PREC_DRIVERS_PRECISIONSEARCH_H
