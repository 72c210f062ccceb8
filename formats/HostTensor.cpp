//===- HostTensor.cpp - a tensor in host memory ---------------------------===//

#include "formats/HostTensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace prec {

size_t getElementSize(ElementKind kind) {
  switch (kind) {
  case ElementKind::F64:
  case ElementKind::I64:
    return 8;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::F16:
  case ElementKind::BF16:
  case ElementKind::I16:
    return 2;
  case ElementKind::I8:
  case ElementKind::U8:
  case ElementKind::Bool:
    return 1;
  }
  llvm_unreachable("unknown element kind");
}

llvm::StringRef getElementKindName(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return "f32";
  case ElementKind::F64:
    return "f64";
  case ElementKind::F16:
    return "f16";
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::I8:
    return "i8";
  case ElementKind::U8:
    return "ui8";
  case ElementKind::I16:
    return "i16";
  case ElementKind::I32:
    return "i32";
  case ElementKind::I64:
    return "i64";
  case ElementKind::Bool:
    return "i1";
  }
  llvm_unreachable("unknown element kind");
}

std::optional<ElementKind> getElementKind(mlir::Type type) {
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF64())
    return ElementKind::F64;
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (type.isInteger(1))
    return ElementKind::Bool;
  if (type.isUnsignedInteger(8))
    return ElementKind::U8;
  if (type.isInteger(8))
    return ElementKind::I8;
  if (type.isInteger(16))
    return ElementKind::I16;
  if (type.isInteger(32))
    return ElementKind::I32;
  if (type.isInteger(64))
    return ElementKind::I64;
  return std::nullopt;
}

bool isFloatKind(ElementKind kind) {
  return kind == ElementKind::F32 || kind == ElementKind::F64 ||
         kind == ElementKind::F16 || kind == ElementKind::BF16;
}

HostTensor::HostTensor(ElementKind kind, std::vector<int64_t> shape)
    : kind(kind), shape(std::move(shape)) {
  data.assign(getNumElements() * getElementSize(kind), 0);
}

int64_t HostTensor::getNumElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

HostTensor HostTensor::convertTo(ElementKind target) const {
  if (target == kind)
    return *this;
  HostTensor converted(target, shape);
  for (int64_t i = 0, e = getNumElements(); i < e; ++i)
    converted.setFromDouble(i, getAsDouble(i));
  return converted;
}

template <typename T> static T load(const uint8_t *bytes, int64_t index) {
  T value;
  std::memcpy(&value, bytes + index * sizeof(T), sizeof(T));
  return value;
}

template <typename T>
static void store(uint8_t *bytes, int64_t index, T value) {
  std::memcpy(bytes + index * sizeof(T), &value, sizeof(T));
}

/// A 16-bit float pattern as a double.
static double halfBitsToDouble(const llvm::fltSemantics &semantics,
                               uint16_t bits) {
  return llvm::APFloat(semantics, llvm::APInt(16, bits)).convertToDouble();
}

/// `value` rounded to nearest even in a 16-bit float format.
static uint16_t doubleToHalfBits(const llvm::fltSemantics &semantics,
                                 double value) {
  llvm::APFloat converted(value);
  bool losesInfo = false;
  converted.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(converted.bitcastToAPInt().getZExtValue());
}

/// `value` rounded to nearest even and saturated to T's range.
template <typename T> static T saturate(double value) {
  if (std::isnan(value))
    return 0;
  double rounded = std::nearbyint(value);
  if (rounded <= static_cast<double>(std::numeric_limits<T>::min()))
    return std::numeric_limits<T>::min();
  if (rounded >= static_cast<double>(std::numeric_limits<T>::max()))
    return std::numeric_limits<T>::max();
  return static_cast<T>(rounded);
}

double HostTensor::getAsDouble(int64_t index) const {
  switch (kind) {
  case ElementKind::F32:
    return load<float>(data.data(), index);
  case ElementKind::F64:
    return load<double>(data.data(), index);
  case ElementKind::F16:
    return halfBitsToDouble(llvm::APFloat::IEEEhalf(),
                            load<uint16_t>(data.data(), index));
  case ElementKind::BF16:
    return halfBitsToDouble(llvm::APFloat::BFloat(),
                            load<uint16_t>(data.data(), index));
  case ElementKind::I8:
    return load<int8_t>(data.data(), index);
  case ElementKind::U8:
    return load<uint8_t>(data.data(), index);
  case ElementKind::I16:
    return load<int16_t>(data.data(), index);
  case ElementKind::I32:
    return load<int32_t>(data.data(), index);
  case ElementKind::I64:
    return static_cast<double>(load<int64_t>(data.data(), index));
  case ElementKind::Bool:
    return load<uint8_t>(data.data(), index) != 0;
  }
  llvm_unreachable("unknown element kind");
}

void HostTensor::setFromDouble(int64_t index, double value) {
  switch (kind) {
  case ElementKind::F32:
    return store<float>(data.data(), index, static_cast<float>(value));
  case ElementKind::F64:
    return store<double>(data.data(), index, value);
  case ElementKind::F16:
    return store<uint16_t>(data.data(), index,
                           doubleToHalfBits(llvm::APFloat::IEEEhalf(), value));
  case ElementKind::BF16:
    return store<uint16_t>(data.data(), index,
                           doubleToHalfBits(llvm::APFloat::BFloat(), value));
  case ElementKind::I8:
    return store<int8_t>(data.data(), index, saturate<int8_t>(value));
  case ElementKind::U8:
    return store<uint8_t>(data.data(), index, saturate<uint8_t>(value));
  case ElementKind::I16:
    return store<int16_t>(data.data(), index, saturate<int16_t>(value));
  case ElementKind::I32:
    return store<int32_t>(data.data(), index, saturate<int32_t>(value));
  case ElementKind::I64:
    return store<int64_t>(data.data(), index, saturate<int64_t>(value));
  case ElementKind::Bool:
    return store<uint8_t>(data.data(), index, value != 0);
  }
  llvm_unreachable("unknown element kind");
}

std::string formatShape(llvm::ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  return llvm::join(
      llvm::map_range(shape, [](int64_t dim) { return std::to_string(dim); }),
      "x");
}

std::string HostTensor::formatShape() const { return prec::formatShape(shape); }

} // namespace prec
