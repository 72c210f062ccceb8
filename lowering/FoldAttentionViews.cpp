//===- FoldAttentionViews.cpp - attention reads through head moves --------===//
//
// Exporters split heads with reshapes and transposes before attention, copy
// shared keys and values to every head of a group with tiles, and merge the
// heads back with a transpose after it. Each transpose and tile is a kernel
// that only moves a tensor through memory. engine.attention reads and writes by
// strides, so it takes the tensors before those moves (and writes the one
// after) and the moves go.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialects/Engine/EngineDialect.h"
#include "dialects/Precision/PrecisionOpInterface.h"
#include "dialects/Utils/Shapes.h"
#include "lowering/ElementwiseExpressionInterface.h"
#include "lowering/PlannableFunction.h"
#include "lowering/StridedLayouts.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

#include <array>

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECFOLDATTENTIONVIEWS
#include "lowering/Passes.h.inc"

namespace {

/// A matrix operand's (batch, head, row, column) as indices into a tensor.
using MatrixIndices = std::array<StridedIndex, 4>;

/// The strides engine.attention takes for a matrix operand, and the heads
/// that share one matrix of it.
struct MatrixLayout {
  SmallVector<int64_t, 4> strides;
  int64_t group = 1;
};

/// A tensor a matrix operand can be read from (or the result written to).
struct Candidate {
  Value tensor;
  MatrixLayout layout;
};

/// The one stride of an index, 0 where it takes one value; none for an
/// index that moves unevenly.
std::optional<int64_t> getSingleStride(const StridedIndex &index) {
  StridedIndex simple = simplify(index);
  if (simple.empty())
    return 0;
  if (simple.size() == 1)
    return simple.front().stride;
  return std::nullopt;
}

/// The layout engine.attention reads `indices` of `tensor` with: one stride
/// per index, except that consecutive heads may share a matrix (grouped
/// keys and values); columns contiguous, or for keys either way round; the
/// batch outermost, so that a dynamic batch scales the tensor. None where
/// it cannot.
std::optional<MatrixLayout> getLayout(Value tensor,
                                      const MatrixIndices &indices,
                                      int64_t batch, bool keys) {
  MatrixLayout layout;
  StridedIndex heads = simplify(indices[1]);
  if (!heads.empty() && heads.back().stride == 0) {
    layout.group = heads.back().size;
    heads.pop_back();
  }
  std::optional<int64_t> batchStride = getSingleStride(indices[0]),
                         headStride = getSingleStride(heads),
                         rowStride = getSingleStride(indices[2]),
                         columnStride = getSingleStride(indices[3]);
  if (!batchStride || !headStride || !rowStride || !columnStride ||
      (*columnStride != 1 && !(keys && *rowStride == 1)))
    return std::nullopt;
  ArrayRef<int64_t> shape = shapeOf(tensor);
  if (batch > 1 && (shape.front() != batch ||
                    *batchStride * batch != ShapedType::getNumElements(shape)))
    return std::nullopt;
  layout.strides = {*batchStride, *headStride, *rowStride, *columnStride};
  return layout;
}

/// The indices of a matrix operand laid out by `strides`, its heads
/// sharing matrices in groups of `group`.
MatrixIndices getIndices(ArrayRef<int64_t> strides, int64_t batch,
                         int64_t heads, int64_t group, int64_t rows,
                         int64_t columns) {
  return {StridedIndex{{batch, strides[0]}},
          StridedIndex{{heads / group, strides[1]}, {group, 0}},
          StridedIndex{{rows, strides[2]}},
          StridedIndex{{columns, strides[3]}}};
}

/// `indices` of a tensor of shape `from` through an op's strides.
std::optional<MatrixIndices> mapIndices(const MatrixIndices &indices,
                                        ArrayRef<int64_t> from,
                                        ArrayRef<std::optional<int64_t>> to) {
  MatrixIndices mapped;
  for (auto [index, result] : llvm::zip_equal(indices, mapped)) {
    std::optional<StridedIndex> moved = mapIndex(index, from, to);
    if (!moved)
      return std::nullopt;
    result = std::move(*moved);
  }
  return mapped;
}

/// Which way followMoves goes: from an operand back to what its moves
/// start from, or from the result on to what its moves make of it.
enum class Direction { Back, On };

/// The tensors a matrix operand can be read from (Back) or the result
/// written as (On), nearest first: `tensor` itself, then each tensor that
/// reshapes, transposes and tiles (Back) or reshapes and transposes, each
/// the only reader of the last (On), move it to or from.
SmallVector<Candidate> followMoves(Value tensor, MatrixIndices indices,
                                   MatrixLayout layout, int64_t batch,
                                   bool keys, Direction direction) {
  SmallVector<Candidate> found{{tensor, layout}};
  while (true) {
    Operation *move = direction == Direction::Back ? tensor.getDefiningOp()
                      : tensor.hasOneUse()         ? *tensor.user_begin()
                                                   : nullptr;
    auto strides = !move                          ? std::nullopt
                   : direction == Direction::Back ? getInputStrides(move)
                                                  : getResultStrides(move);
    std::optional<MatrixIndices> mapped =
        strides ? mapIndices(indices, shapeOf(tensor), *strides) : std::nullopt;
    if (!mapped)
      return found;
    indices = std::move(*mapped);
    tensor =
        direction == Direction::Back ? move->getOperand(0) : move->getResult(0);
    if (std::optional<MatrixLayout> strided =
            getLayout(tensor, indices, batch, keys))
      found.push_back({tensor, *strided});
  }
}

/// The furthest source of keys and of values that share heads alike.
std::pair<Candidate, Candidate> pickKeysAndValues(ArrayRef<Candidate> keys,
                                                  ArrayRef<Candidate> values) {
  for (const Candidate &key : llvm::reverse(keys))
    for (const Candidate &value : llvm::reverse(values))
      if (key.layout.group == value.layout.group)
        return {key, value};
  return {keys.front(), values.front()};
}

/// Erases `move` and the shape constants only it read.
void eraseMove(Operation *move) {
  SmallVector<Value> shapes(llvm::drop_begin(move->getOperands()));
  move->erase();
  for (Value shape : shapes)
    if (Operation *def = shape.getDefiningOp(); def && def->use_empty())
      def->erase();
}

/// Erases the moves that led to `values` (and to each other) once nothing
/// reads them. One op may lead to several: each goes once.
void eraseUnreadMoves(ArrayRef<Value> values) {
  llvm::SetVector<Operation *> candidates;
  for (Value value : values)
    if (Operation *def = value.getDefiningOp())
      candidates.insert(def);
  while (!candidates.empty()) {
    Operation *op = candidates.pop_back_val();
    if (!op->use_empty() || !isa<tosa::ReshapeOp, tosa::TransposeOp,
                                 tosa::TileOp, tosa::IdentityOp>(op))
      continue;
    if (Operation *input = op->getOperand(0).getDefiningOp())
      candidates.insert(input);
    eraseMove(op);
  }
}

/// Whether `value` is a constant of one element.
bool isScalarConstant(Value value) {
  DenseElementsAttr elements;
  return matchPattern(value, m_Constant(&elements)) &&
         elements.getNumElements() == 1;
}

/// For `op` computing elementwise over the result of a reshape, transpose
/// or tile that only it reads, and scalar constants: computes it over the
/// move's input instead (the constants at that rank), then the move. The
/// values are the same; the move is then next to what reads it. Returns
/// the op computed earlier, or null where `op` is not such an op.
Operation *hoistAboveMove(Operation *op) {
  if (!isElementwise(op) || op->getNumResults() != 1)
    return nullptr;
  Value moved;
  for (Value operand : getDataOperands(op)) {
    if (isScalarConstant(operand))
      continue;
    if (moved)
      return nullptr;
    moved = operand;
  }
  Operation *move = moved ? moved.getDefiningOp() : nullptr;
  if (!move || !isa<tosa::ReshapeOp, tosa::TransposeOp, tosa::TileOp>(move) ||
      !moved.hasOneUse())
    return nullptr;
  Value input = move->getOperand(0);
  auto inputType = cast<RankedTensorType>(input.getType());
  OpBuilder builder(op);
  IRMapping mapping;
  mapping.map(moved, input);
  llvm::SetVector<Operation *> constants;
  for (Value operand : getDataOperands(op)) {
    if (operand == moved)
      continue;
    DenseElementsAttr elements;
    matchPattern(operand, m_Constant(&elements));
    auto type =
        RankedTensorType::get(SmallVector<int64_t>(inputType.getRank(), 1),
                              elements.getElementType());
    mapping.map(operand, tosa::ConstOp::create(builder, operand.getLoc(), type,
                                               elements.reshape(type)));
    constants.insert(operand.getDefiningOp());
  }
  Operation *early = builder.clone(*op, mapping);
  early->getResult(0).setType(
      inputType.clone(getElementTypeOrSelf(op->getResult(0).getType())));
  IRMapping moveMapping;
  moveMapping.map(input, early->getResult(0));
  Operation *late = builder.clone(*move, moveMapping);
  late->getResult(0).setType(op->getResult(0).getType());
  op->getResult(0).replaceAllUsesWith(late->getResult(0));
  op->erase();
  move->erase();
  for (Operation *constant : constants)
    if (constant->use_empty())
      constant->erase();
  return early;
}

/// Moves the scalar ops on `operand`'s way up above the head moves before
/// them (f16 exports scale the keys after their transpose), so that the
/// moves reach the attention.
void hoistScalarOps(Value operand) {
  while (auto reshape = operand.getDefiningOp<tosa::ReshapeOp>())
    operand = reshape.getInput1();
  Operation *op = operand.getDefiningOp();
  while (op)
    op = hoistAboveMove(op);
}

/// Makes `op` write `destination` itself, by its strides: the moves from
/// its result to it go.
void writeInPlaceOf(engine::AttentionOp op, Value destination) {
  SmallVector<Operation *> moves;
  for (Value tensor = op.getResult(); tensor != destination;
       tensor = moves.back()->getResult(0))
    moves.push_back(*tensor.user_begin());
  op.getResult().setType(cast<RankedTensorType>(destination.getType()));
  destination.replaceAllUsesWith(op.getResult());
  for (Operation *move : llvm::reverse(moves))
    eraseMove(move);
}

void foldViews(engine::AttentionOp op) {
  // By index: hoisting replaces an operand that two of them may share.
  for (unsigned operand = 0; operand < 3; ++operand)
    hoistScalarOps(op->getOperand(operand));
  engine::AttentionOp::Sizes sizes = op.getMatrixSizes();
  int64_t heads = op.getHeads(), batch = sizes.n / heads,
          group = op.getKvGroup();
  auto follow = [&](Value tensor, ArrayRef<int64_t> strides, int64_t shared,
                    int64_t rows, int64_t columns, bool keys,
                    Direction direction) {
    MatrixLayout layout{SmallVector<int64_t, 4>(strides), shared};
    return followMoves(tensor,
                       getIndices(strides, batch, heads, shared, rows, columns),
                       layout, batch, keys, direction);
  };
  // Heads do not share queries, nor places in the result.
  auto unshared = [](SmallVector<Candidate> candidates) {
    llvm::erase_if(candidates,
                   [](const Candidate &c) { return c.layout.group != 1; });
    return candidates.back();
  };
  Candidate query = unshared(follow(op.getQuery(), op.getQueryLayout(), 1,
                                    sizes.sq, sizes.d, false, Direction::Back));
  auto [keys, values] =
      pickKeysAndValues(follow(op.getKeys(), op.getKeysLayout(), group, sizes.d,
                               sizes.sk, true, Direction::Back),
                        follow(op.getValues(), op.getValuesLayout(), group,
                               sizes.sk, sizes.dv, false, Direction::Back));
  Candidate result = unshared(follow(op.getResult(), op.getResultLayout(), 1,
                                     sizes.sq, sizes.dv, false, Direction::On));

  if (query.tensor == op.getQuery() && keys.tensor == op.getKeys() &&
      values.tensor == op.getValues() && result.tensor == op.getResult())
    return;
  Value oldQuery = op.getQuery(), oldKeys = op.getKeys(),
        oldValues = op.getValues();
  op.setSizes(
      ArrayRef<int64_t>{sizes.n, sizes.sq, sizes.sk, sizes.d, sizes.dv});
  op.getQueryMutable().assign(query.tensor);
  op.setQueryStrides(query.layout.strides);
  op.getKeysMutable().assign(keys.tensor);
  op.setKeysStrides(keys.layout.strides);
  op.getValuesMutable().assign(values.tensor);
  op.setValuesStrides(values.layout.strides);
  op.setKvGroup(keys.layout.group);
  op.setResultStrides(result.layout.strides);
  if (result.tensor != op.getResult())
    writeInPlaceOf(op, result.tensor);
  eraseUnreadMoves({oldQuery, oldKeys, oldValues});
}

class FoldAttentionViewsPass
    : public PlanPass<FoldAttentionViewsPass,
                      impl::PrecFoldAttentionViewsBase> {
public:
  using PlanPass::PlanPass;

  LogicalResult plan(func::FuncOp function) {
    // Folding erases ops on either side: collect first.
    SmallVector<engine::AttentionOp> attentions(
        function.getOps<engine::AttentionOp>());
    for (engine::AttentionOp op : attentions)
      foldViews(op);
    return success();
  }
};

} // namespace

} // namespace prec
