//===- ArenaAllocator.cpp - offsets of activation buffers -----------------===//

#include "lowering/ArenaAllocator.h"

#include "llvm/Support/ErrorHandling.h"

#include <iterator>

using namespace prec;

int64_t ArenaAllocator::allocate(int64_t bytes) {
  int64_t size =
      (std::max<int64_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
  for (auto it = freeRanges.begin(); it != freeRanges.end(); ++it) {
    auto [offset, available] = *it;
    if (available < size)
      continue;
    freeRanges.erase(it);
    if (available > size)
      freeRanges[offset + size] = available - size;
    liveBuffers[offset] = size;
    return offset;
  }
  // Nothing free fits: grow the arena, absorbing a free range at its end.
  int64_t offset = highWater;
  if (!freeRanges.empty()) {
    auto last = std::prev(freeRanges.end());
    if (last->first + last->second == highWater) {
      offset = last->first;
      freeRanges.erase(last);
    }
  }
  highWater = offset + size;
  liveBuffers[offset] = size;
  return offset;
}

void ArenaAllocator::release(int64_t offset) {
  auto live = liveBuffers.find(offset);
  if (live == liveBuffers.end())
    llvm::report_fatal_error("prec: an engine buffer was released twice");
  int64_t size = live->second;
  liveBuffers.erase(live);
  // Merge with the free neighbours so that large buffers find room again.
  auto next = freeRanges.lower_bound(offset);
  if (next != freeRanges.end() && offset + size == next->first) {
    size += next->second;
    next = freeRanges.erase(next);
  }
  if (next != freeRanges.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == offset) {
      previous->second += size;
      return;
    }
  }
  freeRanges[offset] = size;
}
