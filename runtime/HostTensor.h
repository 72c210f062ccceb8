//===- HostTensor.h - a tensor in host memory -------------------*- C++ -*-===//
//
// The values prec-run feeds to and reads from a compiled function, and what
// .npy files hold: an element type, a shape and the bytes, row-major.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_RUNTIME_HOSTTENSOR_H
#define PREC_RUNTIME_HOSTTENSOR_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
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

struct HostTensor {
  ElementKind kind = ElementKind::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;

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
};

/// Formats a shape as `1x3x224x224` (`scalar` for rank 0).
std::string formatShape(llvm::ArrayRef<int64_t> shape);

} // namespace prec

#endif // PREC_RUNTIME_HOSTTENSOR_H
