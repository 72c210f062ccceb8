//===- Elements.cpp - tensors known at import, held as attributes ---------===//

#include "import/Elements.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"

#include <onnx/onnx_pb.h>

#include <cstring>

using namespace mlir;

namespace prec::onnx_import {

Type getElementType(MLIRContext *context, int dataType) {
  Builder builder(context);
  switch (dataType) {
  case onnx::TensorProto::FLOAT:
    return builder.getF32Type();
  case onnx::TensorProto::FLOAT16:
    return builder.getF16Type();
  case onnx::TensorProto::BFLOAT16:
    return builder.getBF16Type();
  case onnx::TensorProto::INT8:
    return builder.getI8Type();
  case onnx::TensorProto::UINT8:
    return builder.getIntegerType(8, /*isSigned=*/false);
  case onnx::TensorProto::INT32:
    return builder.getI32Type();
  case onnx::TensorProto::INT64:
    return builder.getI64Type();
  case onnx::TensorProto::BOOL:
    return builder.getI1Type();
  default:
    return Type();
  }
}

Type getKnownElementType(MLIRContext *context, int dataType) {
  if (dataType == onnx::TensorProto::DOUBLE)
    return Float64Type::get(context);
  return getElementType(context, dataType);
}

int getDataType(Type element) {
  if (element.isF32())
    return onnx::TensorProto::FLOAT;
  if (element.isF64())
    return onnx::TensorProto::DOUBLE;
  if (element.isF16())
    return onnx::TensorProto::FLOAT16;
  if (element.isBF16())
    return onnx::TensorProto::BFLOAT16;
  if (element.isUnsignedInteger(8))
    return onnx::TensorProto::UINT8;
  if (element.isInteger(8))
    return onnx::TensorProto::INT8;
  if (element.isInteger(32))
    return onnx::TensorProto::INT32;
  if (element.isInteger(64))
    return onnx::TensorProto::INT64;
  assert(element.isInteger(1) && "an element type getElementType returns");
  return onnx::TensorProto::BOOL;
}

namespace {

/// Bytes per element in memory: booleans take one.
size_t byteWidth(Type element) {
  return (element.getIntOrFloatBitWidth() + 7) / 8;
}

/// Booleans hold 0 and 1: unsigned, as a 1-bit signed integer holds -1.
bool isUnsignedElement(Type element) {
  return element.isUnsignedInteger() || element.isInteger(1);
}

double toDouble(APFloat value) {
  bool losesInfo = false;
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

double toDouble(const APInt &value, bool isUnsigned) {
  return isUnsigned ? double(value.getZExtValue())
                    : double(value.getSExtValue());
}

/// The bits of `value` in `element`, as they lie in memory.
uint64_t toBits(double value, Type element) {
  if (auto floatType = dyn_cast<FloatType>(element)) {
    APFloat converted(value);
    bool losesInfo = false;
    converted.convert(floatType.getFloatSemantics(),
                      APFloat::rmNearestTiesToEven, &losesInfo);
    return converted.bitcastToAPInt().getZExtValue();
  }
  if (element.isInteger(1))
    return value != 0;
  return toInteger(value, element.getIntOrFloatBitWidth(),
                   element.isUnsignedInteger())
      .getZExtValue();
}

/// The bytes of a resource or of a dense attribute that is neither a splat
/// nor boolean (those are not laid out one element after another).
std::optional<ArrayRef<char>> contiguousBytes(ElementsAttr elements) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(elements)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    return blob->getData();
  }
  auto dense = dyn_cast<DenseElementsAttr>(elements);
  if (!dense || dense.isSplat() || dense.getElementType().isInteger(1))
    return std::nullopt;
  return dense.getRawData();
}

} // namespace

ElementsAttr elementsFromBytes(RankedTensorType type, ArrayRef<char> bytes) {
  Type element = type.getElementType();
  if (element.isInteger(1)) {
    SmallVector<bool> flags(
        llvm::map_range(bytes, [](char b) { return b != 0; }));
    return DenseElementsAttr::get(type, ArrayRef<bool>(flags));
  }
  if (isa<FloatType>(element) && type.getNumElements() > kBlobThreshold)
    return DenseResourceElementsAttr::get(
        type, "onnx_weight",
        HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes,
                                                      alignof(uint64_t)));
  return DenseElementsAttr::getFromRawBuffer(type, bytes);
}

ElementsAttr elementsFromDoubles(RankedTensorType type,
                                 ArrayRef<double> values) {
  Type element = type.getElementType();
  size_t width = byteWidth(element);
  std::vector<char> bytes(values.size() * width);
  for (auto [index, value] : llvm::enumerate(values)) {
    uint64_t bits = toBits(value, element);
    std::memcpy(bytes.data() + index * width, &bits, width);
  }
  return elementsFromBytes(type, bytes);
}

KnownTensor toKnownTensor(ElementsAttr elements) {
  auto type = cast<RankedTensorType>(elements.getType());
  Type element = type.getElementType();
  KnownTensor tensor;
  tensor.shape.assign(type.getShape().begin(), type.getShape().end());
  tensor.dataType = getDataType(element);
  tensor.values.reserve(type.getNumElements());
  bool isUnsigned = isUnsignedElement(element);
  auto floatType = dyn_cast<FloatType>(element);
  if (auto dense = dyn_cast<DenseElementsAttr>(elements)) {
    if (floatType)
      for (const APFloat &value : dense.getValues<APFloat>())
        tensor.values.push_back(toDouble(value));
    else
      for (const APInt &value : dense.getValues<APInt>())
        tensor.values.push_back(toDouble(value, isUnsigned));
    return tensor;
  }
  std::optional<ArrayRef<char>> bytes = contiguousBytes(elements);
  assert(bytes && "the importer's attributes are dense or blobs with data");
  size_t width = byteWidth(element);
  unsigned bitWidth = element.getIntOrFloatBitWidth();
  for (int64_t index = 0, e = type.getNumElements(); index < e; ++index) {
    uint64_t bits = 0;
    std::memcpy(&bits, bytes->data() + index * width, width);
    APInt value(bitWidth, bits);
    tensor.values.push_back(
        floatType ? toDouble(APFloat(floatType.getFloatSemantics(), value))
                  : toDouble(value, isUnsigned));
  }
  return tensor;
}

ElementsAttr toElements(const KnownTensor &tensor, MLIRContext *context,
                        Type element) {
  if (!element)
    element = getKnownElementType(context, tensor.dataType);
  return elementsFromDoubles(RankedTensorType::get(tensor.shape, element),
                             tensor.values);
}

ElementsAttr asConstantData(ElementsAttr elements) {
  if (!elements.getElementType().isF64())
    return elements;
  MLIRContext *context = elements.getContext();
  return toElements(toKnownTensor(elements), context,
                    Float32Type::get(context));
}

ElementsAttr reshapeElements(ElementsAttr elements, ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(shape, elements.getElementType());
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(elements))
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  return cast<DenseElementsAttr>(elements).reshape(type);
}

ElementsAttr rearrangeElements(ElementsAttr elements, ArrayRef<int64_t> shape,
                               function_ref<int64_t(int64_t)> sourceIndex) {
  auto type = RankedTensorType::get(shape, elements.getElementType());
  auto dense = dyn_cast<DenseElementsAttr>(elements);
  if (dense && dense.isSplat())
    return dense.resizeSplat(type);
  int64_t count = type.getNumElements();
  if (dense && dense.getElementType().isInteger(1)) {
    auto flags = dense.getValues<bool>();
    SmallVector<bool> result;
    result.reserve(count);
    for (int64_t index = 0; index < count; ++index)
      result.push_back(flags[sourceIndex(index)]);
    return DenseElementsAttr::get(type, ArrayRef<bool>(result));
  }
  std::optional<ArrayRef<char>> bytes = contiguousBytes(elements);
  assert(bytes && "the importer's attributes are dense or blobs with data");
  size_t width = byteWidth(type.getElementType());
  std::vector<char> result(count * width);
  for (int64_t index = 0; index < count; ++index)
    std::memcpy(result.data() + index * width,
                bytes->data() + sourceIndex(index) * width, width);
  return elementsFromBytes(type, result);
}

ElementsAttr transposeElements(ElementsAttr elements,
                               ArrayRef<int32_t> permutation) {
  ArrayRef<int64_t> source =
      cast<RankedTensorType>(elements.getType()).getShape();
  SmallVector<int64_t> shape, sourceStrides(source.size(), 1);
  for (int32_t axis : permutation)
    shape.push_back(source[axis]);
  for (int64_t d = int64_t(source.size()) - 2; d >= 0; --d)
    sourceStrides[d] = sourceStrides[d + 1] * source[d + 1];
  // Walks the result in order, carrying its multi-index.
  SmallVector<int64_t> index(shape.size(), 0);
  int64_t offset = 0;
  return rearrangeElements(elements, shape, [&](int64_t) {
    int64_t current = offset;
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      offset += sourceStrides[permutation[d]];
      if (++index[d] < shape[d])
        break;
      offset -= index[d] * sourceStrides[permutation[d]];
      index[d] = 0;
    }
    return current;
  });
}

ElementsAttr leadingSlice(ElementsAttr elements, int64_t first, int64_t count) {
  SmallVector<int64_t> shape(
      cast<RankedTensorType>(elements.getType()).getShape());
  if (first == 0 && count == shape[0])
    return elements;
  int64_t rowSize = product(ArrayRef<int64_t>(shape).drop_front());
  shape[0] = count;
  return rearrangeElements(
      elements, shape, [&](int64_t index) { return first * rowSize + index; });
}

} // namespace prec::onnx_import
