//===- ConvolutionPlan.h - how a convolution runs on the GPU ----*- C++ -*-===//
//
// A tosa.conv2d runs as one of the engine's convolution algorithms
// (#engine.conv_algorithm): a direct kernel, one cuBLASLt GEMM on its input
// (1x1, unit strides), an im2col kernel and a GEMM, or cuDNN. What decides
// is here, shared by prec-choose-conv-algorithms and the emitter.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_LOWERING_CONVOLUTIONPLAN_H
#define PREC_LOWERING_CONVOLUTIONPLAN_H

#include "dialects/Engine/EngineDialect.h"
#include "lowering/BatchRange.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <optional>

namespace prec {

/// A convolution's operands and their shapes (NHWC input and output, OHWI
/// weights) and its window attributes.
struct ConvGeometry {
  mlir::Value input, weight, bias, result;
  llvm::ArrayRef<int64_t> in, w, out, pad, stride, dilation;

  explicit ConvGeometry(mlir::tosa::Conv2DOp op);

  /// Whether padding the end of each spatial dimension like its start gives
  /// the same output (TOSA trims end padding no window reaches), as cuDNN
  /// pads both ends alike.
  bool padsAlike() const;
};

/// Whether a convolution can run as a cuBLASLt GEMM (im2col or not) or
/// through cuDNN; the others run a direct kernel.
bool isConvGemm(mlir::tosa::Conv2DOp op);

/// The K of a convolution's GEMM: KH * KW * C, padded to a multiple of 16
/// for 8-bit types (with zeros in the columns and the stored weights).
int64_t getConvGemmDepth(mlir::tosa::Conv2DOp op);

/// An int8 convolution accumulating in int32 whose taps are whole 16-byte
/// chunks of C: prec's implicit-GEMM kernel copies those chunks.
bool fitsImplicitGemm(mlir::tosa::Conv2DOp op);

/// The tensor an implicit-GEMM convolution may read in place of its input,
/// a slice cropping only the end of the source's rows and columns (TOSA
/// needs the stride to divide the span its windows cover exactly, so
/// importers crop what no window reaches): the source, where every row and
/// column the windows read lies inside the slice; else none.
mlir::Value getUncroppedInput(mlir::tosa::Conv2DOp op);

/// Which of cuDNN and im2col the convolutions that may take either take;
/// int8 ones with C a multiple of 16 run as prec's implicit GEMM but with
/// Im2col.
enum class ConvolutionPreference {
  Auto,   // cuDNN for those of 1 GFLOP or more at the optimum batch
  Im2col, // always im2col
  Cudnn   // always cuDNN
};

/// The command-line spelling of ConvolutionPreference, for every option
/// that takes one.
#define PREC_CONVOLUTION_PREFERENCE_VALUES                                     \
  ::llvm::cl::values(                                                          \
      clEnumValN(::prec::ConvolutionPreference::Auto, "auto",                  \
                 "cuDNN for those of 1 GFLOP or more, else im2col, and int8 "  \
                 "ones as an implicit GEMM (default)"),                        \
      clEnumValN(::prec::ConvolutionPreference::Im2col, "im2col",              \
                 "an im2col kernel and a cuBLASLt GEMM, int8 ones too"),       \
      clEnumValN(::prec::ConvolutionPreference::Cudnn, "cudnn",                \
                 "through cuDNN"))

/// The algorithm `op` runs with, at the optimum of `batch` if the engine
/// has a dynamic batch.
engine::ConvAlgorithm chooseConvAlgorithm(mlir::tosa::Conv2DOp op,
                                          ConvolutionPreference preference,
                                          std::optional<BatchRange> batch);

} // namespace prec

#endif // PREC_LOWERING_CONVOLUTIONPLAN_H
