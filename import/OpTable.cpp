//===- OpTable.cpp - the handler of each ONNX op type ---------------------===//
//
// One table of {op type, since opset, handler}: adding an op is a handler in
// its family's file under ops/ and a row here. Ops that only fold (Shape,
// Size, ConstantOfShape, Range) are import/Folding's.
//
//===----------------------------------------------------------------------===//

#include "import/ImporterImpl.h"

namespace prec::onnx_import {

template <typename OpTy>
Importer::OpHandler::Handle Importer::binaryHandler(bool swapped) {
  return [swapped](Importer &importer, llvm::StringRef) -> LogicalResult {
    FailureOr<std::pair<Value, Value>> operands =
        importer.binaryOperands(swapped);
    if (failed(operands))
      return failure();
    auto [a, b] = *operands;
    importer.setOutput(0, importer.binary<OpTy>(a, b, elementOf(a)));
    return success();
  };
}

template <typename OpTy> Importer::OpHandler::Handle Importer::unaryHandler() {
  return [](Importer &importer, llvm::StringRef) -> LogicalResult {
    FailureOr<Value> x = importer.input(0);
    if (failed(x))
      return failure();
    importer.setOutput(0, importer.unary<OpTy>(*x));
    return success();
  };
}

const llvm::StringMap<Importer::OpHandler> &Importer::getOpTable() {
  using Handle = OpHandler::Handle;
  auto call = [](LogicalResult (Importer::*handler)()) -> Handle {
    return [handler](Importer &importer, llvm::StringRef) {
      return (importer.*handler)();
    };
  };
  auto byType =
      [](LogicalResult (Importer::*handler)(llvm::StringRef)) -> Handle {
    return [handler](Importer &importer, llvm::StringRef type) {
      return (importer.*handler)(type);
    };
  };
  auto flagged = [](LogicalResult (Importer::*handler)(bool),
                    llvm::StringRef whenTrue) -> Handle {
    return [handler, whenTrue](Importer &importer, llvm::StringRef type) {
      return (importer.*handler)(type == whenTrue);
    };
  };
  auto pool = [](bool isMax, bool global) -> Handle {
    return [isMax, global](Importer &importer, llvm::StringRef) {
      return importer.importPool(isMax, global);
    };
  };
  auto reduction = [](llvm::StringRef kind) -> Handle {
    return [kind](Importer &importer, llvm::StringRef) {
      return importer.importReduce(kind);
    };
  };
  static const llvm::StringMap<OpHandler> table = {
      // Elementwise arithmetic, comparisons and logic; Less(a, b) is
      // Greater(b, a).
      {"Add", {13, binaryHandler<tosa::AddOp>(false)}},
      {"Sub", {13, binaryHandler<tosa::SubOp>(false)}},
      {"Mul", {13, binaryHandler<tosa::MulOp>(false)}},
      {"Pow", {13, binaryHandler<tosa::PowOp>(false)}},
      {"Max", {13, binaryHandler<tosa::MaximumOp>(false)}},
      {"Min", {13, binaryHandler<tosa::MinimumOp>(false)}},
      {"Div", {13, call(&Importer::importDiv)}},
      {"Mod", {13, call(&Importer::importMod)}},
      {"Exp", {13, unaryHandler<tosa::ExpOp>()}},
      {"Log", {13, unaryHandler<tosa::LogOp>()}},
      {"Erf", {13, unaryHandler<tosa::ErfOp>()}},
      {"Neg", {13, unaryHandler<tosa::NegateOp>()}},
      {"Abs", {13, unaryHandler<tosa::AbsOp>()}},
      {"Reciprocal", {13, unaryHandler<tosa::ReciprocalOp>()}},
      {"Sigmoid", {13, unaryHandler<tosa::SigmoidOp>()}},
      {"Tanh", {13, unaryHandler<tosa::TanhOp>()}},
      {"Floor", {13, unaryHandler<tosa::FloorOp>()}},
      {"Ceil", {13, unaryHandler<tosa::CeilOp>()}},
      {"Sin", {13, unaryHandler<tosa::SinOp>()}},
      {"Cos", {13, unaryHandler<tosa::CosOp>()}},
      {"Sqrt", {13, call(&Importer::importSqrt)}},
      {"IsNaN", {13, call(&Importer::importIsNaN)}},
      {"Sign", {13, call(&Importer::importSign)}},
      {"Equal", {13, binaryHandler<tosa::EqualOp>(false)}},
      {"Greater", {13, binaryHandler<tosa::GreaterOp>(false)}},
      {"GreaterOrEqual", {13, binaryHandler<tosa::GreaterEqualOp>(false)}},
      {"Less", {13, binaryHandler<tosa::GreaterOp>(true)}},
      {"LessOrEqual", {13, binaryHandler<tosa::GreaterEqualOp>(true)}},
      {"Not", {13, unaryHandler<tosa::LogicalNotOp>()}},
      {"And", {13, binaryHandler<tosa::LogicalAndOp>(false)}},
      {"Or", {13, binaryHandler<tosa::LogicalOrOp>(false)}},
      {"Xor", {13, binaryHandler<tosa::LogicalXorOp>(false)}},
      {"Where", {13, call(&Importer::importWhere)}},
      {"Clip", {13, call(&Importer::importClip)}},
      {"Relu", {13, byType(&Importer::importActivation)}},
      {"LeakyRelu", {13, byType(&Importer::importActivation)}},
      {"HardSigmoid", {13, byType(&Importer::importActivation)}},
      {"HardSwish", {14, byType(&Importer::importActivation)}},
      {"Gelu", {20, byType(&Importer::importActivation)}},
      {"Cast", {13, call(&Importer::importCast)}},
      // Contractions and windows.
      {"MatMul", {13, call(&Importer::importMatMul)}},
      {"Gemm", {13, call(&Importer::importGemm)}},
      {"Einsum", {13, call(&Importer::importEinsum)}},
      {"Conv", {13, flagged(&Importer::importConv, "ConvTranspose")}},
      {"ConvTranspose", {13, flagged(&Importer::importConv, "ConvTranspose")}},
      {"MaxPool", {13, pool(true, false)}},
      {"AveragePool", {13, pool(false, false)}},
      {"GlobalMaxPool", {13, pool(true, true)}},
      {"GlobalAveragePool", {13, pool(false, true)}},
      // Normalizations and reductions.
      {"BatchNormalization", {13, call(&Importer::importBatchNormalization)}},
      {"LayerNormalization", {17, call(&Importer::importLayerNormalization)}},
      {"InstanceNormalization",
       {13, call(&Importer::importInstanceNormalization)}},
      {"GroupNormalization", {18, call(&Importer::importGroupNormalization)}},
      {"Softmax", {13, flagged(&Importer::importSoftmax, "LogSoftmax")}},
      {"LogSoftmax", {13, flagged(&Importer::importSoftmax, "LogSoftmax")}},
      {"ReduceMean", {13, reduction("mean")}},
      {"ReduceSum", {13, reduction("sum")}},
      {"ReduceMax", {13, reduction("max")}},
      {"ReduceMin", {13, reduction("min")}},
      {"ReduceL1", {13, reduction("l1")}},
      {"ReduceL2", {13, reduction("l2")}},
      {"ReduceSumSquare", {13, reduction("sumsquare")}},
      {"CumSum", {13, call(&Importer::importCumSum)}},
      // Shapes and data movement.
      {"Reshape", {13, call(&Importer::importReshape)}},
      {"Flatten", {13, call(&Importer::importFlatten)}},
      {"Transpose", {13, call(&Importer::importTranspose)}},
      {"Concat", {13, call(&Importer::importConcat)}},
      {"Split", {13, call(&Importer::importSplit)}},
      {"Slice", {13, call(&Importer::importSlice)}},
      {"Squeeze", {13, flagged(&Importer::importSqueeze, "Unsqueeze")}},
      {"Unsqueeze", {13, flagged(&Importer::importSqueeze, "Unsqueeze")}},
      {"Expand", {13, flagged(&Importer::importExpandOrTile, "Tile")}},
      {"Tile", {13, flagged(&Importer::importExpandOrTile, "Tile")}},
      {"Pad", {13, call(&Importer::importPad)}},
      {"Trilu", {14, call(&Importer::importTrilu)}},
      {"Dropout", {13, call(&Importer::importDropout)}},
      {"Identity", {13, call(&Importer::importIdentity)}},
      {"Constant", {13, call(&Importer::importConstant)}},
      // Indexing.
      {"Gather", {13, call(&Importer::importGather)}},
      {"GatherElements", {13, call(&Importer::importGatherElements)}},
      {"GatherND", {13, call(&Importer::importGatherND)}},
      // Quantization.
      {"QuantizeLinear",
       {13, flagged(&Importer::importQuantize, "QuantizeLinear")}},
      {"DequantizeLinear",
       {13, flagged(&Importer::importQuantize, "QuantizeLinear")}},
  };
  return table;
}

} // namespace prec::onnx_import
