//===- StridedLayoutsTest.cpp - indices through moves --------------------===//

#include "lowering/StridedLayouts.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

using namespace prec;

namespace {

using Parts = std::vector<std::pair<int64_t, int64_t>>;

Parts partsOf(const StridedIndex &index) {
  Parts parts;
  for (StridedPart part : index)
    parts.emplace_back(part.size, part.stride);
  return parts;
}

Parts mapped(StridedIndex index, llvm::ArrayRef<int64_t> from,
             llvm::ArrayRef<std::optional<int64_t>> to) {
  std::optional<StridedIndex> result = mapIndex(index, from, to);
  EXPECT_TRUE(result.has_value());
  return result ? partsOf(*result) : Parts();
}

// A part inside one dimension takes that dimension's stride, times its step.
TEST(StridedLayoutsTest, PartInsideADimension) {
  // [2, 4, 16] transposed to read dimension 1 with stride 32, 2 with 2.
  EXPECT_EQ(mapped({{4, 16}}, {2, 4, 16}, {128, 32, 2}), (Parts{{4, 32}}));
  EXPECT_EQ(mapped({{8, 2}}, {2, 4, 16}, {128, 32, 2}), (Parts{{8, 4}}));
}

// A part that carries from one dimension into the next splits there.
TEST(StridedLayoutsTest, PartSpanningDimensionsSplits) {
  // Heads 0..7 of [2, 4, 16]: 4 per dimension 1, 2 of dimension 0.
  EXPECT_EQ(mapped({{8, 16}}, {2, 4, 16}, {7, 100, 1}),
            (Parts{{2, 7}, {4, 100}}));
}

// A tiled dimension of 1 reads one element: its parts move by 0, and the
// query heads sharing it form the inner part of a group.
TEST(StridedLayoutsTest, TiledUnitDimensionMovesByZero) {
  // [1, 8, 4, 2048, 128] from [1, 8, 1, 2048, 128]: 32 heads of 8 x 4.
  EXPECT_EQ(
      mapped({{32, 262144}}, {1, 8, 4, 2048, 128}, {0, 262144, 0, 128, 1}),
      (Parts{{8, 262144}, {4, 0}}));
}

// Parts that do not line up with the dimensions, or meet a dimension
// without a stride (a tile of a longer one), cannot be mapped.
TEST(StridedLayoutsTest, MisalignedOrUnstridedPartsFail) {
  EXPECT_FALSE(mapIndex({{2, 6}}, {4, 4}, {4, 1}).has_value());
  EXPECT_FALSE(mapIndex({{3, 4}}, {4, 4}, {std::nullopt, 1}).has_value());
  // Four heads of 3 rows each do not split a dimension of 8 evenly.
  EXPECT_FALSE(mapIndex({{4, 3}}, {2, 8}, {8, 1}).has_value());
}

// Parts of one value go; adjacent parts that move as one merge.
TEST(StridedLayoutsTest, SimplifyMergesAndDropsParts) {
  EXPECT_EQ(partsOf(simplify({{2, 64}, {4, 16}, {1, 5}})), (Parts{{8, 16}}));
  EXPECT_EQ(partsOf(simplify({{2, 0}, {3, 0}})), (Parts{{6, 0}}));
  EXPECT_EQ(partsOf(simplify({{8, 262144}, {4, 0}})),
            (Parts{{8, 262144}, {4, 0}}));
  EXPECT_TRUE(simplify({{1, 7}}).empty());
}

} // namespace
