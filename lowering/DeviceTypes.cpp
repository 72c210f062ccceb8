//===- DeviceTypes.cpp - how element types live on the GPU ---------------===//

#include "lowering/DeviceTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdio>

using namespace mlir;

namespace prec {

std::optional<DeviceType> getDeviceType(Type type) {
  if (type.isF32())
    return DeviceType{"float", "f32", "(x)", "(x)", "CUDA_R_32F", 4};
  if (type.isF16())
    return DeviceType{"__half",          "f16",
                      "__half2float(x)", "__float2half_rn(x)",
                      "CUDA_R_16F",      2};
  if (type.isBF16())
    return DeviceType{"__nv_bfloat16",       "bf16",
                      "__bfloat162float(x)", "__float2bfloat16_rn(x)",
                      "CUDA_R_16BF",         2};
  if (isa<Float8E4M3FNType>(type))
    return DeviceType{"__nv_fp8_e4m3",    "f8e4m3",         "float(x)",
                      "__nv_fp8_e4m3(x)", "CUDA_R_8F_E4M3", 1};
  if (isa<Float8E5M2Type>(type))
    return DeviceType{"__nv_fp8_e5m2",    "f8e5m2",         "float(x)",
                      "__nv_fp8_e5m2(x)", "CUDA_R_8F_E5M2", 1};
  if (type.isInteger(1))
    return DeviceType{"uint8_t",      "i1",
                      "((float)(x))", "((uint8_t)((x) != 0.0f))",
                      nullptr,        1};
  if (type.isInteger(8))
    return DeviceType{"int8_t",    "i8", "((float)(x))", "prec_saturate_i8(x)",
                      "CUDA_R_8I", 1};
  if (type.isInteger(32))
    return DeviceType{"int32_t",      "i32",
                      "((float)(x))", "prec_saturate_i32(x)",
                      "CUDA_R_32I",   4};
  // Token ids and positions: the kernels' float registers hold them
  // exactly below 2^24.
  if (type.isInteger(64))
    return DeviceType{"int64_t", "i64", "((float)(x))", "prec_saturate_i64(x)",
                      nullptr,   8};
  return std::nullopt;
}

std::string getFloatLiteral(float value) {
  if (std::isnan(value))
    return "NAN";
  if (std::isinf(value))
    return value < 0 ? "-INFINITY" : "INFINITY";
  char text[64];
  std::snprintf(text, sizeof(text), "%af", double(value));
  return text;
}

std::string getHalfLiteral(const llvm::APFloat &value, mlir::Type type) {
  llvm::APFloat element = value;
  bool losesInfo = false;
  element.convert(llvm::cast<mlir::FloatType>(type).getFloatSemantics(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return llvm::formatv("{0}((unsigned short){1:x}U)",
                       type.isF16() ? "__ushort_as_half"
                                    : "__ushort_as_bfloat16",
                       element.bitcastToAPInt().getZExtValue())
      .str();
}

std::optional<int64_t>
chooseVectorBytes(int64_t elementBytes,
                  llvm::function_ref<bool(int64_t lanes)> fits) {
  for (int64_t bytes : {16, 8, 4}) {
    int64_t lanes = bytes / elementBytes;
    if (lanes >= 2 && bytes % elementBytes == 0 && fits(lanes))
      return bytes;
  }
  return std::nullopt;
}

} // namespace prec
