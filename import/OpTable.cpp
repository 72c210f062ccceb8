//===- OpTable.cpp - the handler of each ONNX op type ---------------------===//
//
// One table of {op type, since opset, handler}: adding an op is a handler in
// its family's file under ops/ and a row here. Ops that only fold (Shape,
// Size, ConstantOfShape, Range) are import/Folding's.
//
//===----------------------------------------------------------------------===//

#include "import/ImporterImpl.h"

namespace prec::onnx_import {

const llvm::StringMap<Importer::OpHandler> &Importer::getOpTable() {
  using Handle = std::function<LogicalResult(Importer &, llvm::StringRef)>;
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
  auto binary = [](llvm::StringRef tosaName) -> Handle {
    return [tosaName](Importer &importer, llvm::StringRef) {
      return importer.elementwiseBinary(tosaName);
    };
  };
  auto unary = [](llvm::StringRef tosaName) -> Handle {
    return [tosaName](Importer &importer, llvm::StringRef) {
      return importer.elementwiseUnary(tosaName);
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
      // Elementwise arithmetic, comparisons and logic.
      {"Add", {13, binary("tosa.add")}},
      {"Sub", {13, binary("tosa.sub")}},
      {"Mul", {13, binary("tosa.mul")}},
      {"Pow", {13, binary("tosa.pow")}},
      {"Max", {13, binary("tosa.maximum")}},
      {"Min", {13, binary("tosa.minimum")}},
      {"Div", {13, call(&Importer::importDiv)}},
      {"Mod", {13, call(&Importer::importMod)}},
      {"Exp", {13, unary("tosa.exp")}},
      {"Log", {13, unary("tosa.log")}},
      {"Erf", {13, unary("tosa.erf")}},
      {"Neg", {13, unary("tosa.negate")}},
      {"Abs", {13, unary("tosa.abs")}},
      {"Reciprocal", {13, unary("tosa.reciprocal")}},
      {"Sigmoid", {13, unary("tosa.sigmoid")}},
      {"Tanh", {13, unary("tosa.tanh")}},
      {"Floor", {13, unary("tosa.floor")}},
      {"Ceil", {13, unary("tosa.ceil")}},
      {"Sin", {13, unary("tosa.sin")}},
      {"Cos", {13, unary("tosa.cos")}},
      {"Sqrt", {13, call(&Importer::importSqrt)}},
      {"Equal", {13, byType(&Importer::importPredicate)}},
      {"Greater", {13, byType(&Importer::importPredicate)}},
      {"GreaterOrEqual", {13, byType(&Importer::importPredicate)}},
      {"Less", {13, byType(&Importer::importPredicate)}},
      {"LessOrEqual", {13, byType(&Importer::importPredicate)}},
      {"Not", {13, byType(&Importer::importPredicate)}},
      {"And", {13, byType(&Importer::importPredicate)}},
      {"Or", {13, byType(&Importer::importPredicate)}},
      {"Xor", {13, byType(&Importer::importPredicate)}},
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
