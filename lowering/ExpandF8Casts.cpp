//===- ExpandF8Casts.cpp - f8 conversions as integer arithmetic -----------===//
//
// LLVM has no 8-bit floats: the CPU path stores f8E4M3FN and f8E5M2 values
// as their bytes (the LLVM type converter maps them to i8) and this pass
// writes their conversions to and from f32 with integer and f32 arithmetic.
// Rounding is to nearest even and saturates to the largest finite value
// (NaN stays NaN), as the GPU's __nv_fp8_e4m3 / __nv_fp8_e5m2 conversions
// (__NV_SATFINITE) do, so both paths agree bit for bit.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace prec {
#define GEN_PASS_DEF_PRECEXPANDF8CASTS
#include "lowering/Passes.h.inc"
} // namespace prec

using namespace mlir;

namespace {

/// An 8-bit float format: a sign, 7 - `mantissaBits` exponent bits biased
/// by `bias`, `mantissaBits` mantissa bits.
struct F8Format {
  int64_t mantissaBits, bias;
  double largest;   // largest finite value
  bool hasInfinity; // E5M2 has infinities, E4M3FN none
  int64_t nanCode;  // a NaN's bits, sign aside
};

std::optional<F8Format> getF8Format(Type type) {
  auto largest = [&] {
    return APFloat::getLargest(cast<FloatType>(type).getFloatSemantics())
        .convertToDouble();
  };
  if (isa<Float8E4M3FNType>(type))
    return F8Format{3, 7, largest(), false, 0x7F};
  if (isa<Float8E5M2Type>(type))
    return F8Format{2, 15, largest(), true, 0x7F};
  return std::nullopt;
}

/// Builds scalar-or-vector constants and ops shaped like `like`.
class ShapedBuilder {
public:
  ShapedBuilder(PatternRewriter &rewriter, Location loc, Type like)
      : rewriter(rewriter), loc(loc), like(like) {}

  Type shaped(Type element) const {
    if (auto vector = dyn_cast<VectorType>(like))
      return vector.clone(element);
    return element;
  }
  Value integer(unsigned width, int64_t value) {
    return createScalarOrSplatConstant(
        rewriter, loc, shaped(rewriter.getIntegerType(width)), value);
  }
  Value real(double value) {
    return createScalarOrSplatConstant(
        rewriter, loc, shaped(rewriter.getF32Type()), APFloat(float(value)));
  }
  template <typename OpTy, typename... Args> Value make(Args &&...args) {
    return OpTy::create(rewriter, loc, std::forward<Args>(args)...);
  }

  PatternRewriter &rewriter;
  Location loc;
  Type like;
};

/// f8 -> f32: the exponent rebiased and the mantissa moved into place for
/// normal values; subnormals are their mantissa times 2^(1 - bias - m).
struct ExpandF8ExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<F8Format> format =
        getF8Format(getElementTypeOrSelf(op.getIn().getType()));
    if (!format)
      return failure();
    ShapedBuilder b(rewriter, op.getLoc(), op.getType());
    Type i8 = b.shaped(rewriter.getI8Type()),
         i32 = b.shaped(rewriter.getI32Type());
    int64_t m = format->mantissaBits;
    int64_t exponentMask = (1 << (7 - m)) - 1;
    Value byte = b.make<arith::BitcastOp>(i8, op.getIn());
    Value bits = b.make<arith::ExtUIOp>(i32, byte);
    Value sign = b.make<arith::ShLIOp>(
        b.make<arith::AndIOp>(bits, b.integer(32, 0x80)), b.integer(32, 24));
    Value exponent =
        b.make<arith::AndIOp>(b.make<arith::ShRUIOp>(bits, b.integer(32, m)),
                              b.integer(32, exponentMask));
    Value mantissa = b.make<arith::AndIOp>(bits, b.integer(32, (1 << m) - 1));
    // Normal: (exponent - bias + 127) << 23 | mantissa << (23 - m).
    Value normal = b.make<arith::OrIOp>(
        b.make<arith::ShLIOp>(
            b.make<arith::AddIOp>(exponent, b.integer(32, 127 - format->bias)),
            b.integer(32, 23)),
        b.make<arith::ShLIOp>(mantissa, b.integer(32, 23 - m)));
    Value normalValue =
        b.make<arith::BitcastOp>(b.shaped(rewriter.getF32Type()), normal);
    // Subnormal (exponent 0): mantissa x 2^(1 - bias - m), exact in f32.
    Value subnormalValue = b.make<arith::MulFOp>(
        b.make<arith::UIToFPOp>(b.shaped(rewriter.getF32Type()), mantissa),
        b.real(std::ldexp(1.0, 1 - format->bias - m)));
    Value isSubnormal = b.make<arith::CmpIOp>(arith::CmpIPredicate::eq,
                                              exponent, b.integer(32, 0));
    Value magnitude =
        b.make<arith::SelectOp>(isSubnormal, subnormalValue, normalValue);
    // The top exponent: E4M3FN's S.1111.111 is NaN (its other codes are
    // normal); E5M2's is infinity (mantissa 0) or NaN.
    Value top = b.make<arith::CmpIOp>(arith::CmpIPredicate::eq, exponent,
                                      b.integer(32, exponentMask));
    Value special;
    if (format->hasInfinity) {
      Value isInfinity = b.make<arith::CmpIOp>(arith::CmpIPredicate::eq,
                                               mantissa, b.integer(32, 0));
      special = b.make<arith::SelectOp>(
          isInfinity, b.real(std::numeric_limits<double>::infinity()),
          b.real(std::numeric_limits<double>::quiet_NaN()));
    } else {
      Value isNaN = b.make<arith::CmpIOp>(arith::CmpIPredicate::eq, mantissa,
                                          b.integer(32, (1 << m) - 1));
      top = b.make<arith::AndIOp>(top, isNaN);
      special = b.real(std::numeric_limits<double>::quiet_NaN());
    }
    magnitude = b.make<arith::SelectOp>(top, special, magnitude);
    Value signed_ =
        b.make<arith::OrIOp>(b.make<arith::BitcastOp>(i32, magnitude), sign);
    Value value =
        b.make<arith::BitcastOp>(b.shaped(rewriter.getF32Type()), signed_);
    // Wider and 16-bit floats hold every 8-bit float exactly.
    Type resultElement = getElementTypeOrSelf(op.getType());
    if (resultElement.getIntOrFloatBitWidth() > 32)
      value = b.make<arith::ExtFOp>(op.getType(), value);
    else if (!resultElement.isF32())
      value = b.make<arith::TruncFOp>(op.getType(), value);
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// f32 -> f8, rounding to nearest even and saturating to the largest finite
/// value. Normal results round the f32 mantissa to m bits (a carry moves
/// into the exponent); subnormal ones are |x| x 2^(bias - 1 + m) rounded to
/// an integer, whose code is that integer (8 for E4M3 is the smallest
/// normal, 2^-6, exactly its code).
struct ExpandF8TruncF : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<F8Format> format =
        getF8Format(getElementTypeOrSelf(op.getType()));
    if (!format)
      return failure();
    ShapedBuilder b(rewriter, op.getLoc(), op.getType());
    Type i8 = b.shaped(rewriter.getI8Type()),
         i32 = b.shaped(rewriter.getI32Type());
    int64_t m = format->mantissaBits, shift = 23 - m;
    // f16 and bf16 widen to f32 exactly (f64 narrows first, rounding twice).
    Value x = op.getIn();
    Type source = getElementTypeOrSelf(x.getType());
    if (source.getIntOrFloatBitWidth() < 32)
      x = b.make<arith::ExtFOp>(b.shaped(rewriter.getF32Type()), x);
    else if (!source.isF32())
      x = b.make<arith::TruncFOp>(b.shaped(rewriter.getF32Type()), x);
    Value bits = b.make<arith::BitcastOp>(i32, x);
    Value sign = b.make<arith::AndIOp>(
        b.make<arith::ShRUIOp>(bits, b.integer(32, 24)), b.integer(32, 0x80));
    Value magnitude = b.make<math::AbsFOp>(x);
    // Saturate (infinities too); NaN is handled at the end.
    magnitude = b.make<arith::MinimumFOp>(magnitude, b.real(format->largest));
    Value magnitudeBits = b.make<arith::BitcastOp>(i32, magnitude);
    Value lsb = b.make<arith::AndIOp>(
        b.make<arith::ShRUIOp>(magnitudeBits, b.integer(32, shift)),
        b.integer(32, 1));
    Value rounded = b.make<arith::AddIOp>(
        b.make<arith::AddIOp>(magnitudeBits,
                              b.integer(32, (int64_t(1) << (shift - 1)) - 1)),
        lsb);
    Value exponent = b.make<arith::SubIOp>(
        b.make<arith::ShRUIOp>(rounded, b.integer(32, 23)),
        b.integer(32, 127 - format->bias));
    Value normalCode = b.make<arith::OrIOp>(
        b.make<arith::ShLIOp>(exponent, b.integer(32, m)),
        b.make<arith::AndIOp>(
            b.make<arith::ShRUIOp>(rounded, b.integer(32, shift)),
            b.integer(32, (1 << m) - 1)));
    Value scaled = b.make<arith::MulFOp>(
        magnitude, b.real(std::ldexp(1.0, format->bias - 1 + m)));
    Value subnormalCode =
        b.make<arith::FPToUIOp>(i32, b.make<math::RoundEvenOp>(scaled));
    Value isNormal =
        b.make<arith::CmpFOp>(arith::CmpFPredicate::OGE, magnitude,
                              b.real(std::ldexp(1.0, 1 - format->bias)));
    Value code = b.make<arith::SelectOp>(isNormal, normalCode, subnormalCode);
    Value isNaN = b.make<arith::CmpFOp>(arith::CmpFPredicate::UNO, x, x);
    code = b.make<arith::SelectOp>(isNaN, b.integer(32, format->nanCode), code);
    Value byte = b.make<arith::TruncIOp>(i8, b.make<arith::OrIOp>(code, sign));
    rewriter.replaceOp(op, b.make<arith::BitcastOp>(op.getType(), byte));
    return success();
  }
};

class ExpandF8CastsPass
    : public prec::impl::PrecExpandF8CastsBase<ExpandF8CastsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandF8ExtF, ExpandF8TruncF>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
