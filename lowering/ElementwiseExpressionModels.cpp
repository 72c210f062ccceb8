//===- ElementwiseExpressionModels.cpp - CUDA expressions of ops ----------===//
//
// One line per op: the float expression a fused elementwise kernel computes
// for it, with $0, $1, $2 for its data operands.
//
//===----------------------------------------------------------------------===//

#include "lowering/ElementwiseExpressionInterface.h"

#include "lowering/DeviceTypes.h"

#include "dialects/Engine/EngineDialect.h"
#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Precision/PrecisionOps.h"
#include "dialects/Utils/Constants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;

#include "lowering/ElementwiseExpressionInterface.cpp.inc"

namespace prec {
namespace {

template <typename OpTy, const char *Expression>
struct ExpressionModel
    : ElementwiseExpressionOpInterface::ExternalModel<
          ExpressionModel<OpTy, Expression>, OpTy> {
  std::string getElementwiseExpression(Operation *) const {
    return Expression;
  }
};

/// An op that 16-bit float hardware computes exactly as rounding its f32
/// expression would.
template <typename OpTy, const char *Expression, const char *HalfExpression>
struct ExactHalfExpressionModel
    : ElementwiseExpressionOpInterface::ExternalModel<
          ExactHalfExpressionModel<OpTy, Expression, HalfExpression>, OpTy> {
  std::string getElementwiseExpression(Operation *) const { return Expression; }
  std::string getHalfExpression(Operation *) const { return HalfExpression; }
};

/// A clamp's bounds are attributes, written into its expression.
/// fminf(y, INFINITY) is y for every y fmaxf returns (never NaN), and nvcc
/// keeps it: a ReLU is one fmaxf, not two ops.
struct ClampExpressionModel
    : ElementwiseExpressionOpInterface::ExternalModel<ClampExpressionModel,
                                                      tosa::ClampOp> {
  std::string getElementwiseExpression(Operation *op) const {
    auto [lower, upper] = getBounds(op);
    auto literal = [](const APFloat &bound) {
      return getFloatLiteral(bound.convertToFloat());
    };
    return clampExpression("fmaxf", "fminf", lowerUnlessMet(op, literal(lower)),
                           literal(upper), upper.isPosInfinity());
  }

  /// The same on 16-bit floats: a bound of the clamp's type is exact in it,
  /// and __hmax/__hmin return the other operand for a NaN as fmaxf/fminf
  /// do (checked for all 2^16 values of f16 and bf16 on an H200 against
  /// rounding the f32 expression).
  std::string getHalfExpression(Operation *op) const {
    Type type = getElementTypeOrSelf(op->getResult(0).getType());
    if (!isHalfFloat(type))
      return "";
    auto [lower, upper] = getBounds(op);
    return clampExpression("__hmax", "__hmin",
                           lowerUnlessMet(op, getHalfLiteral(lower, type)),
                           getHalfLiteral(upper, type), upper.isPosInfinity());
  }

private:
  static std::pair<APFloat, APFloat> getBounds(Operation *op) {
    auto clamp = cast<tosa::ClampOp>(op);
    auto bound = [](Attribute attr) {
      APFloat value = isa<FloatAttr>(attr)
                          ? cast<FloatAttr>(attr).getValue()
                          : APFloat(float(cast<IntegerAttr>(attr).getInt()));
      bool losesInfo = false;
      value.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
      return value;
    };
    return {bound(clamp.getMinValAttr()), bound(clamp.getMaxValAttr())};
  }

  /// The lower bound's literal, or none where prec-mark-met-lower-bounds
  /// proved the clamp's input never NaN nor below that bound.
  static std::optional<std::string> lowerUnlessMet(Operation *op,
                                                   std::string literal) {
    auto *dialect = op->getContext()->getLoadedDialect<engine::EngineDialect>();
    if (dialect && dialect->getMetLowerBoundAttrHelper().isAttrPresent(op))
      return std::nullopt;
    return literal;
  }

  static std::string clampExpression(llvm::StringRef max, llvm::StringRef min,
                                     std::optional<std::string> lower,
                                     llvm::StringRef upper, bool unbounded) {
    std::string raised =
        lower ? llvm::formatv("{0}($0, {1})", max, *lower).str() : "$0";
    if (unbounded)
      return raised;
    return llvm::formatv("{0}({1}, {2})", min, raised, upper).str();
  }
};

// A division, rounded as the CPU's (see the rounded intrinsics below).
constexpr char kDiv[] = "__fdiv_rn($0, $1)";

/// Whether `x * reciprocal` and `x / divisor`, each computed in f32 and
/// rounded to `semantics`, agree for every `x` of those 16-bit semantics.
bool multipliesAsItDivides(const llvm::fltSemantics &semantics, float divisor,
                           float reciprocal) {
  auto rounded = [&](float value) {
    APFloat result(value);
    bool losesInfo = false;
    result.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
    return result;
  };
  for (uint64_t bits = 0; bits < (1u << 16); ++bits) {
    APFloat element(semantics, APInt(16, bits));
    bool losesInfo = false;
    element.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
    float x = element.convertToFloat();
    APFloat quotient = rounded(x / divisor), product = rounded(x * reciprocal);
    if (!quotient.bitwiseIsEqual(product) &&
        !(quotient.isNaN() && product.isNaN()))
      return false;
  }
  return true;
}

/// A division of f16 or bf16 values by a constant multiplies by its f32
/// reciprocal where that rounds as the division does for every value of
/// the type, checked here for all 2^16 of them: a multiply in place of an
/// IEEE division, the same bits (GELU's x / sqrt(2) in f16: 0.90x its
/// kernel's time on an H200).
struct DivideExpressionModel
    : ElementwiseExpressionOpInterface::ExternalModel<DivideExpressionModel,
                                                      arith::DivFOp> {
  std::string getElementwiseExpression(Operation *op) const {
    auto divide = cast<arith::DivFOp>(op);
    Type element = getElementTypeOrSelf(divide.getType());
    std::optional<APFloat> divisor = getFloatSplat(divide.getRhs());
    if (!divisor || !isHalfFloat(element) ||
        getElementTypeOrSelf(divide.getLhs().getType()) != element)
      return kDiv;
    bool losesInfo = false;
    divisor->convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                     &losesInfo);
    float divisorValue = divisor->convertToFloat();
    float reciprocal = 1.0f / divisorValue;
    if (!std::isfinite(reciprocal) || reciprocal == 0.0f ||
        !multipliesAsItDivides(cast<FloatType>(element).getFloatSemantics(),
                               divisorValue, reciprocal))
      return kDiv;
    return llvm::formatv("__fmul_rn($0, {0})", getFloatLiteral(reciprocal))
        .str();
  }
};

// Rounded intrinsics: nvcc never contracts them into FMAs, so fused kernels
// round after every op as the CPU path does.
constexpr char kAdd[] = "__fadd_rn($0, $1)";
constexpr char kSub[] = "__fsub_rn($0, $1)";
constexpr char kMul[] = "__fmul_rn($0, $1)";
// Integers in float registers: exact below 2^24, truncated as TOSA's.
constexpr char kIntDiv[] = "truncf($0 / $1)";
constexpr char kMaximum[] = "fmaxf($0, $1)";
constexpr char kMinimum[] = "fminf($0, $1)";
constexpr char kPow[] = "powf($0, $1)";
constexpr char kAbs[] = "fabsf($0)";
constexpr char kNegate[] = "-$0";
// The _rn forms: nvcc may contract __hmul and __hadd into an fma, which
// rounds once where the program rounds twice.
constexpr char kHalfAdd[] = "__hadd_rn($0, $1)";
constexpr char kHalfSub[] = "__hsub_rn($0, $1)";
constexpr char kHalfMul[] = "__hmul_rn($0, $1)";
constexpr char kHalfNegate[] = "__hneg($0)";
constexpr char kExp[] = "expf($0)";
constexpr char kLog[] = "logf($0)";
constexpr char kTanh[] = "tanhf($0)";
constexpr char kSigmoid[] = "1.0f / (1.0f + expf(-$0))";
constexpr char kErf[] = "erff($0)";
constexpr char kReciprocal[] = "1.0f / $0";
constexpr char kRsqrt[] = "1.0f / sqrtf($0)";
constexpr char kSqrt[] = "sqrtf($0)";
constexpr char kFloor[] = "floorf($0)";
constexpr char kCeil[] = "ceilf($0)";
constexpr char kSin[] = "sinf($0)";
constexpr char kCos[] = "cosf($0)";
constexpr char kSelect[] = "$0 != 0.0f ? $1 : $2";
constexpr char kGreaterEqual[] = "$0 >= $1";
constexpr char kGreater[] = "$0 > $1";
constexpr char kEqual[] = "$0 == $1";
constexpr char kLogicalAnd[] = "($0 != 0.0f) && ($1 != 0.0f)";
constexpr char kLogicalOr[] = "($0 != 0.0f) || ($1 != 0.0f)";
constexpr char kLogicalXor[] = "($0 != 0.0f) != ($1 != 0.0f)";
constexpr char kLogicalNot[] = "$0 == 0.0f";
// Casts convert on load and store.
constexpr char kCast[] = "$0";

template <typename OpTy, const char *Expression>
void attach(MLIRContext *context) {
  OpTy::template attachInterface<ExpressionModel<OpTy, Expression>>(*context);
}

template <typename OpTy, const char *Expression, const char *HalfExpression>
void attach(MLIRContext *context) {
  OpTy::template attachInterface<
      ExactHalfExpressionModel<OpTy, Expression, HalfExpression>>(*context);
}

void attachTosaModels(MLIRContext *context) {
  using namespace tosa;
  attach<AddOp, kAdd, kHalfAdd>(context);
  attach<SubOp, kSub, kHalfSub>(context);
  attach<MulOp, kMul, kHalfMul>(context);
  attach<IntDivOp, kIntDiv>(context);
  attach<MaximumOp, kMaximum>(context);
  attach<MinimumOp, kMinimum>(context);
  attach<PowOp, kPow>(context);
  attach<AbsOp, kAbs>(context);
  attach<NegateOp, kNegate, kHalfNegate>(context);
  attach<ExpOp, kExp>(context);
  attach<LogOp, kLog>(context);
  attach<TanhOp, kTanh>(context);
  attach<SigmoidOp, kSigmoid>(context);
  attach<ErfOp, kErf>(context);
  attach<ReciprocalOp, kReciprocal>(context);
  attach<RsqrtOp, kRsqrt>(context);
  attach<FloorOp, kFloor>(context);
  attach<CeilOp, kCeil>(context);
  attach<SinOp, kSin>(context);
  attach<CosOp, kCos>(context);
  attach<SelectOp, kSelect>(context);
  attach<GreaterEqualOp, kGreaterEqual>(context);
  attach<GreaterOp, kGreater>(context);
  attach<EqualOp, kEqual>(context);
  attach<LogicalAndOp, kLogicalAnd>(context);
  attach<LogicalOrOp, kLogicalOr>(context);
  attach<LogicalXorOp, kLogicalXor>(context);
  attach<LogicalNotOp, kLogicalNot>(context);
  attach<CastOp, kCast>(context);
  ClampOp::attachInterface<ClampExpressionModel>(*context);
}

} // namespace

void registerElementwiseExpressionModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tosa::TosaDialect *) {
    attachTosaModels(context);
  });
  registry.addExtension(+[](MLIRContext *context, arith::ArithDialect *) {
    arith::DivFOp::attachInterface<DivideExpressionModel>(*context);
  });
  registry.addExtension(+[](MLIRContext *context, math::MathDialect *) {
    attach<math::SqrtOp, kSqrt>(context);
  });
  registry.addExtension(
      +[](MLIRContext *context, precision::PrecisionDialect *) {
        attach<precision::CastOp, kCast>(context);
      });
}

} // namespace prec
