//===- ops/Quantize.cpp - QuantizeLinear and DequantizeLinear ----------===//

#include "import/ImporterImpl.h"

namespace prec::onnx_import {

LogicalResult Importer::importQuantize(bool quantize) {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  std::optional<KnownTensor> scale = getKnown(1);
  std::optional<KnownTensor> zero = getKnown(2);
  if (!scale || scale->values.size() != 1)
    return fail() << "only per-tensor (scalar, constant) scales are "
                     "supported";
  if (zero && zero->values.size() != 1)
    return fail() << "only per-tensor (scalar, constant) zero points are "
                     "supported";
  double zeroPointValue = zero ? zero->values[0] : 0.0;
  int zeroType = zero ? zero->dataType : onnx::TensorProto::UINT8;
  int64_t rank = shapeOf(*x).size();
  Type floatType = builder.getF32Type();
  if (quantize) {
    Type element = getElementType(context, zeroType);
    if (!element || !element.isInteger(8))
      return fail() << "only int8 and uint8 quantization is supported";
    // saturate(round(x / scale) + zero point): the cast rounds to nearest
    // even and saturates; the zero point is an integer, so adding it before
    // rounding changes nothing.
    Value scaled = build<arith::DivFOp>(
        x->getType(), *x,
        build<tosa::TileOp>(x->getType(),
                            scalar(floatType, scale->values[0], rank),
                            constShape(shapeOf(*x))));
    Value shifted = binary<tosa::AddOp>(
        scaled, scalar(floatType, zeroPointValue, rank), floatType);
    setOutput(0, build<tosa::CastOp>(tensorOf(shapeOf(*x), element), shifted));
  } else {
    Value asFloat = build<tosa::CastOp>(tensorOf(shapeOf(*x), floatType), *x);
    Value centered = binary<tosa::SubOp>(
        asFloat, scalar(floatType, zeroPointValue, rank), floatType);
    setOutput(0, mul(centered, scalar(floatType, scale->values[0], rank)));
  }
  return success();
}

} // namespace prec::onnx_import
