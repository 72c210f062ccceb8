//===- Npy.h - numpy .npy and .npz files ------------------------*- C++ -*-===//
//
// Reads and writes numpy's formats so that inputs, outputs and goldens
// interoperate with numpy and PyTorch tooling: .npy version 1-3
// (little-endian, C order) and .npz archives (stored or deflated members).
// bf16, which numpy lacks, is written as '<u2' and read from '<u2' or '|V2'
// where a bf16 tensor is expected.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_FORMATS_NPY_H
#define PREC_FORMATS_NPY_H

#include "formats/HostTensor.h"

#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace prec {

using NamedTensors = std::vector<std::pair<std::string, HostTensor>>;

/// What a .npy header says: the element kind, the shape, and where the
/// data starts and how many bytes it takes.
struct NpyHeader {
  ElementKind kind = ElementKind::F32;
  std::vector<int64_t> shape;
  size_t dataOffset = 0;
  uint64_t dataSize = 0;
};

/// numpy's dtype string for a kind ('<f4', '|b1', ...; bf16 as '<u2').
llvm::StringRef getNumpyDescr(ElementKind kind);

/// The kind of numpy's dtype string `descr` ('<f4', '|b1', ...); '<u2' and
/// '|V2' are bf16 where `bf16` says one is expected.
llvm::Expected<ElementKind> parseNumpyDescr(llvm::StringRef descr, bool bf16);

/// The size of the header (magic, version, length and dict) that `prefix`,
/// at least the first 12 bytes of a .npy file, starts.
llvm::Expected<size_t> getNpyHeaderSize(llvm::StringRef prefix);

/// An error unless `bytes` of data is what `header`'s shape needs.
llvm::Error checkNpyPayload(const NpyHeader &header, uint64_t bytes);

/// Parses the header at the start of `bytes` (the data may follow or not).
llvm::Expected<NpyHeader> parseNpyHeader(llvm::StringRef bytes,
                                         bool bf16 = false);

/// Parses the bytes of a .npy file. `bf16` says to read 16-bit unsigned or
/// void elements as bf16.
llvm::Expected<HostTensor> parseNpy(llvm::StringRef bytes, bool bf16 = false);

/// The bytes of a .npy file (version 1.0) holding `tensor`.
std::string serializeNpy(const HostTensor &tensor);

/// A member of an .npz archive: its name without ".npy", its zip method
/// (0 stored, 8 deflated), its bytes as stored and its size once inflated.
struct NpzMember {
  std::string name;
  uint16_t method = 0;
  llvm::StringRef data;
  uint64_t size = 0;
};

/// The members of the .npz archive in `bytes`, which they point into.
llvm::Expected<std::vector<NpzMember>> listNpzMembers(llvm::StringRef bytes);

/// Reads an .npz archive; members keep their order, names lose ".npy".
/// Members named in `bf16Names` are read as bf16.
llvm::Expected<NamedTensors>
readNpz(llvm::StringRef path, llvm::ArrayRef<std::string> bf16Names = {});

/// Writes an .npz archive (members stored uncompressed, as np.savez does).
llvm::Error writeNpz(llvm::StringRef path, const NamedTensors &tensors);

/// Reads a single .npy file.
llvm::Expected<HostTensor> readNpy(llvm::StringRef path, bool bf16 = false);

} // namespace prec

#endif // PREC_FORMATS_NPY_H
