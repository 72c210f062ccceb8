//===- NpyStream.h - arrays read front to back ------------------*- C++ -*-===//
//
// Calibration data may be larger than memory, so its arrays are read
// sequentially: stored data straight from the memory-mapped file (pages the
// system may drop again), deflated .npz members inflated as they are read.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_FORMATS_NPYSTREAM_H
#define PREC_FORMATS_NPYSTREAM_H

#include "formats/Npy.h"

#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

struct z_stream_s;

namespace prec {

class NpyStream {
public:
  ~NpyStream();

  const NpyHeader &getHeader() const { return header; }
  /// Reads the next `size` bytes of the array's data into `out`.
  llvm::Error read(uint8_t *out, size_t size);

  /// The arrays of a .npy file (one, named "") or of an .npz archive (by
  /// member name); members named in `bf16Names` hold bf16.
  static llvm::Expected<
      std::vector<std::pair<std::string, std::unique_ptr<NpyStream>>>>
  open(llvm::StringRef path, llvm::ArrayRef<std::string> bf16Names = {});

private:
  NpyStream() = default;
  llvm::Error readRaw(uint8_t *out, size_t size);

  std::shared_ptr<llvm::MemoryBuffer> file;
  NpyHeader header;
  llvm::StringRef stored; // the member's bytes as stored
  size_t position = 0;    // into `stored` (stored members only)
  std::unique_ptr<z_stream_s> inflater;
  uint64_t dataLeft = 0;
};

} // namespace prec

#endif // PREC_FORMATS_NPYSTREAM_H
