//===- TosaPrecisionModels.cpp - PrecisionOpInterface for TOSA ops --------===//
//
// One line per op: its class, its range transfer and, where not every
// tensor operand carries data, how many leading operands do.
//
//===----------------------------------------------------------------------===//

#include "dialects/ExternalModels/PrecisionModels.h"

#include "dialects/ExternalModels/RangeTransfers.h"
#include "dialects/Precision/PrecisionOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

namespace prec {
namespace {

/// Reductions of at least this many elements per output are sensitive: the
/// rounding error of a reduced-precision sum grows with its length.
constexpr int64_t kSensitiveReductionLength = 256;

/// Every tensor operand carries data.
constexpr unsigned kAllDataOperands = ~0u;

/// An op of class `Class` whose results `Transfer` bounds. Ops with a `Form`
/// (contractions, average pooling) accumulate, in the type it says; the
/// first `DataOperands` tensor operands carry data.
template <typename OpTy, OpClass Class, RangeTransfer Transfer = unknownRange,
          unsigned DataOperands = kAllDataOperands, bool Quantizable = false,
          AccumulatorForm Form = AccumulatorForm::None>
struct OpModel
    : precision::PrecisionOpInterface::ExternalModel<
          OpModel<OpTy, Class, Transfer, DataOperands, Quantizable, Form>,
          OpTy> {
  OpClass getOpClass(Operation *) const { return Class; }
  bool accumulates(Operation *) const { return Form != AccumulatorForm::None; }
  bool isQuantizable(Operation *) const { return Quantizable; }
  AccumulatorForm getAccumulatorForm(Operation *) const { return Form; }
  SmallVector<Value> getDataOperands(Operation *op) const {
    SmallVector<Value> operands = getTensorOperands(op);
    if (operands.size() > DataOperands)
      operands.resize(DataOperands);
    return operands;
  }
  Interval inferResultRange(Operation *op, ArrayRef<Interval> operands,
                            ConstantValues &constants) const {
    return Transfer(op, operands, constants);
  }
};

/// A sum or product along an axis: sensitive when long (or of unknown
/// length), a plain reduction otherwise. Sums accumulate.
template <typename OpTy, RangeTransfer Transfer, bool Accumulates>
struct LongReductionModel
    : precision::PrecisionOpInterface::ExternalModel<
          LongReductionModel<OpTy, Transfer, Accumulates>, OpTy> {
  OpClass getOpClass(Operation *op) const {
    int64_t length = getReductionLength(op);
    return ShapedType::isDynamic(length) || length >= kSensitiveReductionLength
               ? OpClass::Sensitive
               : OpClass::Reduction;
  }
  bool accumulates(Operation *) const { return Accumulates; }
  AccumulatorForm getAccumulatorForm(Operation *) const {
    return Accumulates ? AccumulatorForm::Operand : AccumulatorForm::None;
  }
  Interval inferResultRange(Operation *op, ArrayRef<Interval> operands,
                            ConstantValues &constants) const {
    return Transfer(op, operands, constants);
  }
};

template <typename OpTy, RangeTransfer Transfer, AccumulatorForm Form>
using Contraction = OpModel<OpTy, OpClass::Contraction, Transfer,
                            kAllDataOperands, false, Form>;
/// A contraction prec-quantize runs in i8 or f8 (cuBLASLt and cuDNN take
/// them, and the CPU lowering dequantizes their accumulators).
template <typename OpTy, RangeTransfer Transfer, AccumulatorForm Form>
using QuantizableContraction =
    OpModel<OpTy, OpClass::Contraction, Transfer, kAllDataOperands, true, Form>;
template <typename OpTy, RangeTransfer Transfer>
using Sensitive = OpModel<OpTy, OpClass::Sensitive, Transfer>;
template <typename OpTy, RangeTransfer Transfer = firstOperandRange>
using Reduction = OpModel<OpTy, OpClass::Reduction, Transfer>;
template <typename OpTy, RangeTransfer Transfer>
using Pooling = OpModel<OpTy, OpClass::Pooling, Transfer>;
/// Average pooling sums its window in `acc_type`, which TOSA allows to be f32
/// (or f16 for f16) but not bf16: it accumulates as convolutions do.
template <typename OpTy, RangeTransfer Transfer>
using SummingPooling =
    OpModel<OpTy, OpClass::Pooling, Transfer, kAllDataOperands, false,
            AccumulatorForm::Attribute>;
template <typename OpTy, RangeTransfer Transfer,
          unsigned DataOperands = kAllDataOperands>
using Elementwise =
    OpModel<OpTy, OpClass::Elementwise, Transfer, DataOperands>;
template <typename OpTy, RangeTransfer Transfer = firstOperandRange>
using DataMovement = OpModel<OpTy, OpClass::DataMovement, Transfer>;
template <typename OpTy>
using Cast = OpModel<OpTy, OpClass::Cast, firstOperandRange>;
/// Ops prec gives no precision of their own, whose results it still bounds.
template <typename OpTy, RangeTransfer Transfer>
using Unassigned = OpModel<OpTy, OpClass::Other, Transfer>;

void attachTosaModels(MLIRContext *context) {
  using namespace tosa;
  constexpr AccumulatorForm inResult = AccumulatorForm::Result;
  constexpr AccumulatorForm inAttribute = AccumulatorForm::Attribute;
  MatMulOp::attachInterface<
      QuantizableContraction<MatMulOp, matmulRange, inResult>>(*context);
  Conv2DOp::attachInterface<
      QuantizableContraction<Conv2DOp, convolutionRange, inAttribute>>(
      *context);
  Conv3DOp::attachInterface<
      Contraction<Conv3DOp, convolutionRange, inAttribute>>(*context);
  TransposeConv2DOp::attachInterface<
      Contraction<TransposeConv2DOp, convolutionRange, inAttribute>>(*context);
  DepthwiseConv2DOp::attachInterface<
      Contraction<DepthwiseConv2DOp, depthwiseConvolutionRange, inAttribute>>(
      *context);

  ExpOp::attachInterface<Sensitive<ExpOp, expRange>>(*context);
  LogOp::attachInterface<Sensitive<LogOp, logRange>>(*context);
  PowOp::attachInterface<Sensitive<PowOp, powerRange>>(*context);
  ReciprocalOp::attachInterface<Sensitive<ReciprocalOp, reciprocalRange>>(
      *context);
  RsqrtOp::attachInterface<Sensitive<RsqrtOp, rsqrtRange>>(*context);

  ReduceSumOp::attachInterface<
      LongReductionModel<ReduceSumOp, reduceSumRange, true>>(*context);
  ReduceProductOp::attachInterface<
      LongReductionModel<ReduceProductOp, unknownRange, false>>(*context);
  ReduceMaxOp::attachInterface<Reduction<ReduceMaxOp>>(*context);
  ReduceMinOp::attachInterface<Reduction<ReduceMinOp>>(*context);

  MaxPool2dOp::attachInterface<Pooling<MaxPool2dOp, firstOperandRange>>(
      *context);
  AvgPool2dOp::attachInterface<SummingPooling<AvgPool2dOp, avgPoolRange>>(
      *context);

  AddOp::attachInterface<Elementwise<AddOp, addRange>>(*context);
  SubOp::attachInterface<Elementwise<SubOp, subRange>>(*context);
  // The shift is not data.
  MulOp::attachInterface<Elementwise<MulOp, mulRange, 2>>(*context);
  // Nor are the zero points.
  NegateOp::attachInterface<Elementwise<NegateOp, negateRange, 1>>(*context);
  AbsOp::attachInterface<Elementwise<AbsOp, absRange>>(*context);
  ClampOp::attachInterface<Elementwise<ClampOp, clampRange>>(*context);
  MaximumOp::attachInterface<Elementwise<MaximumOp, maximumRange>>(*context);
  MinimumOp::attachInterface<Elementwise<MinimumOp, minimumRange>>(*context);
  SigmoidOp::attachInterface<Elementwise<SigmoidOp, sigmoidRange>>(*context);
  TanhOp::attachInterface<Elementwise<TanhOp, tanhRange>>(*context);
  ErfOp::attachInterface<Elementwise<ErfOp, erfRange>>(*context);
  FloorOp::attachInterface<Elementwise<FloorOp, floorRange>>(*context);
  CeilOp::attachInterface<Elementwise<CeilOp, ceilRange>>(*context);
  SinOp::attachInterface<Elementwise<SinOp, unitRange>>(*context);
  CosOp::attachInterface<Elementwise<CosOp, unitRange>>(*context);
  SelectOp::attachInterface<Elementwise<SelectOp, selectRange>>(*context);

  ReshapeOp::attachInterface<DataMovement<ReshapeOp>>(*context);
  TransposeOp::attachInterface<DataMovement<TransposeOp>>(*context);
  SliceOp::attachInterface<DataMovement<SliceOp>>(*context);
  TileOp::attachInterface<DataMovement<TileOp>>(*context);
  ReverseOp::attachInterface<DataMovement<ReverseOp>>(*context);
  IdentityOp::attachInterface<DataMovement<IdentityOp>>(*context);
  GatherOp::attachInterface<DataMovement<GatherOp>>(*context);
  ConcatOp::attachInterface<DataMovement<ConcatOp, joinedRange>>(*context);
  PadOp::attachInterface<DataMovement<PadOp, padRange>>(*context);

  CastOp::attachInterface<Cast<CastOp>>(*context);
  ConstOp::attachInterface<Unassigned<ConstOp, constantRange>>(*context);
}

} // namespace

void registerPrecisionExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tosa::TosaDialect *) {
    attachTosaModels(context);
  });
  // The importer's float division and square root (TOSA has neither
  // correctly rounded): elementwise like TensorRT's kDIV and kSQRT, in the
  // enabled precision unless their range does not fit it.
  registry.addExtension(+[](MLIRContext *context, arith::ArithDialect *) {
    arith::ConstantOp::attachInterface<
        Unassigned<arith::ConstantOp, constantRange>>(*context);
    arith::DivFOp::attachInterface<Elementwise<arith::DivFOp, quotientRange>>(
        *context);
  });
  registry.addExtension(+[](MLIRContext *context, math::MathDialect *) {
    math::SqrtOp::attachInterface<Elementwise<math::SqrtOp, sqrtRange>>(
        *context);
  });
}

} // namespace prec
