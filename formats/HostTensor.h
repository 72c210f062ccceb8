//===- HostTensor.h - a tensor in host memory -------------------*- C++ -*-===//
//
// The values prec-run feeds to and reads from a compiled function, and what
// .npy files hold: an element type, a shape and the bytes, row-major.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_FORMATS_HOSTTENSOR_H
#define PREC_FORMATS_HOSTTENSOR_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace prec {

enum class ElementKind { F32, F64, F16, BF16, I8, U8, I16, I32, I64, Bool };

/// Bytes per element.
size_t getElementSize(ElementKind kind);
/// `f32`, `f16`, `bf16`, `i8`, ... as messages and MLIR spell them.
llvm::StringRef getElementKindName(ElementKind kind);
/// The kind that holds an MLIR element type, if there is one.
std::optional<ElementKind> getElementKind(mlir::Type type);
/// Whether the kind is a floating-point kind.
bool isFloatKind(ElementKind kind);

/// Allocates on cache-line boundaries: compiled code loads whole vectors,
/// and a vector split across two cache lines costs twice.
template <typename T> struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::size_t kAlignment = 64;

  CacheLineAllocator() = default;
  template <typename U> CacheLineAllocator(const CacheLineAllocator<U> &) {}

  T *allocate(std::size_t count) {
    return static_cast<T *>(
        ::operator new(count * sizeof(T), std::align_val_t(kAlignment)));
  }
  void deallocate(T *pointer, std::size_t) {
    ::operator delete(pointer, std::align_val_t(kAlignment));
  }
  template <typename U> bool operator==(const CacheLineAllocator<U> &) const {
    return true;
  }
  template <typename U> bool operator!=(const CacheLineAllocator<U> &) const {
    return false;
  }
};

struct HostTensor {
  ElementKind kind = ElementKind::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t, CacheLineAllocator<uint8_t>> data;

  HostTensor() = default;
  HostTensor(ElementKind kind, std::vector<int64_t> shape);

  int64_t getNumElements() const;
  /// Element `index` (row-major) as a double; exact for every kind but i64
  /// beyond 2^53.
  double getAsDouble(int64_t index) const;
  /// Stores `value` at `index`, rounded to nearest even for floats and
  /// saturated for integers.
  void setFromDouble(int64_t index, double value);
  /// `1x3x224x224`.
  std::string formatShape() const;

  /// The tensor in `kind`, each element converted as setFromDouble does.
  HostTensor convertTo(ElementKind kind) const;
};

/// Formats a shape as `1x3x224x224` (`scalar` for rank 0).
std::string formatShape(llvm::ArrayRef<int64_t> shape);

} // namespace prec

#endif // PREC_FORMATS_HOSTTENSOR_H
