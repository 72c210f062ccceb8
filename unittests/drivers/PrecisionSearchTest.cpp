//===- PrecisionSearchTest.cpp - prec-debug's searches --------------------===//

#include "drivers/PrecisionSearch.h"

#include <gtest/gtest.h>

#include <set>

using namespace prec;

namespace {

/// A model of 60 units in which units 7, 23 and 41 fail whenever they run
/// at the low precision, and 15 and 50 fail only together.
struct KnownModel {
  std::set<int> alwaysBad = {7, 23, 41};
  std::pair<int, int> pair = {15, 50};
  int units = 60;

  Evaluation operator()(llvm::ArrayRef<int> marked) const {
    std::set<int> high(marked.begin(), marked.end());
    int problems = 0;
    for (int unit : alwaysBad)
      problems += !high.count(unit);
    problems += !high.count(pair.first) && !high.count(pair.second);
    return {problems == 0, double(problems)};
  }

  SearchOracle oracle() const {
    return [this](llvm::ArrayRef<int> marked) -> llvm::Expected<Evaluation> {
      return (*this)(marked);
    };
  }

  /// What worst-first would measure: the always-bad units introduce the
  /// most error, the pair some, the rest a little.
  std::vector<double> introducedErrors() const {
    std::vector<double> errors(units, 0.01);
    for (int unit : alwaysBad)
      errors[unit] = 1e30;
    errors[pair.first] = errors[pair.second] = 0.5;
    return errors;
  }
};

std::vector<int> range(int begin, int end) {
  std::vector<int> units;
  for (int unit = begin; unit < end; ++unit)
    units.push_back(unit);
  return units;
}

SearchResult run(const KnownModel &model, SearchMode mode,
                 SearchDirection direction = SearchDirection::Forward) {
  llvm::Expected<SearchResult> result = searchPrecision(
      mode, direction, model.units, model.introducedErrors(), model.oracle());
  EXPECT_TRUE(bool(result));
  return result ? *result : SearchResult();
}

TEST(PrecisionSearchTest, DeltaFindsAOneMinimalSet) {
  KnownModel model;
  SearchResult result = run(model, SearchMode::Delta);
  EXPECT_TRUE(result.evaluation.passed);
  EXPECT_TRUE(result.marked == std::vector<int>({7, 15, 23, 41}) ||
              result.marked == std::vector<int>({7, 23, 41, 50}));
  // 1-minimal: unmarking any one unit fails.
  for (int unit : result.marked) {
    std::vector<int> without;
    for (int other : result.marked)
      if (other != unit)
        without.push_back(other);
    EXPECT_FALSE(model(without).passed);
  }
  EXPECT_EQ(result.evaluations, int(result.steps.size()));
}

TEST(PrecisionSearchTest, WorstFirstMarksTheWorstUnits) {
  KnownModel model;
  SearchResult result = run(model, SearchMode::WorstFirst);
  EXPECT_EQ(result.marked, std::vector<int>({7, 15, 23, 41}));
  // Nothing, then 7, 23, 41, 15 marked one by one, then each tried away
  // (without 15 was evaluated already).
  EXPECT_EQ(result.evaluations, 5 + 3);
}

TEST(PrecisionSearchTest, BisectAndLinearFindPolygraphysPrefix) {
  KnownModel model;
  // The shortest prefix holding 7, 23, 41 and 15: units 0..41.
  SearchResult bisect = run(model, SearchMode::Bisect);
  EXPECT_EQ(bisect.marked, range(0, 42));
  SearchResult linear = run(model, SearchMode::Linear);
  EXPECT_EQ(linear.marked, range(0, 42));
  EXPECT_EQ(linear.evaluations, 43); // nothing, then 1 .. 42 units
  EXPECT_LT(bisect.evaluations, 10);
  // Reverse: the shortest suffix holding 7, 23, 41 and 50: units 7..59.
  EXPECT_EQ(run(model, SearchMode::Bisect, SearchDirection::Reverse).marked,
            range(7, 60));
  EXPECT_EQ(run(model, SearchMode::Linear, SearchDirection::Reverse).marked,
            range(7, 60));
  // delta needs fewer evaluations than linear and marks fewer units.
  SearchResult delta = run(model, SearchMode::Delta);
  EXPECT_LT(delta.evaluations, linear.evaluations);
  EXPECT_LT(delta.marked.size(), bisect.marked.size());
}

TEST(PrecisionSearchTest, APassingModelNeedsNothing) {
  for (SearchMode mode : {SearchMode::Bisect, SearchMode::Linear,
                          SearchMode::WorstFirst, SearchMode::Delta}) {
    llvm::Expected<SearchResult> result = searchPrecision(
        mode, SearchDirection::Forward, 10, std::vector<double>(10, 0.0),
        [](llvm::ArrayRef<int>) -> llvm::Expected<Evaluation> {
          return Evaluation{true, 0.0};
        });
    ASSERT_TRUE(bool(result));
    EXPECT_TRUE(result->marked.empty());
    EXPECT_EQ(result->evaluations, 1);
  }
}

TEST(PrecisionSearchTest, AModelNoMarkingFixesIsSaid) {
  for (SearchMode mode : {SearchMode::Bisect, SearchMode::Linear,
                          SearchMode::WorstFirst, SearchMode::Delta}) {
    llvm::Expected<SearchResult> result = searchPrecision(
        mode, SearchDirection::Forward, 5, std::vector<double>(5, 0.0),
        [](llvm::ArrayRef<int>) -> llvm::Expected<Evaluation> {
          return Evaluation{false, 1.0};
        });
    ASSERT_TRUE(bool(result));
    EXPECT_FALSE(result->fixable);
    EXPECT_FALSE(result->evaluation.passed);
  }
}

TEST(PrecisionSearchTest, OracleErrorsStopTheSearch) {
  llvm::Expected<SearchResult> result = searchPrecision(
      SearchMode::Delta, SearchDirection::Forward, 5, {},
      [](llvm::ArrayRef<int>) -> llvm::Expected<Evaluation> {
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "the model does not compile");
      });
  ASSERT_FALSE(bool(result));
  EXPECT_EQ(llvm::toString(result.takeError()), "the model does not compile");
}

TEST(PrecisionSearchTest, NamesModesAsTheToolSpellsThem) {
  EXPECT_EQ(getSearchModeName(SearchMode::WorstFirst), "worst-first");
  EXPECT_EQ(getSearchModeName(SearchMode::Delta), "delta");
  EXPECT_EQ(getSearchDirectionName(SearchDirection::Reverse), "reverse");
}

} // namespace

namespace {

// 1,000 units, four always bad and a pair: delta and worst-first need a
// few dozen evaluations where linear needs one per unit up to the last bad
// one, and they mark 5 units where bisect marks a prefix of 950.
TEST(PrecisionSearchTest, ScalesToAThousandUnits) {
  KnownModel model;
  model.units = 1000;
  model.alwaysBad = {100, 377, 650, 949};
  model.pair = {200, 800};
  SearchResult delta = run(model, SearchMode::Delta);
  SearchResult worst = run(model, SearchMode::WorstFirst);
  SearchResult linear = run(model, SearchMode::Linear);
  SearchResult bisect = run(model, SearchMode::Bisect);
  EXPECT_EQ(delta.marked.size(), 5u);
  EXPECT_EQ(worst.marked.size(), 5u);
  EXPECT_EQ(bisect.marked.size(), 950u);
  EXPECT_EQ(linear.evaluations, 951);
  EXPECT_LT(delta.evaluations, 100);
  EXPECT_LT(worst.evaluations, 15);
  std::printf("evaluations: delta %d, worst-first %d, bisect %d, linear %d\n",
              delta.evaluations, worst.evaluations, bisect.evaluations,
              linear.evaluations);
}

} // namespace
