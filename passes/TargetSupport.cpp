//===- TargetSupport.cpp - which op classes run in which types ------------===//

#include "passes/TargetSupport.h"

#include "dialects/Precision/PrecisionTypes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace prec {
namespace {

enum class Kind { F32, F16, BF16, I8, F8 };

/// One row of the table: `kind` runs the listed op classes from compute
/// capability `minCapability` on.
struct SupportRow {
  Kind kind;
  unsigned minCapability;
  std::initializer_list<OpClass> classes;
  const char *feature;
};

constexpr std::initializer_list<OpClass> kAllFloatClasses = {
    OpClass::Contraction, OpClass::Sensitive,   OpClass::Reduction,
    OpClass::Pooling,     OpClass::Elementwise, OpClass::DataMovement,
    OpClass::Cast};

// i8 and f8 are formats with scales, which prec-quantize gives to
// contractions; other ops pinned to them (a layer's bias) fall back to a
// float type, or are refused under obey, here rather than when casts are
// materialized. A layer's transposes and reshapes compute nothing: they
// move their producers' type (prec-legalize-types).
constexpr std::initializer_list<OpClass> kQuantizedClasses = {
    OpClass::Contraction, OpClass::Cast};

const SupportRow kSupportTable[] = {
    {Kind::F32, 0, kAllFloatClasses, "f32"},
    {Kind::F16, 53, kAllFloatClasses, "f16 arithmetic"},
    {Kind::BF16, 80, kAllFloatClasses, "bf16 arithmetic"},
    {Kind::I8, 61, kQuantizedClasses, "i8 dot-product support (dp4a)"},
    {Kind::F8, 89, kQuantizedClasses, "f8 tensor-core support"},
};

std::optional<Kind> getKind(Type type) {
  if (type.isF32())
    return Kind::F32;
  if (type.isF16())
    return Kind::F16;
  if (type.isBF16())
    return Kind::BF16;
  if (type.isInteger(8))
    return Kind::I8;
  if (isa<Float8E4M3FNType, Float8E5M2Type>(type))
    return Kind::F8;
  return std::nullopt;
}

const SupportRow *findRow(Type type) {
  std::optional<Kind> kind = getKind(type);
  if (!kind)
    return nullptr;
  return llvm::find_if(
      kSupportTable, [&](const SupportRow &row) { return row.kind == *kind; });
}

} // namespace

bool isSupported(const precision::Target &target, OpClass opClass, Type type) {
  const SupportRow *row = findRow(type);
  if (!row)
    return false;
  // The CPU emulates every type, on the ops prec implements in it.
  return (target.isCpu() || target.computeCapability >= row->minCapability) &&
         llvm::is_contained(row->classes, opClass);
}

std::optional<std::string>
explainShapeUnsupported(const precision::Target &target, Operation *op,
                        Type type) {
  auto matmul = dyn_cast<tosa::MatMulOp>(op);
  if (target.isCpu() || !matmul || type.getIntOrFloatBitWidth() != 8)
    return std::nullopt;
  // Measured on an H200 with cuBLASLt 13: i8 and f8 GEMMs with K = 1 have
  // no algorithm, f8 ones with N = 3, 4 or 17 neither, while K = 16, 32 and
  // N = 8, 16, 1000 have (i8 also with N = 3, 4, 17).
  auto describe = [](int64_t size) {
    return size == ShapedType::kDynamic ? std::string("dynamic")
                                        : std::to_string(size);
  };
  int64_t depth = cast<ShapedType>(matmul.getA().getType()).getShape()[2];
  if (depth == ShapedType::kDynamic || depth % 16 != 0)
    return "cuBLASLt's 8-bit GEMMs need K, the reduced dimension, to be a "
           "multiple of 16; it is " +
           describe(depth);
  int64_t columns = cast<ShapedType>(matmul.getB().getType()).getShape()[2];
  if (isa<FloatType>(type) &&
      (columns == ShapedType::kDynamic || columns % 8 != 0))
    return "cuBLASLt's f8 GEMMs need N, the output columns, to be a "
           "multiple of 8; it is " +
           describe(columns);
  return std::nullopt;
}

std::string explainUnsupported(const precision::Target &target, OpClass opClass,
                               Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const SupportRow *row = findRow(type);
  if (!row) {
    os << type << " is not a precision prec assigns";
  } else if (!llvm::is_contained(row->classes, opClass)) {
    os << "no " << type << " implementation exists for "
       << getOpClassName(opClass) << " ops";
  } else {
    os << row->feature << " needs sm_" << row->minCapability
       << " or later; the target is sm_" << target.computeCapability;
  }
  return text;
}

Type getFallbackType(const precision::Target &target, OpClass opClass,
                     Type type) {
  MLIRContext *context = type.getContext();
  // Candidates from narrowest to widest.
  Type candidates[] = {Float16Type::get(context), BFloat16Type::get(context),
                       Float32Type::get(context)};
  for (Type candidate : candidates) {
    if (candidate == type)
      continue;
    // i8 values are integers in [-128, 127]: every float type holds them.
    bool holdsAll =
        type.isInteger(8) || precision::canRepresentAllValues(candidate, type);
    if (holdsAll && isSupported(target, opClass, candidate))
      return candidate;
  }
  return Float32Type::get(context);
}

} // namespace prec
