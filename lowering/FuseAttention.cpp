//===- FuseAttention.cpp - scaled dot-product attention as one op ---------===//
//
// Exporters write attention as two batched matmuls around a softmax, with
// the scale, the mask and casts in between, and the multi-head reshapes.
// Run as written, the S×S scores make four round trips through memory; one
// engine.attention op runs as one kernel that keeps them on chip.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialects/Engine/EngineDialect.h"
#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Utils/Constants.h"
#include "dialects/Utils/Shapes.h"
#include "dialects/Utils/Softmax.h"
#include "lowering/PlannableFunction.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECFUSEATTENTION
#include "lowering/Passes.h.inc"

namespace {

/// Whether every value of `narrow` is one of `wide` (rounding to `wide`
/// after `narrow` changes nothing).
bool isWithin(Type narrow, Type wide) { return narrow == wide || wide.isF32(); }

/// The factors of an attention whose matmuls the program quantized
/// (engine.attention_quantization).
struct QuantizationFactors {
  Type type;
  APFloat query{0.0f}, keys{0.0f}, values{0.0f}, probabilities{0.0f},
      scores{0.0f}, result{0.0f};
};

/// One attention as the program writes it, found from its P·V matmul.
struct AttentionMatch {
  tosa::MatMulOp scores, output;
  /// The attention op's operands: the matmuls' operands, or where the
  /// program quantized them, what it quantized.
  Value query, keys, values;
  std::optional<QuantizationFactors> quantization;
  /// The ops that quantize the operands, which have their shapes rather
  /// than the scores'.
  llvm::SmallPtrSet<Operation *, 8> operandOps;
  /// The op whose result the attention op replaces: the P·V matmul or its
  /// epilogue cast.
  Operation *result = nullptr;
  Value mask;
  bool maskFirst = false, zeroNanRows = false;
  double scale = 1;
  Type scoreType, scaledType, maskedType;
  int64_t heads = 0;
  /// Every op the attention op replaces.
  llvm::SetVector<Operation *> ops;
};

/// Finds attentions, one P·V matmul at a time. Each step looks through the
/// reshapes and casts between the parts.
class AttentionMatcher {
public:
  std::optional<AttentionMatch> match(tosa::MatMulOp output) {
    match_ = AttentionMatch();
    scoresDequantized = false;
    match_.output = output;
    match_.ops.insert(output);
    outputProduct = getF32Product(output);
    if (!outputProduct)
      return std::nullopt;
    Value probabilities = output.getA();
    match_.values = output.getB();
    if (isQuantized(output)) {
      match_.quantization.emplace();
      match_.quantization->type = elementOf(output.getA());
      std::optional<Value> p =
          matchQuantized(probabilities, match_.quantization->probabilities);
      std::optional<Value> v =
          matchQuantized(match_.values, match_.quantization->values);
      if (!p || !v)
        return std::nullopt;
      probabilities = *p;
      match_.values = *v;
    } else if (!isComputeType(elementOf(probabilities))) {
      return std::nullopt;
    }
    probabilities = lookThrough(probabilities);
    if (Value guarded = matchNanGuard(probabilities)) {
      match_.zeroNanRows = true;
      probabilities = lookThrough(guarded);
    }
    Value logits = matchSoftmax(probabilities);
    if (!logits || !matchScores(logits) || !matchResult() || !isClosed())
      return std::nullopt;
    if (match_.quantization &&
        !engine::AttentionOp::fitsTensorCores(
            elementOf(match_.query), elementOf(match_.values),
            shapeOf(match_.query)[2], shapeOf(match_.values)[2]))
      return std::nullopt;
    return std::move(match_);
  }

private:
  static bool isComputeType(Type type) {
    return engine::AttentionOp::isComputeType(type);
  }

  /// Whether the program quantized `matmul` (prec-quantize) to f8, or to i8
  /// with an i32 product, around 0 (zero points of 0).
  static bool isQuantized(tosa::MatMulOp matmul) {
    FailureOr<int64_t> a = matmul.getAZeroPoint(), b = matmul.getBZeroPoint();
    return engine::AttentionOp::isQuantizationType(elementOf(matmul.getA())) &&
           succeeded(a) && *a == 0 && succeeded(b) && *b == 0;
  }

  /// The op whose result is `matmul`'s product in f32: the matmul, or the
  /// cast to f32 that is the only reader of its i32 product; null if none.
  static Operation *getF32Product(tosa::MatMulOp matmul) {
    Type productType = elementOf(matmul.getResult());
    if (productType.isF32())
      return matmul;
    auto widening = getOnlyUser<tosa::CastOp>(matmul);
    if (!productType.isSignlessInteger(32) || !widening ||
        !elementOf(widening.getResult()).isF32())
      return nullptr;
    return widening;
  }

  /// The P·V matmul's product in f32, or its dequantization, possibly
  /// followed by its epilogue cast.
  bool matchResult() {
    Operation *result = outputProduct;
    take(result);
    if (match_.quantization) {
      auto dequantize = getOnlyUser<tosa::MulOp>(result);
      if (!dequantize || !matchFactor(dequantize, result->getResult(0),
                                      match_.quantization->result))
        return false;
      take(dequantize);
      result = dequantize;
    }
    if (auto cast = getOnlyUser<tosa::CastOp>(result);
        cast &&
        cast->hasAttr(precision::PrecisionDialect::getEpilogueAttrName())) {
      take(cast);
      result = cast;
    }
    match_.result = result;
    return true;
  }

  /// The only user of `op`'s result, if it is an OpTy.
  template <typename OpTy> static OpTy getOnlyUser(Operation *op) {
    return op->hasOneUse() ? dyn_cast<OpTy>(*op->user_begin()) : OpTy();
  }

  /// Whether `mul` multiplies `value` by an f32 splat, recorded in `factor`.
  static bool matchFactor(tosa::MulOp mul, Value value, APFloat &factor) {
    Value other = mul.getInput1() == value ? mul.getInput2() : mul.getInput1();
    std::optional<APFloat> splat = getFloatSplat(other);
    if (!splat || !elementOf(other).isF32() ||
        (mul.getInput1() != value && mul.getInput2() != value))
      return false;
    factor = *splat;
    return true;
  }

  /// What `operand`, a quantized matmul's operand, quantizes:
  /// cast<f8>(x * factor), or cast<i8>(clamp(x * factor, -127, 127)), gives
  /// x, under a widening cast from the type the program stored it in; the
  /// factor goes to `factor`.
  std::optional<Value> matchQuantized(Value operand, APFloat &factor) {
    auto cast = operand.getDefiningOp<tosa::CastOp>();
    Value scaled = cast ? cast.getInput() : Value();
    tosa::ClampOp clamp;
    if (isa<IntegerType>(elementOf(operand))) {
      clamp = scaled ? scaled.getDefiningOp<tosa::ClampOp>() : nullptr;
      if (!clamp || !isSymmetricI8Clamp(clamp))
        return std::nullopt;
      scaled = clamp.getInput();
    }
    auto mul = scaled ? scaled.getDefiningOp<tosa::MulOp>() : nullptr;
    if (!mul)
      return std::nullopt;
    Value x =
        getFloatSplat(mul.getInput2()) ? mul.getInput1() : mul.getInput2();
    if (!elementOf(x).isF32() || !matchFactor(mul, x, factor))
      return std::nullopt;
    for (Operation *op :
         {cast.getOperation(), clamp.getOperation(), mul.getOperation()}) {
      if (!op)
        continue;
      take(op);
      match_.operandOps.insert(op);
    }
    Value source = lookThroughWidening(x);
    if (source != x) {
      take(x.getDefiningOp());
      match_.operandOps.insert(x.getDefiningOp());
    }
    return source;
  }

  /// Whether `clamp`, read by a cast to i8, bounds an f32 value to
  /// [-127, 127], as prec-quantize does (which the kernel's quantization
  /// repeats): an upper bound past 127 is the cast's saturation
  /// (prec-drop-saturated-bounds leaves +inf).
  static bool isSymmetricI8Clamp(tosa::ClampOp clamp) {
    auto low = dyn_cast<FloatAttr>(clamp.getMinValAttr());
    auto high = dyn_cast<FloatAttr>(clamp.getMaxValAttr());
    return low && high && elementOf(clamp.getResult()).isF32() &&
           low.getValueAsDouble() == -127.0 && high.getValueAsDouble() >= 127.0;
  }

  /// Records that the attention op replaces `op`.
  void take(Operation *op) { match_.ops.insert(op); }

  /// The value under reshapes and float casts of `value`.
  Value lookThrough(Value value) {
    while (Operation *def = value.getDefiningOp()) {
      if (!isa<tosa::ReshapeOp, tosa::CastOp>(def) ||
          !isComputeType(elementOf(def->getOperand(0))))
        break;
      take(def);
      value = def->getOperand(0);
    }
    return value;
  }

  /// `x` of `select(not(equal(x, x)), 0, x)`: NaN probabilities made 0.
  Value matchNanGuard(Value value) {
    auto select = value.getDefiningOp<tosa::SelectOp>();
    if (!select || !isZeroConstant(select.getOnTrue()))
      return {};
    Value x = select.getOnFalse();
    auto isNan = select.getInput1().getDefiningOp<tosa::LogicalNotOp>();
    auto equal =
        isNan ? isNan.getInput1().getDefiningOp<tosa::EqualOp>() : nullptr;
    if (!equal || equal.getInput1() != x || equal.getInput2() != x)
      return {};
    take(select);
    take(isNan);
    take(equal);
    return x;
  }

  /// The logits of `exp(x - max(x)) * reciprocal(sum(...))` over the last
  /// axis, whose exponential runs in f32.
  Value matchSoftmax(Value probabilities) {
    std::optional<SoftmaxQuotient> quotient =
        matchSoftmaxQuotient(probabilities.getDefiningOp());
    auto expOp =
        quotient ? quotient->terms.getDefiningOp<tosa::ExpOp>() : nullptr;
    if (!expOp || !isLastAxis(quotient->sum) ||
        !elementOf(quotient->terms).isF32())
      return {};
    std::optional<MaximumShift> shift =
        matchMaximumShift(lookThrough(expOp.getInput1()).getDefiningOp());
    if (!shift || !isLastAxis(shift->maximum))
      return {};
    for (Operation *op :
         {quotient->product.getOperation(), quotient->reciprocal.getOperation(),
          quotient->sum.getOperation(), expOp.getOperation(),
          shift->shift.getOperation(), shift->maximum.getOperation()})
      take(op);
    return shift->shift.getInput1();
  }

  static bool isLastAxis(Operation *reduction) {
    auto axis = reduction->getAttrOfType<IntegerAttr>("axis");
    return axis && axis.getInt() + 1 ==
                       int64_t(shapeOf(reduction->getResult(0)).size());
  }

  /// Walks from the logits back to the Q·Kᵀ matmul through at most one
  /// scale by a constant and one added mask (and, where the program
  /// quantized the matmul, its dequantization), recording the type each
  /// part rounds to (the narrowest on its way).
  bool matchScores(Value logits) {
    SmallVector<Operation *> steps;
    Type rounding = elementOf(logits);
    SmallVector<Type> roundings;
    Value value = logits;
    while (Operation *def = value.getDefiningOp()) {
      if (auto matmul = dyn_cast<tosa::MatMulOp>(def)) {
        match_.scores = matmul;
        break;
      }
      if (!isComputeType(elementOf(def->getResult(0))))
        return false;
      rounding = narrower(rounding, elementOf(def->getResult(0)));
      if (!rounding)
        return false;
      take(def);
      if (isa<tosa::ReshapeOp, tosa::CastOp>(def)) {
        if (isa<tosa::ReshapeOp>(def))
          recordHeads(def->getResult(0));
        value = def->getOperand(0);
        continue;
      }
      if (std::optional<Value> product = matchScoresDequantization(def)) {
        value = *product;
        continue;
      }
      std::optional<Value> next = matchStep(def);
      if (!next)
        return false;
      steps.push_back(def);
      roundings.push_back(rounding);
      rounding = elementOf(*next);
      value = *next;
    }
    if (!match_.scores || steps.size() > 2 || !getF32Product(match_.scores) ||
        !matchQueryAndKeys())
      return false;
    take(match_.scores);
    // From the matmul on: the scores, then each step's result.
    std::optional<Type> scaled, masked;
    for (auto [step, type] :
         llvm::zip(llvm::reverse(steps), llvm::reverse(roundings))) {
      if (isa<tosa::MulOp>(step)) {
        if (scaled)
          return false;
        scaled = type;
      } else {
        masked = type;
        match_.maskFirst = !scaled;
      }
    }
    // A missing part rounds to the type before it: no rounding at all.
    match_.scoreType = rounding;
    match_.scaledType = scaled ? *scaled : masked ? *masked : rounding;
    match_.maskedType = masked ? *masked : match_.scaledType;
    return finishHeads();
  }

  /// The product of a quantized Q·Kᵀ under its dequantization, the factor
  /// recorded.
  std::optional<Value> matchScoresDequantization(Operation *op) {
    auto mul = dyn_cast<tosa::MulOp>(op);
    if (!mul || !match_.quantization || scoresDequantized)
      return std::nullopt;
    for (Value product : {mul.getInput1(), mul.getInput2()}) {
      Operation *def = product.getDefiningOp();
      auto matmul = dyn_cast_or_null<tosa::MatMulOp>(def);
      if (auto widening = dyn_cast_or_null<tosa::CastOp>(def))
        matmul = widening.getInput().getDefiningOp<tosa::MatMulOp>();
      if (matmul && isQuantized(matmul) && getF32Product(matmul) == def &&
          matchFactor(mul, product, match_.quantization->scores)) {
        scoresDequantized = true;
        take(def);
        return matmul.getResult();
      }
    }
    return std::nullopt;
  }

  /// Q and Kᵀ: the scores matmul's operands, or what they quantize where
  /// the P·V matmul is quantized too (to the same type).
  bool matchQueryAndKeys() {
    tosa::MatMulOp scores = match_.scores;
    if (!match_.quantization) {
      match_.query = scores.getA();
      match_.keys = scores.getB();
      return isComputeType(elementOf(match_.query));
    }
    if (!scoresDequantized ||
        elementOf(scores.getA()) != match_.quantization->type ||
        elementOf(scores.getB()) != match_.quantization->type)
      return false;
    std::optional<Value> query =
        matchQuantized(scores.getA(), match_.quantization->query);
    std::optional<Value> keys =
        matchQuantized(scores.getB(), match_.quantization->keys);
    if (!query || !keys)
      return false;
    match_.query = *query;
    match_.keys = *keys;
    return true;
  }

  /// The narrower of two types of which one holds the other, or null.
  static Type narrower(Type a, Type b) {
    if (isWithin(a, b))
      return a;
    if (isWithin(b, a))
      return b;
    return {};
  }

  /// For a scale (a multiplication by a constant) or a mask (an addition of
  /// a value computed without the scores): the scores' operand.
  std::optional<Value> matchStep(Operation *op) {
    if (auto mul = dyn_cast<tosa::MulOp>(op)) {
      for (auto [scores, factor] :
           {std::pair(mul.getInput1(), mul.getInput2()),
            std::pair(mul.getInput2(), mul.getInput1())})
        if (std::optional<APFloat> scale = getFloatSplat(factor)) {
          match_.scale = scale->convertToDouble();
          return scores;
        }
      return std::nullopt;
    }
    auto add = dyn_cast<tosa::AddOp>(op);
    if (!add || match_.mask)
      return std::nullopt;
    // The mask is the operand computed without the scores.
    Value scores = add.getInput1(), mask = add.getInput2();
    if (dependsOnMatmul(mask))
      std::swap(scores, mask);
    if (dependsOnMatmul(mask) || !dependsOnMatmul(scores))
      return std::nullopt;
    match_.mask = mask;
    maskShape = shapeOf(add.getResult());
    return scores;
  }

  /// Whether `value` comes from a matmul through the ops a score chain
  /// has.
  static bool dependsOnMatmul(Value value, int depth = 0) {
    Operation *def = value.getDefiningOp();
    if (!def || depth > 8)
      return false;
    if (isa<tosa::MatMulOp>(def))
      return true;
    if (!isa<tosa::ReshapeOp, tosa::CastOp, tosa::MulOp, tosa::AddOp>(def))
      return false;
    return llvm::any_of(def->getOperands(), [&](Value operand) {
      return dependsOnMatmul(operand, depth + 1);
    });
  }

  /// A rank-4 [B, H, Sq, Sk] view of the scores names the heads.
  void recordHeads(Value scores) {
    if (shapeOf(scores).size() == 4)
      match_.heads = shapeOf(scores)[1];
  }

  /// Checks the heads against the scores and the mask's space, and makes
  /// a rank-3 mask's space [1, N, Sq, Sk].
  bool finishHeads() {
    ArrayRef<int64_t> scores = shapeOf(match_.scores.getResult());
    int64_t n = scores[0];
    if (match_.mask && maskShape.size() == 3)
      match_.heads = n;
    if (match_.mask && maskShape.size() == 4)
      match_.heads = maskShape[1];
    if (!match_.heads)
      match_.heads = n;
    if (n % match_.heads != 0)
      return false;
    if (match_.mask && maskShape.size() == 4 &&
        (maskShape[0] * maskShape[1] != n || maskShape[2] != scores[1] ||
         maskShape[3] != scores[2]))
      return false;
    if (match_.mask && maskShape.size() != 3 && maskShape.size() != 4)
      return false;
    return llvm::all_of(match_.ops, [&](Operation *op) {
      return isa<tosa::MatMulOp>(op) || match_.operandOps.contains(op) ||
             llvm::all_of(op->getResults(), [&](Value result) {
               return isScoresShape(shapeOf(result));
             });
    });
  }

  /// [N, Sq, Sk] or [N / heads, heads, Sq, Sk], or either reduced over its
  /// last axis.
  bool isScoresShape(ArrayRef<int64_t> shape) {
    ArrayRef<int64_t> scores = shapeOf(match_.scores.getResult());
    int64_t n = scores[0], sq = scores[1], sk = scores[2];
    if (shape.empty() || (shape.back() != sk && shape.back() != 1))
      return false;
    if (shape.size() == 3)
      return shape[0] == n && shape[1] == sq;
    return shape.size() == 4 && shape[0] * shape[1] == n &&
           shape[1] == match_.heads && shape[2] == sq;
  }

  /// Whether nothing outside the attention reads a value it replaces.
  bool isClosed() {
    return llvm::all_of(match_.ops, [&](Operation *op) {
      if (op == match_.result)
        return true;
      return llvm::all_of(op->getUsers(), [&](Operation *user) {
        return match_.ops.contains(user);
      });
    });
  }

  AttentionMatch match_;
  ArrayRef<int64_t> maskShape;
  /// The op whose result is the P·V matmul's product in f32.
  Operation *outputProduct = nullptr;
  bool scoresDequantized = false;
};

/// The mask in the attention's [B, H, Sq, Sk] space: a rank-3 one gains a
/// leading 1.
Value getRank4Mask(OpBuilder &builder, Value mask) {
  auto type = cast<RankedTensorType>(mask.getType());
  if (type.getRank() == 4)
    return mask;
  SmallVector<int64_t> shape{1};
  llvm::append_range(shape, type.getShape());
  ImplicitLocOpBuilder at(mask.getLoc(), builder);
  Value newShape = tosa::getTosaConstShape(at, shape);
  return tosa::ReshapeOp::create(at, type.clone(shape), mask, newShape);
}

/// Tensor cores where the mma kernel takes the shape and types, else tiles
/// on the CUDA cores where the head sizes fit them, else a warp per query
/// row. Measured on an H100 in f32: tiles take 0.23x a warp per row's time
/// at BERT-base's 8 x 512, 0.13x at LLaMA-8B's 2048 tokens.
engine::AttentionKernel chooseKernel(Value query, Value values) {
  int64_t d = shapeOf(query)[2], dv = shapeOf(values)[2];
  if (engine::AttentionOp::fitsTensorCores(elementOf(query), elementOf(values),
                                           d, dv))
    return engine::AttentionKernel::TensorCores;
  if (engine::AttentionOp::fitsCudaCoreTiles(d, dv))
    return engine::AttentionKernel::CudaCores;
  return engine::AttentionKernel::WarpPerRow;
}

/// The query rows a block of the tensor-core kernel takes: 128 (32 a warp,
/// each shared-memory fragment of keys and values feeding twice the mma
/// instructions) for heads of more than 64 over more than 64 queries, else
/// 64. Measured on an H100 (bench/gpu/run_attention.py): 128 rows take 0.81x
/// the time of 64 at 2048 keys, head size 128. On an H200 at head size 64,
/// 64 rows take 0.94x the time of 128 at BERT-base 32 x 128, 0.95x at
/// 8 x 512 and 0.86x at ViT-base 32 x 197: their blocks need half the
/// registers, and twice as many share the GPU.
IntegerAttr chooseQueryRows(Builder &builder, engine::AttentionKernel kernel,
                            Value query, Value values) {
  if (kernel != engine::AttentionKernel::TensorCores)
    return {};
  ArrayRef<int64_t> queries = shapeOf(query), outputs = shapeOf(values);
  bool large = queries[1] > 64 && std::max(queries[2], outputs[2]) > 64;
  return builder.getI64IntegerAttr(large ? 128 : 64);
}

/// Whether the kernel must quantize the probabilities after their division
/// by the row sum, as the program does: always in i8, whose even steps
/// resolve a probability only relative to the factor; in f8 where
/// exp(x - max), at most 1, times the factor could pass the type's largest
/// value and saturate (P's calibrated maximum is below 1).
bool needsNormalizedProbabilities(const QuantizationFactors &factors) {
  auto f8 = dyn_cast<FloatType>(factors.type);
  if (!f8)
    return true;
  APFloat largest = APFloat::getLargest(f8.getFloatSemantics());
  bool losesInfo = false;
  largest.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
  return factors.probabilities.compare(largest) == APFloat::cmpGreaterThan;
}

engine::AttentionQuantizationAttr
getQuantizationAttr(Builder &builder,
                    const std::optional<QuantizationFactors> &factors) {
  if (!factors)
    return {};
  auto f32 = [&](const APFloat &factor) {
    return builder.getF32FloatAttr(factor.convertToFloat());
  };
  return engine::AttentionQuantizationAttr::get(
      builder.getContext(), factors->type, f32(factors->query),
      f32(factors->keys), f32(factors->values), f32(factors->probabilities),
      f32(factors->scores), f32(factors->result),
      needsNormalizedProbabilities(*factors));
}

void replace(AttentionMatch &match) {
  OpBuilder builder(match.result);
  Value mask = match.mask ? getRank4Mask(builder, match.mask) : Value();
  Value query = match.query, values = match.values;
  engine::AttentionKernel kernel = chooseKernel(query, values);
  // The engine sizes what it records of the mask's tiles at create. A single
  // tile of keys has nothing to skip, and the record costs
  // a launch: 3-8% of a Swin window's attention on an H100.
  bool skipMaskedKeys =
      engine::AttentionOp::canSkipMaskedKeys(kernel, mask, match.maskFirst,
                                             match.scale) &&
      shapeOf(match.keys)[2] > engine::AttentionOp::kKeysPerTile;
  auto attention = engine::AttentionOp::create(
      builder, match.result->getLoc(), match.result->getResult(0).getType(),
      query, match.keys, values, mask, match.heads, kernel,
      chooseQueryRows(builder, kernel, query, values), APFloat(match.scale),
      match.scoreType, match.scaledType, match.maskedType, match.maskFirst,
      match.zeroNanRows, skipMaskedKeys, /*sizes=*/nullptr,
      /*query_strides=*/nullptr, /*keys_strides=*/nullptr,
      /*values_strides=*/nullptr, /*result_strides=*/nullptr,
      /*kv_group=*/1, /*result_scale=*/nullptr, /*unscaled_type=*/nullptr,
      getQuantizationAttr(builder, match.quantization),
      /*query_factor=*/nullptr, /*keys_factor=*/nullptr);
  if (auto layer = match.output->getAttr(
          precision::PrecisionDialect::getLayerAttrName()))
    attention->setAttr(precision::PrecisionDialect::getLayerAttrName(), layer);
  match.result->getResult(0).replaceAllUsesWith(attention.getResult());
  // Users before producers; what other attentions or ops still read stays.
  SmallVector<Operation *> ops = match.ops.takeVector();
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return b->isBeforeInBlock(a); });
  for (Operation *op : ops) {
    if (!op->use_empty())
      continue;
    llvm::SetVector<Operation *> constants;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && def->hasTrait<OpTrait::ConstantLike>())
        constants.insert(def);
    op->erase();
    // Shift, zero-point and shape constants only these ops read.
    for (Operation *constant : constants)
      if (constant->use_empty())
        constant->erase();
  }
}

class FuseAttentionPass
    : public PlanPass<FuseAttentionPass, impl::PrecFuseAttentionBase> {
public:
  using PlanPass::PlanPass;

  LogicalResult plan(func::FuncOp function) {
    SmallVector<tosa::MatMulOp> matmuls;
    function.walk([&](tosa::MatMulOp matmul) { matmuls.push_back(matmul); });
    AttentionMatcher matcher;
    std::vector<AttentionMatch> matches;
    llvm::DenseSet<Operation *> fused;
    for (tosa::MatMulOp matmul : matmuls) {
      if (fused.contains(matmul))
        continue;
      if (std::optional<AttentionMatch> match = matcher.match(matmul)) {
        fused.insert(match->ops.begin(), match->ops.end());
        matches.push_back(std::move(*match));
      }
    }
    for (AttentionMatch &match : matches)
      replace(match);
    return success();
  }
};

} // namespace

} // namespace prec
