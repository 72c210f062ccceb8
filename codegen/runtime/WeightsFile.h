// A prec engine's weights file, as the emitter writes it and the engine reads
// it: the magic "PRECWTS2", then three little-endian u64 (the engine's
// identity, the byte count of the weights block and the block's checksum),
// then the block. Plain C++: the emitter includes it, and every engine
// carries a copy.

#ifndef PREC_CODEGEN_RUNTIME_WEIGHTSFILE_H
#define PREC_CODEGEN_RUNTIME_WEIGHTSFILE_H

#include <cstdint>

static const char kPrecWeightsMagic[9] = "PRECWTS2";

// FNV-1a, 64 bits: a checksum that catches flipped and shifted bytes.
static inline uint64_t prec_weights_checksum(const char *data, uint64_t bytes) {
  uint64_t hash = 1469598103934665603ULL;
  for (uint64_t i = 0; i < bytes; ++i)
    hash = (hash ^ (unsigned char)data[i]) * 1099511628211ULL;
  return hash;
}

#endif // PREC_CODEGEN_RUNTIME_WEIGHTSFILE_H
