//===- ElementsTest.cpp - tensors known at import, held as attributes -----===//

#include "import/Elements.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace mlir;
using namespace prec;
using namespace prec::onnx_import;
using onnx::TensorProto;

namespace {

class ElementsTest : public ::testing::Test {
protected:
  /// 0, 1, 2, ... of `shape` and `dataType`.
  ElementsAttr iota(std::vector<int64_t> shape, int dataType) {
    KnownTensor tensor{shape, std::vector<double>(product(shape)), dataType};
    std::iota(tensor.values.begin(), tensor.values.end(), 0.0);
    return toElements(tensor, &context);
  }

  MLIRContext context;
};

TEST_F(ElementsTest, LargeFloatTensorsAreBlobsAndOthersDense) {
  EXPECT_TRUE(isa<DenseResourceElementsAttr>(
      iota({2, kBlobThreshold}, TensorProto::FLOAT16)));
  EXPECT_TRUE(
      isa<DenseElementsAttr>(iota({kBlobThreshold}, TensorProto::FLOAT)));
  EXPECT_TRUE(
      isa<DenseElementsAttr>(iota({2, kBlobThreshold}, TensorProto::INT64)));
}

TEST_F(ElementsTest, DecodesWhatItEncodes) {
  for (int dataType :
       {TensorProto::FLOAT, TensorProto::DOUBLE, TensorProto::FLOAT16,
        TensorProto::BFLOAT16, TensorProto::INT8, TensorProto::INT64}) {
    for (int64_t count : {int64_t(5), kBlobThreshold + 1}) {
      KnownTensor tensor{{count}, {}, dataType};
      for (int64_t i = 0; i < count; ++i)
        tensor.values.push_back(double(i % 100 - 50));
      KnownTensor decoded = toKnownTensor(toElements(tensor, &context));
      EXPECT_EQ(decoded.dataType, dataType);
      EXPECT_EQ(decoded.shape, tensor.shape);
      EXPECT_EQ(decoded.values, tensor.values);
    }
  }
}

TEST_F(ElementsTest, RoundsToTheElementType) {
  KnownTensor tensor{{4}, {1.0 / 3, 70000, -3.7, 300}, TensorProto::FLOAT16};
  std::vector<double> f16 = toKnownTensor(toElements(tensor, &context)).values;
  EXPECT_EQ(f16[0], 0.333251953125);
  EXPECT_TRUE(std::isinf(f16[1]));
  tensor.dataType = TensorProto::INT8;
  std::vector<double> i8 = toKnownTensor(toElements(tensor, &context)).values;
  EXPECT_EQ(i8, (std::vector<double>{0, 127, -3, 127}));
  tensor.dataType = TensorProto::BOOL;
  std::vector<double> flags =
      toKnownTensor(toElements(tensor, &context)).values;
  EXPECT_EQ(flags, (std::vector<double>{1, 1, 1, 1}));
}

TEST_F(ElementsTest, TransposesDenseBlobAndBooleanData) {
  for (int dataType :
       {TensorProto::INT32, TensorProto::FLOAT, TensorProto::BOOL}) {
    // [2, 3, 200] -> [200, 2, 3]: element (k, i, j) is source (i, j, k).
    ElementsAttr source = iota({2, 3, 200}, dataType);
    KnownTensor moved = toKnownTensor(transposeElements(source, {2, 0, 1}));
    ASSERT_EQ(moved.shape, (std::vector<int64_t>{200, 2, 3}));
    for (int64_t k = 0; k < 200; ++k)
      for (int64_t i = 0; i < 2; ++i)
        for (int64_t j = 0; j < 3; ++j) {
          double expected = double((i * 3 + j) * 200 + k);
          if (dataType == TensorProto::BOOL)
            expected = expected != 0;
          ASSERT_EQ(moved.values[(k * 2 + i) * 3 + j], expected);
        }
  }
}

TEST_F(ElementsTest, ReshapesShareABlobAndSlicesCopyRows) {
  ElementsAttr blob = iota({4, 300}, TensorProto::FLOAT);
  ElementsAttr reshaped = reshapeElements(blob, {2, 600});
  EXPECT_EQ(cast<DenseResourceElementsAttr>(reshaped).getRawHandle(),
            cast<DenseResourceElementsAttr>(blob).getRawHandle());
  KnownTensor rows = toKnownTensor(leadingSlice(blob, 1, 2));
  EXPECT_EQ(rows.shape, (std::vector<int64_t>{2, 300}));
  EXPECT_EQ(rows.values.front(), 300);
  EXPECT_EQ(rows.values.back(), 899);
  EXPECT_EQ(leadingSlice(blob, 0, 4), blob);
}

TEST_F(ElementsTest, SplatsStaySplats) {
  auto type = RankedTensorType::get({3, 2}, Float32Type::get(&context));
  ElementsAttr splat = DenseElementsAttr::get(type, 1.5f);
  ElementsAttr moved = transposeElements(splat, {1, 0});
  EXPECT_TRUE(cast<DenseElementsAttr>(moved).isSplat());
  EXPECT_EQ(toKnownTensor(moved).values, (std::vector<double>(6, 1.5)));
}

TEST_F(ElementsTest, DoublesBecomeF32Constants) {
  ElementsAttr doubles = iota({3}, TensorProto::DOUBLE);
  EXPECT_TRUE(doubles.getElementType().isF64());
  ElementsAttr data = asConstantData(doubles);
  EXPECT_TRUE(data.getElementType().isF32());
  EXPECT_EQ(toKnownTensor(data).values, (std::vector<double>{0, 1, 2}));
}

} // namespace
