//===- PrecisionTypes.cpp - the element types prec assigns ----------------===//

#include "dialects/Precision/PrecisionTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace prec::precision {

bool isPrecisionType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth() == 8 && !intType.isUnsigned();
  return isa<Float32Type, Float16Type, BFloat16Type, Float8E4M3FNType,
             Float8E5M2Type>(type);
}

bool isQuantizedPrecision(Type type) {
  return isPrecisionType(type) &&
         (isa<IntegerType, Float8E4M3FNType, Float8E5M2Type>(type));
}

Type parsePrecisionType(MLIRContext *context, StringRef name) {
  enum class Kind { Unknown, F32, F16, BF16, I8, F8E4M3FN, F8E5M2 };
  Kind kind = llvm::StringSwitch<Kind>(name)
                  .Cases({"f32", "float32", "fp32", "float"}, Kind::F32)
                  .Cases({"f16", "float16", "fp16", "half"}, Kind::F16)
                  .Cases({"bf16", "bfloat16"}, Kind::BF16)
                  .Cases({"i8", "int8"}, Kind::I8)
                  .Cases({"f8E4M3FN", "fp8", "fp8e4m3", "float8_e4m3fn"},
                         Kind::F8E4M3FN)
                  .Cases({"f8E5M2", "fp8e5m2", "float8_e5m2"}, Kind::F8E5M2)
                  .Default(Kind::Unknown);
  Builder builder(context);
  switch (kind) {
  case Kind::F32:
    return builder.getF32Type();
  case Kind::F16:
    return builder.getF16Type();
  case Kind::BF16:
    return builder.getBF16Type();
  case Kind::I8:
    return builder.getI8Type();
  case Kind::F8E4M3FN:
    return builder.getType<Float8E4M3FNType>();
  case Kind::F8E5M2:
    return builder.getType<Float8E5M2Type>();
  case Kind::Unknown:
    break;
  }
  return Type();
}

StringRef getPrecisionTypeSpellings() {
  return "f32, f16, bf16, i8, f8E4M3FN, f8E5M2 (or float32, float16, half, "
         "bfloat16, int8, fp8, fp8e5m2)";
}

bool canRepresentAllValues(Type wide, Type narrow) {
  if (wide == narrow)
    return true;
  auto wideFloat = dyn_cast<FloatType>(wide);
  auto narrowFloat = dyn_cast<FloatType>(narrow);
  if (!wideFloat || !narrowFloat)
    return false;
  return llvm::APFloatBase::isRepresentableBy(narrowFloat.getFloatSemantics(),
                                              wideFloat.getFloatSemantics());
}

} // namespace prec::precision
