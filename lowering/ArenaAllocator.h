//===- ArenaAllocator.h - offsets of activation buffers ---------*- C++ -*-===//
//
// Places an engine's activation buffers in one device arena. The engine runs
// its kernels in order on one stream, so a buffer whose last reader has run
// can hold a later value: buffers are released after their last use and
// reused first-fit. The arena's size is the high-water mark.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_LOWERING_ARENAALLOCATOR_H
#define PREC_LOWERING_ARENAALLOCATOR_H

#include <cstdint>
#include <map>

namespace prec {

class ArenaAllocator {
public:
  /// Every buffer starts on this boundary (cuBLASLt and vector loads want
  /// 256-byte alignment).
  static constexpr int64_t kAlignment = 256;

  /// The offset of a new buffer of `bytes` bytes.
  int64_t allocate(int64_t bytes);
  /// Returns the buffer at `offset` (from allocate) to the free space.
  void release(int64_t offset);
  /// Bytes the arena needs: the end of the highest buffer ever placed.
  int64_t size() const { return highWater; }

private:
  /// Free ranges and live buffers: offset -> size (aligned).
  std::map<int64_t, int64_t> freeRanges, liveBuffers;
  int64_t highWater = 0;
};

} // namespace prec

#endif // PREC_LOWERING_ARENAALLOCATOR_H
