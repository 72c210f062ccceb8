//===- CalibrationDataTest.cpp - samples held in memory -------------------===//

#include "drivers/CalibrationData.h"

#include <gtest/gtest.h>

using namespace prec;

namespace {

/// A tensor of `shape` holding start, start + 1, ... in `kind`.
HostTensor counting(ElementKind kind, std::vector<int64_t> shape,
                    double start) {
  HostTensor tensor(kind, std::move(shape));
  for (int64_t i = 0; i < tensor.getNumElements(); ++i)
    tensor.setFromDouble(i, start + double(i));
  return tensor;
}

std::vector<Binding> twoInputs() {
  return {{"a", ElementKind::F32, {4, 2}}, {"b", ElementKind::I32, {4}}};
}

TEST(CalibrationDataTest, BatchesCrossChunksInOrderAndConvertKinds) {
  std::vector<NamedTensors> chunks(2);
  // 3 samples, then 1 sample given without its batch axis; b as f64.
  chunks[0] = {{"b", counting(ElementKind::F64, {3}, 100)},
               {"a", counting(ElementKind::F32, {3, 2}, 0)}};
  chunks[1] = {{"a", counting(ElementKind::F32, {2}, 6)},
               {"b", counting(ElementKind::F64, {}, 103)}};
  auto data = llvm::cantFail(
      CalibrationData::fromTensors(twoInputs(), std::move(chunks)));
  EXPECT_EQ(data->getSampleCount(), 4);

  std::vector<HostTensor> batch;
  EXPECT_EQ(llvm::cantFail(data->read(3, batch)), 3);
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(batch[0].shape, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(batch[1].kind, ElementKind::I32);
  EXPECT_EQ(batch[1].getAsDouble(2), 102);
  EXPECT_EQ(batch[0].getAsDouble(5), 5);

  EXPECT_EQ(llvm::cantFail(data->read(3, batch)), 1);
  EXPECT_EQ(batch[0].shape, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(batch[0].getAsDouble(1), 7);
  EXPECT_EQ(batch[1].getAsDouble(0), 103);
  EXPECT_EQ(llvm::cantFail(data->read(3, batch)), 0);
}

TEST(CalibrationDataTest, BadChunksAreNamed) {
  auto error = [](std::vector<NamedTensors> chunks) {
    auto data = CalibrationData::fromTensors(twoInputs(), std::move(chunks));
    return data ? std::string() : llvm::toString(data.takeError());
  };
  EXPECT_EQ(error({}), "there are no batches to calibrate on");
  EXPECT_EQ(error({{{"a", counting(ElementKind::F32, {2, 2}, 0)}}}),
            "batch 0 has no array for input 'b'");
  EXPECT_EQ(error({{{"a", counting(ElementKind::F32, {2, 3}, 0)},
                    {"b", counting(ElementKind::I32, {2}, 0)}}}),
            "batch 0: the array for input 'a' has shape 2x3, but the input "
            "takes samples of 2 (arrays of N x 2 or one sample)");
  EXPECT_EQ(error({{{"a", counting(ElementKind::F32, {2, 2}, 0)},
                    {"b", counting(ElementKind::I32, {3}, 0)}}}),
            "batch 0: its arrays hold different numbers of samples (2 and 3)");
}

} // namespace
