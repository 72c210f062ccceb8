//===- DeviceTypes.h - how element types live on the GPU --------*- C++ -*-===//

#ifndef PREC_LOWERING_DEVICETYPES_H
#define PREC_LOWERING_DEVICETYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>
#include <string>

namespace prec {

/// How an element type is stored and named on the device.
struct DeviceType {
  const char *cType;     // C type of an element
  const char *dtype;     // manifest / header name
  const char *toFloat;   // expression turning `x` into float
  const char *fromFloat; // expression turning float `x` into the type
  const char *cudaType;  // cudaDataType for cuBLASLt, or null
  int64_t bytes;
};

/// The device type of `type`, if an engine can store it.
std::optional<DeviceType> getDeviceType(mlir::Type type);

/// Whether `type` is a 16-bit float (f16, bf16): kernels keep such values
/// in their type, and an f32 operation rounded to it is often exact.
inline bool isHalfFloat(mlir::Type type) {
  return type.isF16() || type.isBF16();
}

/// Whether kernels hold `type`'s elements as they are stored (floats, and
/// 8-bit quantized values, widened where read), so that runs of them load
/// as vectors; other types are widened to float element by element.
inline bool isHeldAsStored(mlir::Type type) {
  return isHalfFloat(type) || type.isF32() || type.isInteger(8) ||
         llvm::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(type);
}

/// The widest of 16, 8 or 4 bytes that holds two or more whole elements of
/// `elementBytes` bytes and for which `fits(lanes)` holds: what a thread of
/// a copy, elementwise or row kernel moves at a time (engine.vector_bytes).
std::optional<int64_t>
chooseVectorBytes(int64_t elementBytes,
                  llvm::function_ref<bool(int64_t lanes)> fits);

/// `value` as a CUDA float literal: hexadecimal, so exact whatever the
/// value, or NAN, INFINITY, -INFINITY.
std::string getFloatLiteral(float value);

/// `value` rounded to the 16-bit float type `type` (f16 or bf16), as a
/// literal of that type built from its bits.
std::string getHalfLiteral(const llvm::APFloat &value, mlir::Type type);

} // namespace prec

#endif // PREC_LOWERING_DEVICETYPES_H
