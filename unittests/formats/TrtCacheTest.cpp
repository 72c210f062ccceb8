//===- TrtCacheTest.cpp - TensorRT calibration caches ---------------------===//

#include "formats/TrtCache.h"

#include <gtest/gtest.h>

using namespace prec;

namespace {

TEST(TrtCacheTest, ParsesTensorRTCaches) {
  // As TensorRT 8.6 writes them; names may hold ':'.
  llvm::Expected<TrtCache> cache =
      parseTrtCache("TRT-8601-EntropyCalibration2\n"
                    "input.1: 3c010204\n"
                    "onnx::Conv_5: 3d800000\n");
  ASSERT_TRUE(bool(cache)) << llvm::toString(cache.takeError());
  EXPECT_EQ(cache->version, "8601");
  EXPECT_EQ(cache->algorithm, CalibrationAlgorithm::Entropy);
  ASSERT_EQ(cache->scales.size(), 2u);
  EXPECT_EQ(cache->scales[0].first, "input.1");
  EXPECT_FLOAT_EQ(cache->scales[0].second, 1.0f / 127.0f);
  EXPECT_EQ(cache->scales[1].first, "onnx::Conv_5");
  EXPECT_EQ(cache->scales[1].second, 0.0625f);
}

TEST(TrtCacheTest, MapsAlgorithmNames) {
  auto algorithmOf = [](llvm::StringRef header) {
    return parseTrtCache(header)->algorithm;
  };
  EXPECT_EQ(algorithmOf("TRT-8601-MinMaxCalibration"),
            CalibrationAlgorithm::MinMax);
  EXPECT_EQ(algorithmOf("TRT-7000-EntropyCalibration"),
            CalibrationAlgorithm::Entropy);
  EXPECT_EQ(algorithmOf("TRT-8601-LegacyCalibration"),
            CalibrationAlgorithm::Percentile);
}

TEST(TrtCacheTest, WritesWhatItReads) {
  CalibrationFile calibration;
  calibration.algorithm = CalibrationAlgorithm::MinMax;
  calibration.tensors["a"].amax = 127.0 / 16;
  calibration.tensors["b"].amax = 1.0;
  llvm::Expected<TrtCache> cache = makeTrtCache(calibration);
  ASSERT_TRUE(bool(cache));
  std::string text = serializeTrtCache(*cache);
  EXPECT_EQ(text, "TRT-8601-MinMaxCalibration\na: 3d800000\nb: 3c010204\n");
  llvm::Expected<TrtCache> parsed = parseTrtCache(text);
  ASSERT_TRUE(bool(parsed));
  EXPECT_EQ(serializeTrtCache(*parsed), text);
}

TEST(TrtCacheTest, ErrorsGiveTheLine) {
  auto errorOf = [](llvm::StringRef text) {
    llvm::Expected<TrtCache> cache = parseTrtCache(text);
    return cache ? std::string() : llvm::toString(cache.takeError());
  };
  EXPECT_EQ(errorOf("TRT-x1-MinMaxCalibration\n"),
            "line 1: bad TensorRT version 'x1'");
  EXPECT_EQ(errorOf("TRT-8601-MinMaxCalibration\n\na 3c010204\n"),
            "line 3: expected '<tensor>: <8 hex digits>', got 'a 3c010204'");
  EXPECT_EQ(errorOf("TRT-8601-MinMaxCalibration\na: bf800000\n"),
            "line 2: the scale of 'a' is not a finite number >= 0");
}

// Names a cache line cannot hold (found by prec-fuzz-calibration: a name of
// spaces read back as another tensor's).
TEST(TrtCacheTest, RefusesNamesALineCannotHold) {
  for (std::string name : {"", "    ", " x", "x ", "a\nb: 3c010204"}) {
    CalibrationFile calibration;
    calibration.tensors[name].amax = 1.0;
    llvm::Expected<TrtCache> cache = makeTrtCache(calibration);
    ASSERT_FALSE(bool(cache)) << name;
    EXPECT_NE(llvm::toString(cache.takeError())
                  .find("cannot be written in a TensorRT cache"),
              std::string::npos);
  }
}

} // namespace
