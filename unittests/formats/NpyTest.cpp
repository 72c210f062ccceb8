//===- NpyTest.cpp - .npy and .npz round trips and refusals ---------------===//

#include "formats/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace prec;

namespace {

HostTensor makeTensor(ElementKind kind, std::vector<int64_t> shape) {
  HostTensor tensor(kind, std::move(shape));
  for (int64_t i = 0; i < tensor.getNumElements(); ++i)
    tensor.setFromDouble(i, (i % 7) - 3 + (isFloatKind(kind) ? 0.5 : 0));
  return tensor;
}

std::string errorOf(llvm::Expected<HostTensor> result) {
  if (result)
    return "";
  return llvm::toString(result.takeError());
}

class NpyTest : public ::testing::TestWithParam<ElementKind> {};

TEST_P(NpyTest, RoundTripsEveryKind) {
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{}, {5}, {2, 3}, {2, 1, 4}, {0, 3}}) {
    HostTensor original = makeTensor(GetParam(), shape);
    std::string bytes = serializeNpy(original);
    // numpy's alignment rule: the data starts at a multiple of 64.
    EXPECT_EQ((bytes.size() - original.data.size()) % 64, 0u);
    llvm::Expected<HostTensor> parsed =
        parseNpy(bytes, GetParam() == ElementKind::BF16);
    ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
    EXPECT_EQ(parsed->kind, original.kind);
    EXPECT_EQ(parsed->shape, original.shape);
    EXPECT_EQ(parsed->data, original.data);
  }
}

INSTANTIATE_TEST_SUITE_P(AllKinds, NpyTest,
                         ::testing::Values(ElementKind::F32, ElementKind::F64,
                                           ElementKind::F16, ElementKind::BF16,
                                           ElementKind::I8, ElementKind::U8,
                                           ElementKind::I16, ElementKind::I32,
                                           ElementKind::I64, ElementKind::Bool),
                         [](const auto &info) {
                           return getElementKindName(info.param).str();
                         });

TEST(NpyHeaderTest, MatchesNumpysHeader) {
  // The first 128 bytes np.save writes for np.zeros((2, 3), np.float32).
  std::string numpyHeader =
      std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }" +
      std::string(58, ' ') + "\n";
  std::string bytes = serializeNpy(makeTensor(ElementKind::F32, {2, 3}));
  EXPECT_EQ(bytes.substr(0, 128), numpyHeader);
  std::string vector = serializeNpy(makeTensor(ElementKind::I8, {4}));
  EXPECT_NE(vector.find("'descr': '|i1', 'fortran_order': False, 'shape': "
                        "(4,), }"),
            std::string::npos);
}

TEST(NpyHeaderTest, RefusesMalformedFiles) {
  std::string good = serializeNpy(makeTensor(ElementKind::F32, {2, 3}));
  EXPECT_EQ(errorOf(parseNpy("PK\x03\x04 not numpy")),
            "not a .npy file (bad magic)");
  EXPECT_EQ(errorOf(parseNpy(good.substr(0, 9))), "truncated .npy header");
  EXPECT_EQ(errorOf(parseNpy(good.substr(0, 40))), "truncated .npy header");
  EXPECT_EQ(errorOf(parseNpy(good.substr(0, good.size() - 4))),
            "data holds 20 bytes but shape 2x3 of f32 needs 24");

  auto withHeader = [&](std::string from, std::string to) {
    std::string bytes = good;
    bytes.replace(bytes.find(from), from.size(), to);
    return bytes;
  };
  EXPECT_EQ(errorOf(parseNpy(withHeader("<f4", ">f4"))),
            "big-endian data ('>f4') is not supported; save it "
            "little-endian");
  EXPECT_EQ(errorOf(parseNpy(withHeader("<f4", "<c8"))),
            "unsupported dtype 'c8'; supported: f4, f8, f2, bf16 as u2, i1, "
            "u1, i2, i4, i8, b1");
  EXPECT_EQ(errorOf(parseNpy(withHeader("False", "True "))),
            "Fortran-ordered arrays are not supported; save with "
            "np.ascontiguousarray");
  EXPECT_EQ(errorOf(parseNpy(withHeader("(2, 3)", "(2, x)"))),
            "bad dimension 'x' in shape (2, x)");
  EXPECT_EQ(errorOf(parseNpy(withHeader("'shape'", "'shapo'"))),
            "header has no 'shape'");
  std::string version = good;
  version[6] = 9;
  EXPECT_EQ(errorOf(parseNpy(version)), "unsupported .npy version 9");
  // u2 is only bf16 where a bf16 tensor is expected.
  std::string u2 = serializeNpy(makeTensor(ElementKind::BF16, {2}));
  EXPECT_NE(errorOf(parseNpy(u2)).find("unsupported dtype 'u2'"),
            std::string::npos);
}

class NpzTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("prec-npz", directory));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(directory); }
  std::string path(llvm::StringRef name) {
    llvm::SmallString<128> full(directory);
    llvm::sys::path::append(full, name);
    return std::string(full);
  }
  llvm::SmallString<128> directory;
};

TEST_F(NpzTest, RoundTripsNamedTensorsInOrder) {
  NamedTensors tensors = {{"x", makeTensor(ElementKind::F32, {2, 2})},
                          {"ids", makeTensor(ElementKind::I64, {3})},
                          {"h", makeTensor(ElementKind::BF16, {4})}};
  ASSERT_FALSE(bool(writeNpz(path("a.npz"), tensors)));
  llvm::Expected<NamedTensors> read = readNpz(path("a.npz"), {"h"});
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  ASSERT_EQ(read->size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ((*read)[i].first, tensors[i].first);
    EXPECT_EQ((*read)[i].second.kind, tensors[i].second.kind);
    EXPECT_EQ((*read)[i].second.data, tensors[i].second.data);
  }
}

TEST_F(NpzTest, RefusesWhatIsNotAnArchive) {
  {
    std::error_code error;
    llvm::raw_fd_ostream os(path("bad.npz"), error);
    os << "this is not a zip archive at all, just text";
  }
  llvm::Expected<NamedTensors> read = readNpz(path("bad.npz"));
  ASSERT_FALSE(bool(read));
  EXPECT_NE(llvm::toString(read.takeError())
                .find("is not a valid .npz: no zip end-of-central-directory "
                      "record"),
            std::string::npos);
  llvm::Expected<NamedTensors> missing = readNpz(path("missing.npz"));
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("cannot read"),
            std::string::npos);
}

// Archives mended from a good one: the central directory's fields are what
// a reader must not trust (cases libFuzzer found, prec-fuzz-npy).
TEST_F(NpzTest, RefusesCentralDirectoriesThatLie) {
  ASSERT_FALSE(bool(
      writeNpz(path("good.npz"), {{"x", makeTensor(ElementKind::F32, {4})}})));
  auto buffer = llvm::MemoryBuffer::getFile(path("good.npz"));
  ASSERT_TRUE(bool(buffer));
  const std::string good = (*buffer)->getBuffer().str();
  size_t end = good.size() - 22; // no archive comment
  auto read32 = [&](size_t at) {
    uint32_t value = 0;
    for (int i = 3; i >= 0; --i)
      value = (value << 8) | uint8_t(good[at + i]);
    return value;
  };
  size_t central = read32(end + 16);
  auto errorWith = [&](size_t field, std::string bytes) {
    std::string archive = good;
    archive.replace(central + field, bytes.size(), bytes);
    llvm::Expected<std::vector<NpzMember>> members = listNpzMembers(archive);
    return members ? std::string() : llvm::toString(members.takeError());
  };
  // A local header offset that wraps around 32 bits when 30 is added.
  EXPECT_EQ(errorWith(42, std::string("\xf0\xff\xff\xff", 4)),
            "bad local header of 'x.npy'");
  // A deflated member that claims 4 GB from a few bytes.
  std::string bomb = good;
  bomb.replace(central + 10, 2, std::string("\x08\x00", 2));
  bomb.replace(central + 24, 4, std::string("\x00\x00\x00\xf0", 4));
  llvm::Expected<std::vector<NpzMember>> members = listNpzMembers(bomb);
  ASSERT_FALSE(bool(members));
  EXPECT_NE(
      llvm::toString(members.takeError()).find("claims 4026531840 bytes from"),
      std::string::npos);
  // A stored member whose sizes disagree.
  EXPECT_NE(errorWith(24, std::string("\x00\x01\x00\x00", 4))
                .find("stored member 'x.npy' has"),
            std::string::npos);
}

} // namespace
