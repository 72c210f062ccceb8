//===- PrecisionSearch.cpp - which ops must stay in high precision --------===//

#include "drivers/PrecisionSearch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <numeric>

namespace prec {

llvm::StringRef getSearchModeName(SearchMode mode) {
  switch (mode) {
  case SearchMode::Bisect:
    return "bisect";
  case SearchMode::Linear:
    return "linear";
  case SearchMode::WorstFirst:
    return "worst-first";
  case SearchMode::Delta:
    return "delta";
  }
  llvm_unreachable("unknown search mode");
}

llvm::StringRef getSearchDirectionName(SearchDirection direction) {
  return direction == SearchDirection::Forward ? "forward" : "reverse";
}

namespace {

using Units = std::vector<int>;

/// The oracle behind a cache: each set is evaluated once.
class Evaluator {
public:
  Evaluator(const SearchOracle &oracle, const StepObserver &observe,
            SearchResult &result)
      : oracle(oracle), observe(observe), result(result) {}

  llvm::Expected<Evaluation> operator()(Units marked) {
    llvm::sort(marked);
    if (auto cached = cache.find(marked); cached != cache.end())
      return cached->second;
    llvm::Expected<Evaluation> evaluation = oracle(marked);
    if (!evaluation)
      return evaluation.takeError();
    ++result.evaluations;
    SearchStep step{marked, *evaluation};
    if (observe)
      observe(step);
    result.steps.push_back(std::move(step));
    cache[marked] = *evaluation;
    return *evaluation;
  }

private:
  const SearchOracle &oracle;
  const StepObserver &observe;
  SearchResult &result;
  std::map<Units, Evaluation> cache;
};

/// The first `count` units in the direction's order.
Units prefix(int units, SearchDirection direction, int count) {
  Units marked(count);
  for (int i = 0; i < count; ++i)
    marked[i] = direction == SearchDirection::Forward ? i : units - 1 - i;
  llvm::sort(marked);
  return marked;
}

Units complement(const Units &all, const Units &part) {
  Units rest;
  std::set_difference(all.begin(), all.end(), part.begin(), part.end(),
                      std::back_inserter(rest));
  return rest;
}

/// The units of `candidates` that must be marked besides `background`
/// (which fails alone unless `backgroundGrew` is false), by halving the
/// candidates: QuickXplain's recursion, O(k log(n / k)) evaluations for k
/// needed units of n when marking more never hurts.
llvm::Expected<Units> findNeeded(const Units &background, bool backgroundGrew,
                                 const Units &candidates, Evaluator &evaluate) {
  if (backgroundGrew) {
    llvm::Expected<Evaluation> evaluation = evaluate(background);
    if (!evaluation)
      return evaluation.takeError();
    if (evaluation->passed)
      return Units();
  }
  if (candidates.size() == 1)
    return candidates;
  Units first(candidates.begin(), candidates.begin() + candidates.size() / 2);
  Units second(candidates.begin() + candidates.size() / 2, candidates.end());
  Units withFirst(background);
  withFirst.insert(withFirst.end(), first.begin(), first.end());
  llvm::Expected<Units> neededOfSecond =
      findNeeded(withFirst, !first.empty(), second, evaluate);
  if (!neededOfSecond)
    return neededOfSecond.takeError();
  Units withNeeded(background);
  withNeeded.insert(withNeeded.end(), neededOfSecond->begin(),
                    neededOfSecond->end());
  llvm::Expected<Units> neededOfFirst =
      findNeeded(withNeeded, !neededOfSecond->empty(), first, evaluate);
  if (!neededOfFirst)
    return neededOfFirst.takeError();
  neededOfFirst->insert(neededOfFirst->end(), neededOfSecond->begin(),
                        neededOfSecond->end());
  return neededOfFirst;
}

/// A passing set from which no single unit can be dropped.
llvm::Expected<Units> dropUnneeded(Units marked, Evaluator &evaluate) {
  for (int unit : Units(marked)) {
    Units without;
    llvm::copy_if(marked, std::back_inserter(without),
                  [&](int other) { return other != unit; });
    llvm::Expected<Evaluation> evaluation = evaluate(without);
    if (!evaluation)
      return evaluation.takeError();
    if (evaluation->passed)
      marked = std::move(without);
  }
  llvm::sort(marked);
  return marked;
}

} // namespace

llvm::Expected<SearchResult>
searchPrecision(SearchMode mode, SearchDirection direction, int units,
                llvm::ArrayRef<double> introducedError,
                const SearchOracle &oracle, const StepObserver &observe) {
  SearchResult result;
  Evaluator evaluate(oracle, observe, result);
  auto finish = [&](Units marked) -> llvm::Expected<SearchResult> {
    llvm::Expected<Evaluation> evaluation = evaluate(marked);
    if (!evaluation)
      return evaluation.takeError();
    result.marked = std::move(marked);
    result.evaluation = *evaluation;
    return std::move(result);
  };

  // Nothing marked: the model may pass at the low precision as it is.
  llvm::Expected<Evaluation> none = evaluate({});
  if (!none)
    return none.takeError();
  if (none->passed)
    return finish({});
  Units all(units);
  std::iota(all.begin(), all.end(), 0);
  // Whether marking every unit passes; if not, no marking can.
  auto allMarkedPasses = [&]() -> llvm::Expected<bool> {
    llvm::Expected<Evaluation> everything = evaluate(all);
    if (!everything)
      return everything.takeError();
    result.fixable = everything->passed;
    return result.fixable;
  };

  switch (mode) {
  case SearchMode::Linear:
    // One more unit each step, until the model passes.
    for (int count = 1; count <= units; ++count) {
      llvm::Expected<Evaluation> evaluation =
          evaluate(prefix(units, direction, count));
      if (!evaluation)
        return evaluation.takeError();
      if (evaluation->passed)
        return finish(prefix(units, direction, count));
    }
    result.fixable = false;
    return finish(all);
  case SearchMode::Bisect: {
    // The shortest passing prefix, assuming longer ones pass too.
    llvm::Expected<bool> fixable = allMarkedPasses();
    if (!fixable)
      return fixable.takeError();
    if (!*fixable)
      return finish(all);
    int failing = 0, passing = units;
    while (passing - failing > 1) {
      int middle = (failing + passing) / 2;
      llvm::Expected<Evaluation> evaluation =
          evaluate(prefix(units, direction, middle));
      if (!evaluation)
        return evaluation.takeError();
      (evaluation->passed ? passing : failing) = middle;
    }
    return finish(prefix(units, direction, passing));
  }
  case SearchMode::WorstFirst: {
    // Mark in the order of the error each unit introduces until the model
    // passes, then drop the marked units it passes without.
    Units order(all);
    llvm::stable_sort(order, [&](int a, int b) {
      return introducedError[a] > introducedError[b];
    });
    Units marked;
    bool passed = false;
    for (int unit : order) {
      marked.push_back(unit);
      llvm::Expected<Evaluation> evaluation = evaluate(marked);
      if (!evaluation)
        return evaluation.takeError();
      if ((passed = evaluation->passed))
        break;
    }
    if (!passed) {
      result.fixable = false;
      return finish(all);
    }
    llvm::Expected<Units> needed = dropUnneeded(marked, evaluate);
    if (!needed)
      return needed.takeError();
    return finish(*needed);
  }
  case SearchMode::Delta: {
    llvm::Expected<bool> fixable = allMarkedPasses();
    if (!fixable)
      return fixable.takeError();
    if (!*fixable)
      return finish(all);
    // Halving finds a minimal set when marking more never hurts; trying
    // each unit away makes it 1-minimal in any case.
    llvm::Expected<Units> needed = findNeeded({}, false, all, evaluate);
    if (!needed)
      return needed.takeError();
    llvm::Expected<Units> minimal = dropUnneeded(*needed, evaluate);
    if (!minimal)
      return minimal.takeError();
    return finish(*minimal);
  }
  }
  return finish(all);
}

} // namespace prec
