//===- ops/Pooling.cpp - max, average and global pooling ---------------===//

#include "import/ImporterImpl.h"

namespace prec::onnx_import {

LogicalResult Importer::importPool(bool isMax, bool global) {
  FailureOr<Value> x = input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*x);
  if (shape.size() != 4)
    return fail() << "only 2-D pooling (NCHW inputs) is supported";
  Type element = elementOf(*x);
  std::vector<int64_t> kernel = global
                                    ? std::vector<int64_t>{shape[2], shape[3]}
                                    : intsAttribute("kernel_shape");
  std::vector<int64_t> strides = intsAttribute("strides", {1, 1});
  std::vector<int64_t> pads = intsAttribute("pads", {0, 0, 0, 0});
  if (kernel.size() != 2 || strides.size() != 2 || pads.size() != 4)
    return fail() << "kernel_shape, strides and pads must describe 2-D";
  if (stringAttribute("auto_pad", "NOTSET") != "NOTSET")
    return fail() << "auto_pad is not supported; export with explicit pads";
  if (intAttribute("ceil_mode", 0))
    return fail() << "ceil_mode is not supported";
  if (!isMax && intAttribute("count_include_pad", 0) &&
      llvm::any_of(pads, [](int64_t p) { return p != 0; }))
    return fail() << "count_include_pad with padding is not supported";
  if (isMax && intsAttribute("dilations", {1, 1}) != std::vector<int64_t>{1, 1})
    return fail() << "dilated MaxPool is not supported";
  if (failed(checkWindow(shape.drop_front(2), kernel, strides, {1, 1}, pads,
                         /*transposed=*/false)))
    return failure();
  int64_t oh = (shape[2] + pads[0] + pads[2] - kernel[0]) / strides[0] + 1;
  int64_t ow = (shape[3] + pads[1] + pads[3] - kernel[1]) / strides[1] + 1;
  Value nhwc = trimForWindow(transpose(*x, {0, 2, 3, 1}), pads, kernel[0],
                             kernel[1], strides);
  SmallVector<int64_t> tosaPads = {pads[0], pads[2], pads[1], pads[3]};
  auto resultType = tensorOf({shape[0], oh, ow, shape[1]}, element);
  Value pooled;
  if (isMax) {
    pooled =
        build<tosa::MaxPool2dOp>(resultType, nhwc, kernel, strides, tosaPads);
  } else {
    Type accumulator = isa<FloatType>(element) ? builder.getF32Type() : element;
    pooled = build<tosa::AvgPool2dOp>(resultType, nhwc, zeroPoint(element),
                                      zeroPoint(element), kernel, strides,
                                      tosaPads, accumulator);
  }
  setOutput(0, transpose(pooled, {0, 3, 1, 2}));
  return success();
}

} // namespace prec::onnx_import
