//===- ConvolutionPlan.cpp - how a convolution runs on the GPU ------------===//

#include "lowering/ConvolutionPlan.h"

#include "lowering/BufferAliases.h"
#include "lowering/DeviceTypes.h"
#include "lowering/ElementwiseExpressionInterface.h"

#include "dialects/Utils/Constants.h"
#include "dialects/Utils/Shapes.h"

#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace prec {

ConvGeometry::ConvGeometry(tosa::Conv2DOp op)
    : input(op.getInput()), weight(op.getWeight()), bias(op.getBias()),
      result(op.getResult()), in(shapeOf(input)), w(shapeOf(weight)),
      out(shapeOf(result)), pad(op.getPad()), stride(op.getStride()),
      dilation(op.getDilation()) {}

bool ConvGeometry::padsAlike() const {
  for (int64_t d = 0; d < 2; ++d)
    if ((in[1 + d] + 2 * pad[2 * d] - dilation[d] * (w[1 + d] - 1) - 1) /
                stride[d] +
            1 !=
        out[1 + d])
      return false;
  return true;
}

Value getUncroppedInput(tosa::Conv2DOp op) {
  auto slice = op.getInput().getDefiningOp<tosa::SliceOp>();
  SmallVector<int64_t> start;
  if (!slice ||
      !tosa::getConstShapeValues(slice.getStart().getDefiningOp(), start) ||
      llvm::any_of(start, [](int64_t s) { return s != 0; }))
    return nullptr;
  const ConvGeometry g(op);
  ArrayRef<int64_t> source = shapeOf(slice.getInput1());
  if (source.size() != 4 || source[0] != g.in[0] || source[3] != g.in[3])
    return nullptr;
  // The last row (column) the windows read, padding aside: inside the
  // slice, so the source holds the same values there.
  for (int64_t d = 0; d < 2; ++d)
    if ((g.out[1 + d] - 1) * g.stride[d] - g.pad[2 * d] +
            (g.w[1 + d] - 1) * g.dilation[d] >=
        g.in[1 + d])
      return nullptr;
  return slice.getInput1();
}

/// Float inputs and weights of one type, an accumulator cuBLASLt has, and a
/// bias in the storage type that is known when the engine is created (its
/// pointer goes into the GEMM descriptor).
bool isConvGemm(tosa::Conv2DOp op) {
  Type accType = op.getAccType();
  Type inputType = getElementTypeOrSelf(op.getInput().getType());
  // Float inputs accumulate in f32 (f16 inputs may in f16), i8 in i32.
  bool hasAccumulator =
      (isa<FloatType>(inputType) &&
       (accType.isF32() || (accType.isF16() && inputType.isF16()))) ||
      (inputType.isInteger(8) && accType.isInteger(32));
  return hasAccumulator && getDeviceType(inputType) &&
         getDeviceType(inputType)->cudaType &&
         getElementTypeOrSelf(op.getWeight().getType()) == inputType &&
         getElementTypeOrSelf(op.getBias().getType()) ==
             getElementTypeOrSelf(op.getType()) &&
         !isa<BlockArgument>(getStorageRoot(op.getBias()));
}

/// 8-bit cuBLASLt GEMMs need K a multiple of 16 (ResNet's first convolution
/// has K = 7 * 7 * 3).
int64_t getConvGemmDepth(tosa::Conv2DOp op) {
  ArrayRef<int64_t> w = shapeOf(op.getWeight());
  int64_t depth = w[1] * w[2] * w[3];
  Type input = getElementTypeOrSelf(op.getInput().getType());
  bool eightBit = input.getIntOrFloatBitWidth() == 8;
  return isConvGemm(op) && eightBit ? (depth + 15) / 16 * 16 : depth;
}

/// Each cuDNN call costs tens of microseconds on the host (cuDNN 9 builds
/// its legacy calls on its graph API), which a small convolution cannot
/// hide; a large one gains from not writing im2col columns. On an H200,
/// ResNet-50 f16 at batch 64 (convolutions of 1.8 to 15 GFLOP) ran in
/// 2.63 ms through cuDNN against 5.00 ms with im2col, and ResNet-18 at batch
/// 1 (0.1 to 0.2 GFLOP) in 1.12 ms against 0.27 to 0.46 ms.
static constexpr double cudnnMinimumFlops = 1e9;

/// Whether a convolution whose GEMM is rows x channels x depth (at the
/// largest batch) runs through cuDNN.
static bool prefersCudnn(int64_t rows, int64_t channels, int64_t depth,
                         ConvolutionPreference preference,
                         std::optional<BatchRange> batch) {
  switch (preference) {
  case ConvolutionPreference::Cudnn:
    return true;
  case ConvolutionPreference::Im2col:
    return false;
  case ConvolutionPreference::Auto:
    break;
  }
  double flops = 2.0 * rows * channels * depth;
  if (batch)
    flops = flops / batch->max * batch->opt;
  return flops >= cudnnMinimumFlops;
}

/// Whether a convolution without a bias has only one reader, an elementwise
/// op reading it at its own shape, which an implicit GEMM's epilogue can
/// compute (prec-plan-kernels decides; see its getEpilogueKernel).
static bool hasElementwiseReader(tosa::Conv2DOp op) {
  if (!op->hasOneUse() || !isZeroConstant(op.getBias()))
    return false;
  Operation *reader = *op->user_begin();
  return isElementwise(reader) &&
         shapeOf(reader->getResult(0)) == shapeOf(op.getResult());
}

bool fitsImplicitGemm(tosa::Conv2DOp op) {
  Type inputType = getElementTypeOrSelf(op.getInput().getType());
  return inputType.isInteger(8) && op.getAccType().isInteger(32) &&
         shapeOf(op.getInput())[3] % 16 == 0;
}

engine::ConvAlgorithm chooseConvAlgorithm(tosa::Conv2DOp op,
                                          ConvolutionPreference preference,
                                          std::optional<BatchRange> batch) {
  if (!isConvGemm(op))
    return engine::ConvAlgorithm::Direct;
  const ConvGeometry geometry(op);
  ArrayRef<int64_t> w = geometry.w, out = geometry.out;
  int64_t depth = w[1] * w[2] * w[3];
  // A 1x1 convolution with unit strides and no padding reads its NHWC input
  // as the rows x C matrix directly.
  bool pointwise =
      w[1] == 1 && w[2] == 1 && llvm::all_equal({geometry.stride[0],
                                                 geometry.stride[1],
                                                 int64_t(1)}) &&
      llvm::all_of(geometry.pad, [](int64_t p) { return p == 0; }) &&
      getConvGemmDepth(op) == depth;
  // An int8 one whose only reader is elementwise (its dequantization) runs
  // as the implicit GEMM too, which computes that reader's kernel in its
  // epilogue: cuBLASLt would write int32 outputs, 4 bytes each, for a
  // kernel of their own to read back.
  if (pointwise)
    return preference != ConvolutionPreference::Im2col &&
                   fitsImplicitGemm(op) && hasElementwiseReader(op)
               ? engine::ConvAlgorithm::ImplicitGemm
               : engine::ConvAlgorithm::Gemm;
  // cuDNN runs the f32, f16 and bf16 ones.
  Type inputType = getElementTypeOrSelf(geometry.input.getType());
  bool cudnnType = inputType.isF32() || inputType.isF16() || inputType.isBF16();
  if (cudnnType && geometry.padsAlike() &&
      prefersCudnn(out[0] * out[1] * out[2], out[3], depth, preference, batch))
    return engine::ConvAlgorithm::Cudnn;
  // The others read no columns where they can: im2col's cost grows with
  // the window (ResNet-50's 3x3 int8 convolutions at batch 64 spend more
  // writing and reading their columns than multiplying them).
  if (preference != ConvolutionPreference::Im2col && fitsImplicitGemm(op))
    return engine::ConvAlgorithm::ImplicitGemm;
  return engine::ConvAlgorithm::Im2col;
}

} // namespace prec
