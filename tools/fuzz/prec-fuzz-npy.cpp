//===- prec-fuzz-npy.cpp - .npy and .npz readers --------------------------===//
//
// Inputs, goldens and calibration data arrive as .npy and .npz files: the
// bytes go through the in-memory .npy parser (an accepted array must
// survive a write and re-read unchanged), the .npz reader, and the streaming
// reader calibration uses, as an archive and as a single array.
//
//===----------------------------------------------------------------------===//

#include "tools/fuzz/FuzzSupport.h"

#include "formats/Npy.h"
#include "formats/NpyStream.h"

#include <algorithm>
#include <vector>

using namespace prec;

namespace {

void checkRoundTrip(const HostTensor &tensor, bool bf16) {
  fuzz::require(tensor.data.size() == size_t(tensor.getNumElements()) *
                                          getElementSize(tensor.kind),
                "an accepted .npy holds the wrong number of bytes");
  llvm::Expected<HostTensor> again = parseNpy(serializeNpy(tensor), bf16);
  fuzz::require(static_cast<bool>(again), "a written .npy does not read back");
  fuzz::require(again->kind == tensor.kind && again->shape == tensor.shape &&
                    again->data == tensor.data,
                "a written .npy reads back different");
}

void readStreams(llvm::StringRef path) {
  auto streams = NpyStream::open(path, {""});
  fuzz::consume(streams);
  if (!streams)
    return;
  std::vector<uint8_t> chunk(1 << 16);
  for (auto &[name, stream] : *streams) {
    uint64_t left = stream->getHeader().dataSize;
    while (left > 0) {
      size_t size = std::min<uint64_t>(left, chunk.size());
      if (llvm::Error error = stream->read(chunk.data(), size)) {
        fuzz::consume(std::move(error));
        break;
      }
      left -= size;
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  for (bool bf16 : {false, true}) {
    llvm::Expected<HostTensor> tensor = parseNpy(bytes, bf16);
    fuzz::consume(tensor);
    if (tensor)
      checkRoundTrip(*tensor, bf16);
  }
  std::string archive = fuzz::writeScratchFile(bytes, ".npz");
  llvm::Expected<NamedTensors> members = readNpz(archive);
  fuzz::consume(members);
  readStreams(archive);
  readStreams(fuzz::writeScratchFile(bytes, ".npy"));
  return 0;
}
