//===- FoldingTest.cpp - ONNX nodes evaluated at import time --------------===//

#include "import/Folding.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>

using namespace prec;
using onnx::TensorProto;

namespace {

/// A graph of known tensors and static shapes that nodes fold in.
class FoldingTest : public ::testing::Test {
protected:
  void setKnown(const std::string &name, std::vector<int64_t> shape,
                std::vector<double> values, int dataType = TensorProto::INT64) {
    known[name] = KnownTensor{std::move(shape), std::move(values), dataType};
  }

  onnx::NodeProto node(const std::string &type,
                       std::vector<std::string> inputs) {
    onnx::NodeProto result;
    result.set_op_type(type);
    for (const std::string &input : inputs)
      result.add_input(input);
    result.add_output("out");
    return result;
  }

  static void setInt(onnx::NodeProto &node, const std::string &name,
                     int64_t value) {
    onnx::AttributeProto *attr = node.add_attribute();
    attr->set_name(name);
    attr->set_type(onnx::AttributeProto::INT);
    attr->set_i(value);
  }

  /// The folded output, or a failed test.
  KnownTensor fold(const onnx::NodeProto &node, int64_t opset = 17) {
    auto outputs = foldNode(node, opset, environment());
    if (!outputs) {
      ADD_FAILURE() << llvm::toString(outputs.takeError());
      return {};
    }
    EXPECT_EQ(outputs->size(), 1u);
    return outputs->empty() ? KnownTensor{} : outputs->front();
  }

  /// Whether `node` is left to the importer (no error, no output).
  bool declines(const onnx::NodeProto &node, int64_t opset = 17) {
    auto outputs = foldNode(node, opset, environment());
    if (!outputs) {
      ADD_FAILURE() << llvm::toString(outputs.takeError());
      return false;
    }
    return outputs->empty();
  }

  std::string error(const onnx::NodeProto &node, int64_t opset = 17) {
    auto outputs = foldNode(node, opset, environment());
    return outputs ? "" : llvm::toString(outputs.takeError());
  }

  FoldEnvironment environment() { return FoldEnvironment{lookup, shapeOf}; }

  std::function<const KnownTensor *(llvm::StringRef)> lookup =
      [this](llvm::StringRef name) -> const KnownTensor * {
    auto it = known.find(name.str());
    return it == known.end() ? nullptr : &it->second;
  };
  std::function<std::optional<llvm::SmallVector<int64_t>>(llvm::StringRef)>
      shapeOf = [this](llvm::StringRef name)
      -> std::optional<llvm::SmallVector<int64_t>> {
    if (auto it = known.find(name.str()); it != known.end())
      return llvm::SmallVector<int64_t>(it->second.shape.begin(),
                                        it->second.shape.end());
    if (auto it = runtime.find(name.str()); it != runtime.end())
      return llvm::SmallVector<int64_t>(it->second.begin(), it->second.end());
    return std::nullopt;
  };
  std::map<std::string, KnownTensor> known;
  /// Values only known at run time, by their static shapes.
  std::map<std::string, std::vector<int64_t>> runtime;
};

// The legacy exporter's reshape of attention heads: Shape -> Gather ->
// Unsqueeze -> Concat -> Reshape, on a runtime value of static shape.
TEST_F(FoldingTest, ShapeSubgraphsFold) {
  runtime["hidden"] = {2, 16, 64};
  KnownTensor shape = fold(node("Shape", {"hidden"}));
  EXPECT_EQ(shape.values, (std::vector<double>{2, 16, 64}));
  EXPECT_EQ(shape.dataType, TensorProto::INT64);
  known["shape"] = shape;
  setKnown("zero", {}, {0});
  KnownTensor batch = fold(node("Gather", {"shape", "zero"}));
  EXPECT_TRUE(batch.shape.empty());
  EXPECT_EQ(batch.values, (std::vector<double>{2}));
  known["batch"] = batch;
  setKnown("axes", {1}, {0});
  KnownTensor unsqueezed = fold(node("Unsqueeze", {"batch", "axes"}));
  EXPECT_EQ(unsqueezed.shape, (std::vector<int64_t>{1}));
  known["b"] = unsqueezed;
  setKnown("rest", {3}, {-1, 4, 16});
  onnx::NodeProto concat = node("Concat", {"b", "rest"});
  setInt(concat, "axis", 0);
  KnownTensor target = fold(concat);
  EXPECT_EQ(target.values, (std::vector<double>{2, -1, 4, 16}));
  // Size, and Shape's start and end.
  EXPECT_EQ(fold(node("Size", {"hidden"})).values, std::vector<double>{2048});
  onnx::NodeProto tail = node("Shape", {"hidden"});
  setInt(tail, "start", -2);
  EXPECT_EQ(fold(tail).values, (std::vector<double>{16, 64}));
  // A runtime value's data is not known: Reshape of it is the importer's.
  known["target"] = target;
  EXPECT_TRUE(declines(node("Reshape", {"hidden", "target"})));
}

// A causal mask from shapes alone: Range, Unsqueeze, LessOrEqual, Where.
TEST_F(FoldingTest, CausalMasksFold) {
  setKnown("start", {}, {0});
  setKnown("limit", {}, {4});
  setKnown("delta", {}, {1});
  known["positions"] = fold(node("Range", {"start", "limit", "delta"}));
  EXPECT_EQ(known["positions"].values, (std::vector<double>{0, 1, 2, 3}));
  setKnown("rows", {4, 1}, {0, 1, 2, 3});
  KnownTensor allowed = fold(node("LessOrEqual", {"positions", "rows"}));
  EXPECT_EQ(allowed.shape, (std::vector<int64_t>{4, 4}));
  EXPECT_EQ(allowed.dataType, TensorProto::BOOL);
  known["allowed"] = allowed;
  setKnown("zero", {}, {0.0}, TensorProto::FLOAT);
  setKnown("min", {}, {-3.4028234663852886e38}, TensorProto::FLOAT);
  KnownTensor mask = fold(node("Where", {"allowed", "zero", "min"}));
  EXPECT_EQ(mask.dataType, TensorProto::FLOAT);
  EXPECT_EQ(mask.values[0 * 4 + 0], 0.0);
  EXPECT_EQ(mask.values[0 * 4 + 1], -3.4028234663852886e38);
  EXPECT_EQ(mask.values[3 * 4 + 2], 0.0);
  // Trilu gives the same lower triangle.
  setKnown("ones", {3, 3}, std::vector<double>(9, 1.0), TensorProto::FLOAT);
  onnx::NodeProto lower = node("Trilu", {"ones"});
  setInt(lower, "upper", 0);
  EXPECT_EQ(fold(lower).values,
            (std::vector<double>{1, 0, 0, 1, 1, 0, 1, 1, 1}));
}

// RoBERTa's position ids: CumSum of the mask, times the mask, plus padding.
TEST_F(FoldingTest, CumSumAndIntegerArithmetic) {
  setKnown("mask", {1, 5}, {1, 1, 1, 0, 0}, TensorProto::INT32);
  setKnown("axis", {}, {1});
  KnownTensor sum = fold(node("CumSum", {"mask", "axis"}));
  EXPECT_EQ(sum.values, (std::vector<double>{1, 2, 3, 3, 3}));
  onnx::NodeProto exclusive = node("CumSum", {"mask", "axis"});
  setInt(exclusive, "exclusive", 1);
  setInt(exclusive, "reverse", 1);
  EXPECT_EQ(fold(exclusive).values, (std::vector<double>{2, 1, 0, 0, 0}));
  // Integer division truncates; Mod takes the divisor's sign unless fmod.
  setKnown("a", {2}, {7, -7});
  setKnown("b", {}, {2});
  EXPECT_EQ(fold(node("Div", {"a", "b"})).values, (std::vector<double>{3, -3}));
  EXPECT_EQ(fold(node("Mod", {"a", "b"})).values, (std::vector<double>{1, 1}));
  // Casts round floats to integers toward zero and saturate.
  setKnown("f", {3}, {2.7, -2.7, 1e20}, TensorProto::FLOAT);
  onnx::NodeProto cast = node("Cast", {"f"});
  setInt(cast, "to", TensorProto::INT32);
  EXPECT_EQ(fold(cast).values, (std::vector<double>{2, -2, 2147483647}));
  // Float results round to the tensor's type: 0.1 + 0.2 in f32.
  setKnown("x", {}, {0.1f}, TensorProto::FLOAT);
  setKnown("y", {}, {0.2f}, TensorProto::FLOAT);
  EXPECT_EQ(fold(node("Add", {"x", "y"})).values[0], double(0.1f + 0.2f));
}

TEST_F(FoldingTest, IndexingAndMovement) {
  setKnown("data", {2, 3}, {0, 1, 2, 3, 4, 5}, TensorProto::FLOAT);
  // Slice with a negative step and INT64_MAX-style bounds.
  setKnown("starts", {1}, {-1});
  setKnown("ends", {1}, {-9.3e18});
  setKnown("axes", {1}, {1});
  setKnown("steps", {1}, {-2});
  KnownTensor reversed =
      fold(node("Slice", {"data", "starts", "ends", "axes", "steps"}));
  EXPECT_EQ(reversed.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(reversed.values, (std::vector<double>{2, 0, 5, 3}));
  setKnown("shape", {3}, {2, 2, 3});
  KnownTensor expanded = fold(node("Expand", {"data", "shape"}));
  EXPECT_EQ(expanded.shape, (std::vector<int64_t>{2, 2, 3}));
  EXPECT_EQ(expanded.values[6], 0.0);
  setKnown("repeats", {2}, {1, 2});
  EXPECT_EQ(fold(node("Tile", {"data", "repeats"})).values,
            (std::vector<double>{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
  EXPECT_EQ(fold(node("Transpose", {"data"})).values,
            (std::vector<double>{0, 3, 1, 4, 2, 5}));
  setKnown("flat", {2}, {3, -1});
  EXPECT_EQ(fold(node("Reshape", {"data", "flat"})).shape,
            (std::vector<int64_t>{3, 2}));
  // Rotary tables: positions times inverse frequencies.
  setKnown("frequencies", {2, 1}, {1, 0.5}, TensorProto::FLOAT);
  setKnown("positions", {1, 3}, {0, 1, 2}, TensorProto::FLOAT);
  KnownTensor angles = fold(node("MatMul", {"frequencies", "positions"}));
  EXPECT_EQ(angles.values, (std::vector<double>{0, 1, 2, 0, 0.5, 1}));
  onnx::NodeProto fill = node("ConstantOfShape", {"shape"});
  EXPECT_EQ(fold(fill).values, std::vector<double>(12, 0.0));
}

TEST_F(FoldingTest, MalformedNodesSayWhy) {
  setKnown("data", {2, 3}, {0, 1, 2, 3, 4, 5}, TensorProto::FLOAT);
  setKnown("index", {}, {7});
  EXPECT_EQ(error(node("Gather", {"data", "index"})),
            "index 7 is out of range for a dimension of 2");
  setKnown("start", {}, {0});
  setKnown("zero", {}, {0});
  EXPECT_EQ(error(node("Range", {"start", "start", "zero"})),
            "start, limit and delta must be finite, delta not 0");
  setKnown("shape", {2}, {4, 4});
  EXPECT_EQ(error(node("Reshape", {"data", "shape"})),
            "the shape holds 16 elements, the input 6");
  setKnown("half", {1}, {1.5});
  EXPECT_EQ(error(node("Reshape", {"data", "half"})),
            "shape (input #1) holds 1.500000, not an integer");
}

TEST_F(FoldingTest, LargeResultsStayIR) {
  setKnown("huge", {2}, {1 << 20, 1 << 20});
  EXPECT_TRUE(declines(node("ConstantOfShape", {"huge"})));
  setKnown("start", {}, {0});
  setKnown("limit", {}, {1e12});
  setKnown("delta", {}, {1});
  EXPECT_TRUE(declines(node("Range", {"start", "limit", "delta"})));
}

} // namespace
