//===- SpaceToDepth.cpp - strided int8 convolutions over few channels -----===//
//
// prec's implicit-GEMM convolution copies its receptive fields 16 bytes of
// one tap at a time, so an int8 input needs C a multiple of 16; others go
// through im2col. An image's stem (ResNet's 7x7 stride-2 convolution over 3
// channels) has 3. A convolution of stride s is the same sum as a unit-stride
// one over the input's space-to-depth (each s x s block of positions one
// position of s * s * C channels) with ceil(K / s)-tap filters, zeros where the
// original had no tap: with C padded to C' so that s * s * C' is a multiple
// of 16, the stem's 7x7x3 becomes 4x4x16 (K = 256 rather than 49 taps of 16
// channels, 784). Integer sums are exact, so the result is the same.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Utils/Constants.h"
#include "dialects/Utils/Shapes.h"
#include "lowering/ConvolutionPlan.h"
#include "lowering/PlannableFunction.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECSPACETODEPTH
#include "lowering/Passes.h.inc"

namespace {

/// The bytes of K the implicit GEMM copies at a time: C must be a multiple.
constexpr int64_t chunkBytes = 16;

/// A strided convolution's space-to-depth form: the block size s, the
/// padded channels C' and the filters' taps ceil(K / s).
struct SpaceToDepth {
  int64_t block, channels, tapsHigh, tapsWide;

  /// The rewritten convolution's K.
  int64_t depth() const {
    return tapsHigh * tapsWide * block * block * channels;
  }
};

/// The form `op` takes, if it is an int8 convolution (exact integer sums,
/// zero points of zero) with equal strides above 1 and no dilation, over
/// channels that are not whole chunks, whose K in that form is smaller
/// than with each tap's C padded to a chunk.
std::optional<SpaceToDepth> getSpaceToDepth(tosa::Conv2DOp op) {
  const ConvGeometry g(op);
  int64_t s = g.stride[0], c = g.in[3];
  if (!getElementTypeOrSelf(g.input.getType()).isInteger(8) ||
      !getElementTypeOrSelf(g.weight.getType()).isInteger(8) ||
      !op.getAccType().isInteger(32) || s < 2 || g.stride[1] != s ||
      g.dilation[0] != 1 || g.dilation[1] != 1 || c % chunkBytes == 0 ||
      !matchPattern(g.weight, m_Constant<DenseElementsAttr>(nullptr)) ||
      !isZeroConstant(op.getInputZp()) || !isZeroConstant(op.getWeightZp()))
    return std::nullopt;
  SpaceToDepth form{s, c, llvm::divideCeilSigned(g.w[1], s),
                    llvm::divideCeilSigned(g.w[2], s)};
  while (s * s * form.channels % chunkBytes)
    ++form.channels;
  int64_t padded = g.w[1] * g.w[2] * llvm::alignTo(c, chunkBytes);
  if (form.depth() >= padded)
    return std::nullopt;
  return form;
}

/// The input, padded (the convolution's padding, then zeros to whole
/// blocks and C' channels) and rearranged: NHWC to N x H/s x W/s x (s s C').
Value rearrangeInput(ImplicitLocOpBuilder &b, tosa::Conv2DOp op,
                     const SpaceToDepth &form) {
  const ConvGeometry g(op);
  int64_t s = form.block, n = g.in[0], c = form.channels;
  int64_t height = s * (g.out[1] + form.tapsHigh - 1);
  int64_t width = s * (g.out[2] + form.tapsWide - 1);
  auto type = cast<RankedTensorType>(g.input.getType());
  SmallVector<int64_t> padding = {0,        0,
                                  g.pad[0], height - g.in[1] - g.pad[0],
                                  g.pad[2], width - g.in[2] - g.pad[2],
                                  0,        c - g.in[3]};
  Value padded =
      tosa::PadOp::create(b, type.clone({n, height, width, c}), g.input,
                          tosa::getTosaConstShape(b, padding),
                          tosa::createPadConstTensor(b, b.getLoc(), g.input));
  SmallVector<int64_t> blocks = {n, height / s, s, width / s, s, c};
  Value split = tosa::ReshapeOp::create(b, type.clone(blocks), padded,
                                        tosa::getTosaConstShape(b, blocks));
  SmallVector<int64_t> gathered = {n, height / s, width / s, s, s, c};
  Value moved =
      tosa::TransposeOp::create(b, type.clone(gathered), split,
                                b.getDenseI32ArrayAttr({0, 1, 3, 2, 4, 5}));
  SmallVector<int64_t> shape = {n, height / s, width / s, s * s * c};
  return tosa::ReshapeOp::create(b, type.clone(shape), moved,
                                 tosa::getTosaConstShape(b, shape));
}

/// The filters in the same form: OHWI to O x ceil(KH/s) x ceil(KW/s) x
/// (s s C'), tap (a s + p, b s + q) of channel c at (a, b, (p s + q) C' + c),
/// zeros elsewhere.
Value rearrangeWeights(ImplicitLocOpBuilder &b, tosa::Conv2DOp op,
                       const SpaceToDepth &form) {
  const ConvGeometry g(op);
  DenseElementsAttr weights;
  matchPattern(g.weight, m_Constant(&weights));
  ArrayRef<int8_t> from(
      reinterpret_cast<const int8_t *>(weights.getRawData().data()),
      weights.isSplat() ? 1 : weights.getNumElements());
  int64_t s = form.block, c = form.channels;
  int64_t depth = s * s * c;
  SmallVector<int64_t> shape = {g.w[0], form.tapsHigh, form.tapsWide, depth};
  std::vector<int8_t> to(g.w[0] * form.depth(), 0);
  for (int64_t f = 0; f < g.w[0]; ++f)
    for (int64_t y = 0; y < g.w[1]; ++y)
      for (int64_t x = 0; x < g.w[2]; ++x)
        for (int64_t i = 0; i < g.w[3]; ++i) {
          int64_t source = ((f * g.w[1] + y) * g.w[2] + x) * g.w[3] + i;
          int64_t target =
              ((f * form.tapsHigh + y / s) * form.tapsWide + x / s) * depth +
              ((y % s) * s + x % s) * c + i;
          to[target] = from[weights.isSplat() ? 0 : source];
        }
  auto type = cast<RankedTensorType>(g.weight.getType()).clone(shape);
  return tosa::ConstOp::create(
      b, type,
      DenseElementsAttr::getFromRawBuffer(
          type, ArrayRef<char>(reinterpret_cast<const char *>(to.data()),
                               to.size())));
}

/// Rewrites `op` in its space-to-depth form; the new ops carry its layer.
void rewrite(tosa::Conv2DOp op, const SpaceToDepth &form) {
  ImplicitLocOpBuilder b(op.getLoc(), op);
  Value input = rearrangeInput(b, op, form);
  Value weights = rearrangeWeights(b, op, form);
  StringRef layerAttr = precision::PrecisionDialect::getLayerAttrName();
  if (Attribute layer = op->getAttr(layerAttr))
    for (Value moved = input; moved != op.getInput();
         moved = moved.getDefiningOp()->getOperand(0))
      moved.getDefiningOp()->setAttr(layerAttr, layer);
  op.getInputMutable().assign(input);
  op.getWeightMutable().assign(weights);
  op.setPad({0, 0, 0, 0});
  op.setStride({1, 1});
}

class SpaceToDepthPass
    : public PlanPass<SpaceToDepthPass, impl::PrecSpaceToDepthBase> {
public:
  using PlanPass::PlanPass;

  LogicalResult plan(func::FuncOp function) {
    // im2col pads K to 16 bytes, not each tap's channels: the rewrite
    // would only make its columns longer.
    if (preference == ConvolutionPreference::Im2col)
      return success();
    function.walk([&](tosa::Conv2DOp op) {
      if (std::optional<SpaceToDepth> form = getSpaceToDepth(op))
        rewrite(op, *form);
    });
    return success();
  }
};

} // namespace

} // namespace prec
