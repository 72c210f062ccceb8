//===- ArenaAllocatorTest.cpp - reuse of activation buffers ---------------===//

#include "lowering/ArenaAllocator.h"

#include <gtest/gtest.h>

#include <iterator>
#include <map>

using namespace prec;

namespace {

TEST(ArenaAllocatorTest, AlignsEveryBuffer) {
  ArenaAllocator arena;
  EXPECT_EQ(arena.allocate(1), 0);
  EXPECT_EQ(arena.allocate(300), 256);
  EXPECT_EQ(arena.allocate(256), 768);
  EXPECT_EQ(arena.size(), 1024);
}

TEST(ArenaAllocatorTest, ReusesReleasedBuffersFirstFit) {
  ArenaAllocator arena;
  int64_t a = arena.allocate(1024), b = arena.allocate(512);
  arena.release(a);
  // A smaller buffer takes the front of the released one, the rest stays free.
  EXPECT_EQ(arena.allocate(256), a);
  EXPECT_EQ(arena.allocate(768), a + 256);
  EXPECT_EQ(arena.size(), 1536);
  // Nothing free: the arena grows.
  EXPECT_EQ(arena.allocate(256), 1536);
  (void)b;
}

TEST(ArenaAllocatorTest, MergesNeighboursSoLargeBuffersFitAgain) {
  ArenaAllocator arena;
  int64_t a = arena.allocate(256), b = arena.allocate(256),
          c = arena.allocate(256);
  arena.allocate(256); // keeps the three from merging into the end
  arena.release(a);
  arena.release(c);
  arena.release(b); // joins both neighbours
  EXPECT_EQ(arena.allocate(768), a);
  EXPECT_EQ(arena.size(), 1024);
}

TEST(ArenaAllocatorTest, GrowsAFreeRangeAtTheEnd) {
  ArenaAllocator arena;
  arena.allocate(256);
  int64_t tail = arena.allocate(256);
  arena.release(tail);
  // The free tail is extended rather than left behind a new buffer.
  EXPECT_EQ(arena.allocate(1024), tail);
  EXPECT_EQ(arena.size(), 256 + 1024);
}

TEST(ArenaAllocatorTest, LiveBuffersNeverOverlap) {
  ArenaAllocator arena;
  std::map<int64_t, int64_t> live;
  uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  for (int step = 0; step < 2000; ++step) {
    if (!live.empty() && next() % 3 == 0) {
      auto it = std::next(live.begin(), next() % live.size());
      arena.release(it->first);
      live.erase(it);
      continue;
    }
    int64_t bytes = 1 + next() % 5000;
    int64_t offset = arena.allocate(bytes);
    EXPECT_EQ(offset % ArenaAllocator::kAlignment, 0);
    EXPECT_LE(offset + bytes, arena.size());
    auto after = live.lower_bound(offset);
    if (after != live.end())
      EXPECT_LE(offset + bytes, after->first);
    if (after != live.begin())
      EXPECT_LE(std::prev(after)->first + std::prev(after)->second, offset);
    live[offset] = bytes;
  }
}

} // namespace
