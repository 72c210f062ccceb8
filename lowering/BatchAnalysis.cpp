//===- BatchAnalysis.cpp - which tensors scale with a dynamic batch -------===//

#include "lowering/BatchAnalysis.h"

#include "dialects/Engine/EngineDialect.h"

#include "dialects/Utils/OpNames.h"
#include "dialects/Utils/Shapes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace prec {

namespace {

/// The first dimension that is not 1: where a batch, outermost, shows.
std::optional<int64_t> getOutermostDim(ArrayRef<int64_t> shape) {
  for (auto [d, size] : llvm::enumerate(shape))
    if (size != 1)
      return int64_t(d);
  return std::nullopt;
}

class Propagation {
public:
  Propagation(llvm::DenseMap<Value, int64_t> &batchDims, int64_t maxBatch,
              function_ref<bool(Operation *)> isElementwise)
      : batchDims(batchDims), maxBatch(maxBatch), isElementwise(isElementwise) {
  }

  LogicalResult visit(Operation *op) {
    if (llvm::none_of(op->getOperands(),
                      [&](Value v) { return batchDims.count(v); }) ||
        isa<func::ReturnOp>(op))
      return success();
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        .Case<tosa::ReshapeOp, tosa::IdentityOp>(
            [&](Operation *op) { return visitReshape(op); })
        .Case<tosa::MatMulOp>([&](auto op) { return visitMatmul(op); })
        .Case<engine::AttentionOp>([&](engine::AttentionOp op) {
          // N = batch x heads: the query, keys and values (as stored, and
          // the result) carry the batch in dimension 0, outermost in their
          // strides, so that a smaller batch is a prefix of them; the mask
          // in its leading dimension, or not at all.
          auto outermost = [&](Value v, ArrayRef<int64_t> layout) {
            return maxBatch == 1 ||
                   (shapeOf(v).front() % maxBatch == 0 &&
                    layout[0] * maxBatch ==
                        cast<RankedTensorType>(v.getType()).getNumElements());
          };
          auto carries = [&](Value v, ArrayRef<int64_t> layout) {
            return batchDimOf(v) == 0 && outermost(v, layout);
          };
          if (!carries(op.getQuery(), op.getQueryLayout()) ||
              !carries(op.getKeys(), op.getKeysLayout()) ||
              !carries(op.getValues(), op.getValuesLayout()) ||
              (op.getMask() && batchDims.count(op.getMask()) &&
               batchDimOf(op.getMask()) != 0))
            return fail(op, "its query, keys and values must carry the "
                            "batch in dimension 0, outermost, as its mask "
                            "if any");
          if (!outermost(op.getResult(), op.getResultLayout()))
            return fail(op, "its result must carry the batch outermost");
          return setBatched(op, op.getResult(), 0);
        })
        .Case<tosa::Conv2DOp, tosa::DepthwiseConv2DOp, tosa::MaxPool2dOp,
              tosa::AvgPool2dOp>([&](Operation *op) {
          // NHWC: the batch is N, the weights and bias are shared.
          if (batchDimOf(op->getOperand(0)) != 0 ||
              llvm::any_of(op->getOperands().drop_front(),
                           [&](Value v) { return batchDims.count(v); }))
            return fail(op, "its input's batch must be dimension N and its "
                            "weights must not depend on the batch");
          return setBatched(op, op->getResult(0), 0);
        })
        .Case<tosa::ReduceSumOp, tosa::ReduceMaxOp>([&](Operation *op) {
          int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
          int64_t dim = *batchDimOf(op->getOperand(0));
          if (axis == dim)
            return fail(op, "it reduces along the batch dimension");
          return setBatched(op, op->getResult(0), dim);
        })
        .Case<tosa::TransposeOp>([&](tosa::TransposeOp op) {
          int64_t dim = *batchDimOf(op.getInput1());
          std::optional<int64_t> outer = getOutermostDim(shapeOf(op));
          if (!outer || op.getPerms()[*outer] != dim)
            return fail(op, "it moves the batch dimension inwards");
          return setBatched(op, op.getResult(), *outer);
        })
        .Case<tosa::SliceOp>([&](tosa::SliceOp op) {
          int64_t dim = *batchDimOf(op.getInput1());
          SmallVector<int64_t> start;
          if (!tosa::getConstShapeValues(op.getStart().getDefiningOp(),
                                         start) ||
              start[dim] != 0 ||
              shapeOf(op)[dim] != shapeOf(op.getInput1())[dim])
            return fail(op, "it slices the batch dimension");
          return setBatched(op, op.getResult(), dim);
        })
        .Case<tosa::PadOp>([&](tosa::PadOp op) {
          int64_t dim = *batchDimOf(op.getInput1());
          SmallVector<int64_t> padding;
          if (!tosa::getConstShapeValues(op.getPadding().getDefiningOp(),
                                         padding) ||
              padding[2 * dim] != 0 || padding[2 * dim + 1] != 0)
            return fail(op, "it pads the batch dimension");
          return setBatched(op, op.getResult(), dim);
        })
        .Case<tosa::TileOp>([&](tosa::TileOp op) {
          int64_t dim = *batchDimOf(op.getInput1());
          if (shapeOf(op)[dim] != shapeOf(op.getInput1())[dim])
            return fail(op, "it tiles the batch dimension");
          return setBatched(op, op.getResult(), dim);
        })
        .Case<tosa::ConcatOp>([&](tosa::ConcatOp op) {
          std::optional<int64_t> dim = batchDimOf(op.getInput1().front());
          if (!dim || op.getAxis() == *dim ||
              llvm::any_of(op.getInput1(),
                           [&](Value v) { return batchDimOf(v) != dim; }))
            return fail(op, "it concatenates along the batch dimension or "
                            "mixes batched and shared inputs");
          return setBatched(op, op.getResult(), *dim);
        })
        .Default([&](Operation *op) { return visitElementwise(op); });
  }

private:
  std::optional<int64_t> batchDimOf(Value value) {
    auto it = batchDims.find(value);
    if (it == batchDims.end())
      return std::nullopt;
    return it->second;
  }

  LogicalResult fail(Operation *op, const llvm::Twine &why) {
    return op->emitError() << "dynamic batch: '" << op->getName()
                           << "' cannot run at a smaller batch: " << why;
  }

  LogicalResult setBatched(Operation *op, Value value, int64_t dim) {
    ArrayRef<int64_t> shape = shapeOf(value);
    if (getOutermostDim(shape) != dim || shape[dim] % maxBatch != 0)
      return fail(op, "its result's outermost dimension does not hold the "
                      "batch");
    batchDims[value] = dim;
    return success();
  }

  LogicalResult visitReshape(Operation *op) {
    // Samples stay contiguous slices; the outermost dimension that is not 1
    // must still count whole samples.
    std::optional<int64_t> outer = getOutermostDim(shapeOf(op->getResult(0)));
    if (!outer)
      return fail(op, "its result has no dimension for the batch");
    return setBatched(op, op->getResult(0), *outer);
  }

  LogicalResult visitMatmul(tosa::MatMulOp op) {
    std::optional<int64_t> a = batchDimOf(op.getA()), b = batchDimOf(op.getB());
    // Batched matmuls (attention) carry the batch in both operands' batch
    // dimension; a linear layer in the rows of A.
    if (a == 0 && b == 0)
      return setBatched(op, op.getResult(), 0);
    if (a == 1 && !b)
      return setBatched(op, op.getResult(), 1);
    return fail(op, "the batch must be the batch dimension of both operands "
                    "or the rows of A alone");
  }

  LogicalResult visitElementwise(Operation *op) {
    if (op->getNumResults() != 1 || !isElementwise(op))
      return fail(op, "it is not supported with a dynamic batch");
    Value result = op->getResult(0);
    std::optional<int64_t> dim = getOutermostDim(shapeOf(result));
    if (!dim)
      return fail(op, "its result has no dimension for the batch");
    for (Value operand : op->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        continue;
      std::optional<int64_t> operandDim = batchDimOf(operand);
      bool shared =
          !operandDim && llvm::all_of(type.getShape().take_front(*dim + 1),
                                      [](int64_t d) { return d == 1; });
      // Non-tensor-shaped operands (shift, zero points) are rank-1 scalars.
      bool scalar = !operandDim && type.getRank() != shapeOf(result).size();
      // A splat constant (an exporter's scalar broadcast to the result's
      // shape) holds the same value wherever a smaller batch reads it.
      DenseElementsAttr constant;
      bool splat = !operandDim &&
                   matchPattern(operand, m_Constant(&constant)) &&
                   constant.isSplat();
      if (operandDim != dim && !shared && !scalar && !splat)
        return fail(op, "an operand that does not depend on the batch is "
                        "not broadcast along it");
    }
    return setBatched(op, result, *dim);
  }

  llvm::DenseMap<Value, int64_t> &batchDims;
  int64_t maxBatch;
  function_ref<bool(Operation *)> isElementwise;
};

} // namespace

FailureOr<BatchAnalysis>
BatchAnalysis::run(func::FuncOp function, ArrayRef<unsigned> batchedInputs,
                   int64_t maxBatch,
                   function_ref<bool(Operation *)> isElementwise) {
  BatchAnalysis analysis;
  for (unsigned index : batchedInputs) {
    BlockArgument argument = function.getArgument(index);
    ArrayRef<int64_t> shape = shapeOf(argument);
    if (shape.empty() || shape[0] != maxBatch)
      return emitError(function.getLoc())
             << "dynamic batch: input '" << getBindingName(argument)
             << "' must have the largest batch, " << maxBatch
             << ", as its dimension 0";
    analysis.batchDims[argument] = 0;
  }
  Propagation propagation(analysis.batchDims, maxBatch, isElementwise);
  for (Operation &op : function.getBody().front())
    if (failed(propagation.visit(&op)))
      return failure();
  return analysis;
}

std::optional<int64_t> BatchAnalysis::getBatchDim(Value value) const {
  auto it = batchDims.find(value);
  if (it == batchDims.end())
    return std::nullopt;
  return it->second;
}

} // namespace prec
