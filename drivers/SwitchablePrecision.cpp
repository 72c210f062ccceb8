//===- SwitchablePrecision.cpp - compile once, choose precisions per run --===//

#include "drivers/SwitchablePrecision.h"

#include "drivers/PrecRun.h"

#include "dialects/Precision/PrecisionOpInterface.h"
#include "dialects/Precision/PrecisionOps.h"
#include "dialects/Precision/PrecisionTypes.h"
#include "dialects/Utils/OpNames.h"
#include "lowering/FuseBias.h"
#include "lowering/Pipelines.h"
#include "support/Errors.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"

#include <cstring>
#include <numeric>

using namespace mlir;

namespace prec {
namespace {

using UnitOps = std::vector<std::vector<Operation *>>;

UnitOps collectUnitOps(func::FuncOp function,
                       const std::function<bool(Operation *)> &isSearched,
                       const llvm::StringMap<int> &unitOf, int units) {
  UnitOps ops(units);
  function.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isSearched(op))
      return;
    auto it = unitOf.find(getLayerName(op));
    if (it != unitOf.end())
      ops[it->second].push_back(op);
  });
  return ops;
}

/// The element type `result` is stored in: its epilogue cast's, if any.
Type getStoredType(Value result) {
  if (result.hasOneUse())
    if (auto cast = dyn_cast<tosa::CastOp>(*result.getUsers().begin());
        cast && cast->hasAttr("precision.epilogue"))
      return getElementTypeOrSelf(cast.getType());
  return getElementTypeOrSelf(result.getType());
}

Value cloneConstantChain(Value value, OpBuilder &builder);

/// `op` cloned at the builder's insertion point, reading what `mapping`
/// gives and, for its other operands, clones of their constant chains; null
/// where one has none.
Value cloneReadingConstants(Operation *op, IRMapping &mapping,
                            OpBuilder &builder) {
  for (Value operand : op->getOperands()) {
    if (mapping.contains(operand))
      continue;
    Value cloned = cloneConstantChain(operand, builder);
    if (!cloned)
      return Value();
    mapping.map(operand, cloned);
  }
  return builder.clone(*op, mapping)->getResult(0);
}

/// `value` cloned before the builder's insertion point when constants and
/// casts and reshapes of them compute it (the low legalization's weights,
/// rounded or quantized at compile time, a bias reshaped); null otherwise.
Value cloneConstantChain(Value value, OpBuilder &builder) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return Value();
  if (matchPattern(op, m_Constant()))
    return builder.clone(*op)->getResult(0);
  if (!isa<tosa::CastOp, tosa::ReshapeOp>(op))
    return Value();
  IRMapping mapping;
  return cloneReadingConstants(op, mapping, builder);
}

/// Whether prec-quantize built `op` for the contraction `low`: the
/// quantization of its inputs or the dequantization of its result, named
/// after its layer at its location (passes/Quantize.cpp), which the layer's
/// other ops may share.
bool isBuiltFor(Operation *op, Operation *low) {
  if (!op || classifyOp(low) != OpClass::Contraction)
    return false;
  auto name = dyn_cast<NameLoc>(op->getLoc());
  return name && name.getChildLoc() == low->getLoc();
}

/// Clones `op` after the builder's insertion point with `data` in place of
/// its operand `from`, and constant chains (scales, biases) for the others.
Value cloneWithData(Operation *op, Value from, Value data, OpBuilder &builder) {
  IRMapping mapping;
  mapping.map(from, data);
  return cloneReadingConstants(op, mapping, builder);
}

/// Whether `narrow` is a float type that `wide` holds every value of.
bool isNarrower(Type narrow, Type wide) {
  return narrow != wide && isa<FloatType>(narrow) && isa<FloatType>(wide) &&
         precision::canRepresentAllValues(wide, narrow);
}

/// `highOperand` as a plan running `low` low feeds it: rounded to the low
/// op's compute type where that is narrower (an f16 reduction whose TOSA
/// form reads its f32 accumulator type still reads f16 values), then
/// converted to `lowOperand`'s type; only converted without `low`. Null
/// where shapes differ.
Value convertForTwin(Operation *low, Value lowOperand, Value highOperand,
                     OpBuilder &builder, Location loc) {
  auto lowType = dyn_cast<RankedTensorType>(lowOperand.getType());
  auto highType = dyn_cast<RankedTensorType>(highOperand.getType());
  if (!lowType || !highType)
    return lowOperand.getType() == highOperand.getType() ? highOperand
                                                         : Value();
  if (lowType.getShape() != highType.getShape())
    return Value();
  Value value = highOperand;
  auto assignment =
      low ? low->getAttrOfType<precision::AssignmentAttr>(
                precision::PrecisionDialect::getAssignmentAttrName())
          : nullptr;
  if (assignment &&
      isNarrower(assignment.getCompute(), highType.getElementType()))
    value = tosa::CastOp::create(
        builder, loc, highType.clone(assignment.getCompute()), value);
  if (value.getType() != lowType)
    value = tosa::CastOp::create(builder, loc, lowType, value);
  return value;
}

/// The contraction prec-quantize built `low`'s operand `lowOperand` for:
/// `low`, or another that reads it, since contractions that read one
/// activation share its quantization (prec-merge-layer-duplicates), named
/// after one of them.
Operation *getQuantizationOwner(Operation *low, Value lowOperand) {
  Operation *quantization = lowOperand.getDefiningOp();
  if (isBuiltFor(quantization, low))
    return low;
  auto reader = llvm::find_if(lowOperand.getUsers(), [&](Operation *user) {
    return isBuiltFor(quantization, user);
  });
  return reader == lowOperand.getUsers().end() ? low : *reader;
}

/// `highOperand` as a plan running `low` low feeds it in `lowOperand`'s
/// place: through the ops prec-quantize built for `low` (scale, clamp,
/// convert), cloned, where an i8 or f8 low precision quantizes it, else
/// converted (convertForTwin). Null where it cannot.
Value quantizeForTwin(Operation *low, Value lowOperand, Value highOperand,
                      OpBuilder &builder, Location loc) {
  Operation *owner = getQuantizationOwner(low, lowOperand);
  SmallVector<std::pair<Operation *, Value>> chain; // op, the data it reads
  Value input = lowOperand;
  while (isBuiltFor(input.getDefiningOp(), owner)) {
    Operation *op = input.getDefiningOp();
    auto data = llvm::find_if(op->getOperands(), [](Value operand) {
      return !matchPattern(operand, m_Constant());
    });
    if (data == op->operand_end())
      return Value();
    chain.push_back({op, *data});
    input = *data;
  }
  // Quantization scales the wide value itself.
  Value value = convertForTwin(chain.empty() ? low : nullptr, input,
                               highOperand, builder, loc);
  for (auto [op, data] : llvm::reverse(chain))
    if (value)
      value = cloneWithData(op, data, value, builder);
  return value;
}

/// The twin's `twinResult` (of `low`'s `lowResult`) carried through the ops
/// prec-quantize built after `low` (convert, scale, bias), cloned: the
/// value that stands for the high op's result, with the last low value it
/// clones (whose epilogue cast, if any, stores it). Null where it cannot.
std::pair<Value, Value> dequantizeForTwin(Operation *low, Value lowResult,
                                          Value twinResult,
                                          OpBuilder &builder) {
  Value lowValue = lowResult, value = twinResult;
  while (value && lowValue.hasOneUse() &&
         isBuiltFor(*lowValue.getUsers().begin(), low)) {
    Operation *user = *lowValue.getUsers().begin();
    value = cloneWithData(user, lowValue, value, builder);
    lowValue = user->getResult(0);
  }
  return {lowValue, value};
}

/// Builds the switches into the all-high function.
class Switcher {
public:
  Switcher(func::FuncOp function, Value mask)
      : builder(function.getContext()), mask(mask) {}

  /// Whether `unit` runs low, as a tensor<1xi1>.
  Value lowBit(int unit, Location loc) {
    auto [it, inserted] = bits.try_emplace(unit, Value());
    if (!inserted)
      return it->second;
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointAfterValue(mask);
    auto type = RankedTensorType::get({1}, builder.getI1Type());
    ImplicitLocOpBuilder b(loc, builder);
    it->second =
        tosa::SliceOp::create(b, type, mask, tosa::getTosaConstShape(b, {unit}),
                              tosa::getTosaConstShape(b, {1}));
    return it->second;
  }

  /// `lowValue` (converted to `value`'s type) where `bit` is set, `value`
  /// otherwise; `readers`, when given, receives the new op that reads
  /// `value`.
  Value choose(Value value, Value lowValue, Value bit, Location loc,
               SmallPtrSetImpl<Operation *> *readers = nullptr) {
    auto type = cast<RankedTensorType>(value.getType());
    ImplicitLocOpBuilder b(loc, builder);
    if (lowValue.getType() != type)
      lowValue = tosa::CastOp::create(b, type, lowValue);
    SmallVector<int64_t> ones(type.getRank(), 1);
    Value predicate =
        tosa::ReshapeOp::create(b, RankedTensorType::get(ones, b.getI1Type()),
                                bit, tosa::getTosaConstShape(b, ones));
    auto select = tosa::SelectOp::create(b, type, predicate, lowValue, value);
    if (readers)
      readers->insert(select);
    return select;
  }

  OpBuilder builder;

private:
  Value mask;
  llvm::DenseMap<int, Value> bits;
};

/// A searched op of the all-high function: its unit and its twin in the
/// all-low legalization. A bias that twin adds in another unit's
/// accumulator (prec-fuse-bias) is added so only while that unit runs low
/// too: `unfused` is the op legalized low beside that unit run high.
struct Twin {
  int unit = -1;
  Operation *low = nullptr;
  int accumulatorUnit = -1;
  Operation *unfused = nullptr;
  /// For a matmul in whose accumulator another unit's bias is added at the
  /// low precision: that unit, and the type the product is stored in while
  /// that unit runs high (the twin returns the accumulator).
  int biasUnit = -1;
  Type productStorage;
};
using Twins = llvm::DenseMap<Operation *, Twin>;
/// Each result of a searched high op: what the run uses in its place, and
/// its low twin's value rounded to its low storage type.
using Choices = llvm::DenseMap<Value, std::pair<Value, Value>>;

/// A result of a low twin: as computed, and rounded to the low op's
/// storage type (the same value where it stores what it computes).
struct TwinResult {
  Value computed, rounded;
};

/// A clone of `low` beside `high` (an op of the all-high function), fed
/// `wide` (values in `high`'s operand places) as a plan running it low
/// feeds them: each converted to the low op's operand type, or the low
/// legalization's own weights.
llvm::Expected<SmallVector<TwinResult>> cloneLowTwin(Operation *low,
                                                     Operation *high,
                                                     ValueRange wide,
                                                     OpBuilder &builder) {
  Location loc = high->getLoc();
  builder.setInsertionPoint(high);
  IRMapping mapping;
  for (auto [lowOperand, wideOperand] : llvm::zip(low->getOperands(), wide)) {
    Value operand = cloneConstantChain(lowOperand, builder);
    if (!operand)
      operand = quantizeForTwin(low, lowOperand, wideOperand, builder, loc);
    if (!operand) {
      std::string where;
      llvm::raw_string_ostream(where) << loc;
      return makeError("cannot feed the low twin of '" +
                       high->getName().getStringRef() + "' at " + where);
    }
    mapping.map(lowOperand, operand);
  }
  Operation *twin = builder.clone(*low, mapping);
  builder.setInsertionPointAfter(twin);
  SmallVector<TwinResult> results;
  for (auto [lowResult, twinResult] :
       llvm::zip(low->getResults(), twin->getResults())) {
    auto [lastLow, computed] =
        dequantizeForTwin(low, lowResult, twinResult, builder);
    if (!computed)
      return makeError("cannot dequantize the low twin of '" +
                       high->getName().getStringRef() + "'");
    Type storedType = getStoredType(lastLow);
    TwinResult result{computed, computed};
    if (storedType != getElementTypeOrSelf(computed.getType()))
      result.rounded = tosa::CastOp::create(
          builder, loc,
          cast<RankedTensorType>(computed.getType()).clone(storedType),
          computed);
    results.push_back(result);
  }
  return results;
}

/// For the product of a matmul in whose accumulator another unit's bias
/// is added at the low precision (the twin returns the accumulator): makes
/// `result.rounded` the product as stored while that unit runs high.
void roundFusedProduct(const Twin &twin, TwinResult &result, OpBuilder &builder,
                       Location loc) {
  if (twin.biasUnit < 0)
    return;
  auto type = cast<RankedTensorType>(result.computed.getType());
  result.rounded = tosa::CastOp::create(
      builder, loc, type.clone(twin.productStorage), result.computed);
}

/// A twin's result as the run stores it: rounded, except for the product
/// of a matmul whose bias unit runs low too and adds in its accumulator
/// (for which `result.rounded` becomes the product's rounding).
Value storeInRun(const Twin &twin, TwinResult &result, Switcher &switcher,
                 Location loc) {
  if (twin.biasUnit < 0)
    return result.rounded;
  roundFusedProduct(twin, result, switcher.builder, loc);
  auto type = cast<RankedTensorType>(result.computed.getType());
  Value widened =
      tosa::CastOp::create(switcher.builder, loc, type, result.rounded);
  return switcher.choose(widened, result.computed,
                         switcher.lowBit(twin.biasUnit, loc), loc);
}

/// Beside `high`, its low twin; where the unit runs low, the twin's
/// results, widened back, replace `high`'s (recorded in `choices`, with
/// the twin's rounded results).
llvm::Error addLowTwin(Operation *high, const Twin &twin, Switcher &switcher,
                       const Twins &twins, Choices &choices) {
  Location loc = high->getLoc();
  auto storedTwin = [&](Operation *low)
      -> llvm::Expected<SmallVector<std::pair<Value, Value>>> {
    llvm::Expected<SmallVector<TwinResult>> results =
        cloneLowTwin(low, high, high->getOperands(), switcher.builder);
    if (!results)
      return results.takeError();
    SmallVector<std::pair<Value, Value>> stored;
    for (TwinResult &result : *results) {
      Value inRun = low == twin.low ? storeInRun(twin, result, switcher, loc)
                                    : result.rounded;
      stored.push_back({inRun, result.rounded});
    }
    return stored;
  };
  llvm::Expected<SmallVector<std::pair<Value, Value>>> lowResults =
      storedTwin(twin.low);
  if (!lowResults)
    return lowResults.takeError();
  if (twin.unfused) {
    llvm::Expected<SmallVector<std::pair<Value, Value>>> unfusedResults =
        storedTwin(twin.unfused);
    if (!unfusedResults)
      return unfusedResults.takeError();
    Value fused = switcher.lowBit(twin.accumulatorUnit, loc);
    for (auto [result, unfused] : llvm::zip(*lowResults, *unfusedResults)) {
      result.first = switcher.choose(unfused.first, result.first, fused, loc);
      result.second =
          switcher.choose(unfused.second, result.second, fused, loc);
    }
  }
  Value bit = switcher.lowBit(twin.unit, loc);
  switcher.builder.setInsertionPointAfter(high);
  for (auto [highResult, result] : llvm::zip(high->getResults(), *lowResults)) {
    SmallPtrSet<Operation *, 2> readers;
    Value chosen =
        switcher.choose(highResult, result.first, bit, loc, &readers);
    highResult.replaceAllUsesExcept(chosen, readers);
    choices[highResult] = {chosen, result.second};
  }
  return llvm::Error::success();
}

/// The values a unit's ops return in a run, by unit, with their low
/// values when the whole unit runs low on exact inputs.
using UnitLowValues = llvm::DenseMap<Value, std::pair<int, Value>>;

/// For probes: makes `choices` hold `high`'s low value when its whole unit
/// runs low, reading the unit's own ops' low values (another clone of the
/// twin where it reads any), as a layer of several ops is measured.
llvm::Error lowerWithinUnit(Operation *high, const Twin &twin,
                            OpBuilder &builder, Choices &choices,
                            UnitLowValues &unitLow) {
  SmallVector<Value> wide(high->getOperands());
  bool readsUnit = false;
  for (Value &operand : wide)
    if (auto it = unitLow.find(operand);
        it != unitLow.end() && it->second.first == twin.unit) {
      operand = it->second.second;
      readsUnit = true;
    }
  if (readsUnit) {
    llvm::Expected<SmallVector<TwinResult>> results =
        cloneLowTwin(twin.low, high, wide, builder);
    if (!results)
      return results.takeError();
    for (auto [highResult, result] : llvm::zip(high->getResults(), *results)) {
      // Measured as stored, as the first clone's probe is (storeInRun).
      roundFusedProduct(twin, result, builder, high->getLoc());
      choices[highResult].second = result.rounded;
    }
  }
  for (Value highResult : high->getResults()) {
    auto [chosen, low] = choices.lookup(highResult);
    unitLow[chosen] = {twin.unit, low};
  }
  return llvm::Error::success();
}

/// `ops` by name, as "[tosa.reshape, tosa.matmul]".
std::string describeOps(ArrayRef<Operation *> ops) {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(ops, os, [&](Operation *op) { os << op->getName(); });
  os << "]";
  return text;
}

/// Each unit's ops at the low precision pair with its ops at the high.
llvm::Error checkPairs(const UnitOps &lowOps, const UnitOps &highOps) {
  for (auto [unit, pair] : llvm::enumerate(llvm::zip(lowOps, highOps))) {
    const auto &[low, high] = pair;
    bool same = low.size() == high.size() &&
                llvm::all_of(llvm::zip(low, high), [](auto ops) {
                  auto [l, h] = ops;
                  return l->getName() == h->getName() &&
                         l->getNumOperands() == h->getNumOperands() &&
                         l->getNumResults() == h->getNumResults();
                });
    if (!same)
      return makeError(
          "layer '" + getLayerName((low.empty() ? high : low).front()) +
          "' has ops " + describeOps(low) + " at the low precision and " +
          describeOps(high) + " at the high");
  }
  return llvm::Error::success();
}

constexpr size_t kProbesPerResult = 32;

/// `value` flattened, in f32 (exact from the low precisions).
Value flattenToF32(Value value, OpBuilder &builder) {
  auto type = cast<RankedTensorType>(value.getType());
  ImplicitLocOpBuilder b(value.getLoc(), builder);
  int64_t count = type.getNumElements();
  Value flat = tosa::ReshapeOp::create(b, type.clone({count}), value,
                                       tosa::getTosaConstShape(b, {count}));
  auto f32 = RankedTensorType::get({count}, b.getF32Type());
  return type.getElementType().isF32() ? flat
                                       : tosa::CastOp::create(b, f32, flat);
}

/// Appends to `function`'s results f32 vectors that hold, for each unit
/// with ops, its output (its last op's first float result) as chosen, then
/// all their low values, flattened. Packed, not two results per unit: LLVM
/// takes minutes over a signature of thousands of buffers. Returns those
/// units and their outputs' shapes.
std::vector<int> returnProbes(func::FuncOp function, const UnitOps &highOps,
                              const Choices &choices,
                              std::vector<std::vector<int64_t>> &shapes) {
  std::vector<int> probed;
  SmallVector<Value> chosen, low;
  OpBuilder builder(function.getBody().back().getTerminator());
  for (auto [unit, ops] : llvm::enumerate(highOps)) {
    if (ops.empty())
      continue;
    Value output = getLayerOutput(ops.back());
    auto [chosenValue, lowValue] = choices.lookup(output);
    probed.push_back(unit);
    llvm::ArrayRef<int64_t> shape =
        cast<RankedTensorType>(output.getType()).getShape();
    shapes.emplace_back(shape.begin(), shape.end());
    chosen.push_back(flattenToF32(chosenValue, builder));
    low.push_back(flattenToF32(lowValue, builder));
  }
  if (probed.empty())
    return probed;
  chosen.append(low);
  // Packed a chunk at a time: one-shot bufferization's analysis is
  // quadratic in the length of a concatenation.
  SmallVector<Value> packed;
  for (size_t begin = 0; begin < chosen.size(); begin += kProbesPerResult) {
    auto chunk = ArrayRef<Value>(chosen).slice(
        begin, std::min(kProbesPerResult, chosen.size() - begin));
    int64_t total = 0;
    for (Value value : chunk)
      total += cast<RankedTensorType>(value.getType()).getNumElements();
    packed.push_back(tosa::ConcatOp::create(
        builder, function.getLoc(),
        RankedTensorType::get({total}, builder.getF32Type()), chunk, 0));
  }
  appendFunctionResults(function, packed);
  return probed;
}

/// The model legalized with the `high` units in f32 and the others low,
/// then rewritten as the CPU pipeline starts (the bias added in the
/// accumulator, ...), so that each op is paired with what it computes.
llvm::Expected<OwningOpRef<ModuleOp>>
lowered(const SwitchableProgram::Legalize &legalize, ArrayRef<int> high) {
  llvm::Expected<OwningOpRef<ModuleOp>> module = legalize(high);
  if (!module)
    return module.takeError();
  PassManager pm((**module).getContext());
  buildLowerToGpuPipeline(pm);
  if (failed(pm.run(**module)))
    return makeError("cannot lower the legalized model");
  return module;
}

/// A bias the all-low legalization adds in another unit's accumulator:
/// the unit's `index`th op, and that unit's `accumulatorIndex`th op.
struct FusedBias {
  int unit;
  size_t index;
  int accumulatorUnit;
  size_t accumulatorIndex;
};

llvm::SmallVector<FusedBias> findFusedBiases(const UnitOps &lowOps) {
  llvm::DenseMap<Operation *, std::pair<int, size_t>> placeOfOp;
  for (auto [unit, ops] : llvm::enumerate(lowOps))
    for (auto [index, op] : llvm::enumerate(ops))
      placeOfOp[op] = {unit, index};
  llvm::SmallVector<FusedBias> biases;
  for (auto [unit, ops] : llvm::enumerate(lowOps))
    for (auto [index, op] : llvm::enumerate(ops)) {
      auto add = dyn_cast<tosa::AddOp>(op);
      tosa::MatMulOp matmul = add ? getAccumulatingMatmul(add) : nullptr;
      auto accumulator = placeOfOp.find(matmul);
      if (matmul && accumulator != placeOfOp.end() &&
          accumulator->second.first != static_cast<int>(unit))
        biases.push_back({static_cast<int>(unit), index,
                          accumulator->second.first,
                          accumulator->second.second});
    }
  return biases;
}

std::vector<int> getAccumulatorUnits(ArrayRef<FusedBias> biases) {
  std::vector<int> units;
  for (const FusedBias &bias : biases)
    units.push_back(bias.accumulatorUnit);
  llvm::sort(units);
  units.erase(std::unique(units.begin(), units.end()), units.end());
  return units;
}

/// Gives each fused bias's twin the add as legalized low beside its
/// accumulator unit run high (`unfusedOps`, with `accumulators` high), and
/// its matmul's twin the bias's unit.
llvm::Error addUnfusedTwins(ArrayRef<FusedBias> biases,
                            ArrayRef<int> accumulators,
                            const UnitOps &unfusedOps, const UnitOps &highOps,
                            Twins &twins) {
  if (llvm::Error error = checkPairs(unfusedOps, highOps))
    return error;
  for (const FusedBias &bias : biases) {
    Operation *add = highOps[bias.unit][bias.index];
    if (llvm::binary_search(accumulators, bias.unit))
      return makeError("layer '" + getLayerName(add) +
                       "' both adds a bias in another layer's accumulator "
                       "and accumulates one");
    Twin &twin = twins[add];
    twin.accumulatorUnit = bias.accumulatorUnit;
    twin.unfused = unfusedOps[bias.unit][bias.index];
    Twin &product = twins[highOps[bias.accumulatorUnit][bias.accumulatorIndex]];
    product.biasUnit = bias.unit;
    product.productStorage = getStoredType(twin.low->getResult(0));
  }
  return llvm::Error::success();
}

} // namespace

Value getLayerOutput(Operation *last) {
  return *llvm::find_if(last->getResults(), [](Value value) {
    return isa<FloatType>(getElementTypeOrSelf(value.getType()));
  });
}

llvm::Expected<std::unique_ptr<SwitchableProgram>>
SwitchableProgram::create(const Legalize &legalize,
                          llvm::StringRef functionName,
                          const std::function<bool(Operation *)> &isSearched,
                          const llvm::StringMap<int> &unitOf, int units,
                          bool probes, const Compile &compile) {
  auto collect = [&](ModuleOp module) {
    return collectUnitOps(module.lookupSymbol<func::FuncOp>(functionName),
                          isSearched, unitOf, units);
  };
  std::vector<int> all(units);
  std::iota(all.begin(), all.end(), 0);
  llvm::Expected<OwningOpRef<ModuleOp>> low = lowered(legalize, {});
  if (!low)
    return low.takeError();
  llvm::Expected<OwningOpRef<ModuleOp>> high = lowered(legalize, all);
  if (!high)
    return high.takeError();
  auto highFunction = (*high)->lookupSymbol<func::FuncOp>(functionName);
  UnitOps lowOps = collect(**low);
  UnitOps highOps = collect(**high);
  if (llvm::Error error = checkPairs(lowOps, highOps))
    return std::move(error);

  // Each searched op of the high function: its unit and its low twin.
  Twins twins;
  for (int unit = 0; unit < units; ++unit)
    for (auto [l, h] : llvm::zip(lowOps[unit], highOps[unit]))
      twins[h] = {unit, l};
  llvm::SmallVector<FusedBias> fusedBiases = findFusedBiases(lowOps);
  OwningOpRef<ModuleOp> unfused;
  if (!fusedBiases.empty()) {
    std::vector<int> accumulators = getAccumulatorUnits(fusedBiases);
    llvm::Expected<OwningOpRef<ModuleOp>> module =
        lowered(legalize, accumulators);
    if (!module)
      return module.takeError();
    unfused = std::move(*module);
    if (llvm::Error error = addUnfusedTwins(fusedBiases, accumulators,
                                            collect(*unfused), highOps, twins))
      return std::move(error);
  }

  Location loc = highFunction.getLoc();
  auto maskType = RankedTensorType::get(
      {units}, IntegerType::get((*high)->getContext(), 1));
  if (failed(highFunction.insertArgument(highFunction.getNumArguments(),
                                         maskType, {}, loc)))
    return makeError("cannot add the precision mask argument");
  Value mask = highFunction.getArguments().back();
  Switcher switcher(highFunction, mask);

  // In program order, so that each op's consumers are still the model's.
  std::vector<Operation *> order;
  highFunction.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (twins.count(op))
      order.push_back(op);
  });
  Choices choices;
  UnitLowValues unitLow;
  for (Operation *h : order) {
    if (llvm::Error error =
            addLowTwin(h, twins.lookup(h), switcher, twins, choices))
      return std::move(error);
    if (!probes)
      continue;
    if (llvm::Error error = lowerWithinUnit(h, twins.lookup(h),
                                            switcher.builder, choices, unitLow))
      return std::move(error);
  }
  std::unique_ptr<SwitchableProgram> program(new SwitchableProgram());
  program->units = units;
  program->modelOutputs = highFunction.getNumResults();
  if (probes)
    program->probedUnits =
        returnProbes(highFunction, highOps, choices, program->probeShapes);

  llvm::Expected<std::unique_ptr<ModelFunction>> compiled =
      compile(std::move(*high), functionName);
  if (!compiled)
    return compiled.takeError();
  program->compiled = std::move(*compiled);
  return program;
}

llvm::Expected<std::vector<HostTensor>>
SwitchableProgram::call(const NamedTensors &inputs,
                        llvm::ArrayRef<int> marked) {
  HostTensor mask(ElementKind::Bool, {units});
  for (int unit = 0; unit < units; ++unit)
    mask.setFromDouble(unit, 1); // low
  for (int unit : marked)
    mask.setFromDouble(unit, 0);
  std::vector<HostTensor> arguments;
  for (const auto &entry : inputs)
    arguments.push_back(entry.second);
  arguments.push_back(std::move(mask));
  return compiled->run(arguments);
}

llvm::Expected<std::vector<HostTensor>>
SwitchableProgram::run(const NamedTensors &inputs, llvm::ArrayRef<int> marked) {
  llvm::Expected<std::vector<HostTensor>> results = call(inputs, marked);
  if (!results)
    return results.takeError();
  results->resize(modelOutputs); // a search reads no probes
  return results;
}

llvm::Expected<ProbedRun>
SwitchableProgram::runProbed(const NamedTensors &inputs,
                             llvm::ArrayRef<int> marked) {
  llvm::Expected<std::vector<HostTensor>> results = call(inputs, marked);
  if (!results)
    return results.takeError();
  ProbedRun run;
  run.outputs.assign(std::make_move_iterator(results->begin()),
                     std::make_move_iterator(results->begin() + modelOutputs));
  if (probedUnits.empty())
    return run;
  // The packed probes: the units' outputs, then their low twins'.
  size_t index = 0;
  const uint8_t *next = nullptr;
  for (std::vector<HostTensor> *probes : {&run.unitOutputs, &run.lowOutputs})
    for (const std::vector<int64_t> &shape : probeShapes) {
      if (index % kProbesPerResult == 0)
        next = (*results)[modelOutputs + index / kProbesPerResult].data.data();
      HostTensor probe(ElementKind::F32, shape);
      std::memcpy(probe.data.data(), next, probe.data.size());
      next += probe.data.size();
      probes->push_back(std::move(probe));
      ++index;
    }
  return run;
}

} // namespace prec
