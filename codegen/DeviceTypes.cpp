//===- DeviceTypes.cpp - how element types live on the GPU ---------------===//

#include "codegen/CudaEmitterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace prec::cuda {

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

std::string substitute(llvm::StringRef pattern, llvm::StringRef value) {
  std::string result = pattern.str();
  size_t at = result.find('x');
  // Patterns hold one `x` standing for the operand.
  while (at != std::string::npos) {
    bool standalone = (at == 0 || !isalnum(result[at - 1])) &&
                      (at + 1 == result.size() || !isalnum(result[at + 1]));
    if (standalone) {
      result.replace(at, 1, value.str());
      at = result.find('x', at + value.size());
    } else {
      at = result.find('x', at + 1);
    }
  }
  return result;
}

} // namespace prec::cuda
