//===- Materialize.cpp - rewrite ops to their types, insert the casts -----===//

#include "passes/Passes.h"

#include "dialects/Utils/Constants.h"
#include "dialects/Utils/OpNames.h"
#include "passes/DissolveRegions.h"
#include "passes/LayerPatterns.h"
#include "dialects/Precision/PrecisionOpInterface.h"

#include "dialects/Precision/PrecisionOps.h"
#include "dialects/Precision/PrecisionTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

#include <cstring>

namespace prec {
#define GEN_PASS_DEF_PRECMATERIALIZE
#include "passes/Passes.h.inc"
} // namespace prec

using namespace mlir;
using namespace prec;
using namespace prec::precision;

namespace {

bool isFloatTensor(Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  return tensorType && isa<FloatType>(tensorType.getElementType());
}

/// `value` rounded to nearest even in `type`.
APFloat roundTo(APFloat value, FloatType type) {
  bool losesInfo = false;
  value.convert(type.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value;
}

/// Converts a resource blob of f32/f16/bf16 values to a blob of
/// `elementType`, element by element.
Attribute convertResource(DenseResourceElementsAttr resource,
                          FloatType elementType) {
  if (elementType.getWidth() % 8)
    return Attribute();
  unsigned targetBytes = elementType.getWidth() / 8;
  std::vector<char> converted(resource.getNumElements() * targetBytes);
  bool read = forEachFloat(resource, [&](int64_t i, const APFloat &value) {
    uint64_t out = roundTo(value, elementType).bitcastToAPInt().getZExtValue();
    std::memcpy(converted.data() + i * targetBytes, &out, targetBytes);
  });
  if (!read)
    return Attribute();
  return DenseResourceElementsAttr::get(
      resource.getType().clone(elementType), "weight",
      HeapAsmResourceBlob::allocateAndCopyInferAlign(
          ArrayRef<char>(converted)));
}

/// Converts a float constant's values to `elementType` (round to nearest
/// even), or returns null if `attr` is not a float constant prec can read.
/// Resource blobs (large imported weights) stay blobs.
Attribute convertConstant(Attribute attr, Type elementType) {
  auto floatType = dyn_cast<FloatType>(elementType);
  if (!floatType)
    return Attribute();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    return convertResource(resource, floatType);
  auto elements = dyn_cast<DenseFPElementsAttr>(attr);
  if (!elements)
    return Attribute();
  SmallVector<APFloat> converted;
  converted.reserve(elements.getNumElements());
  for (APFloat value : elements.getValues<APFloat>())
    converted.push_back(roundTo(value, floatType));
  return DenseElementsAttr::get(elements.getType().clone(elementType),
                                converted);
}

class Materializer {
public:
  explicit Materializer(MLIRContext *context) : builder(context) {}

  /// `value` with element type `elementType`: itself, a shared cast, the
  /// source of a lossless compiler cast, or a converted constant.
  Value convert(Value value, Type elementType) {
    auto tensorType = cast<RankedTensorType>(value.getType());
    if (tensorType.getElementType() == elementType)
      return value;
    auto key = std::make_pair(value, elementType);
    if (Value cached = converted.lookup(key))
      return cached;

    Operation *def = value.getDefiningOp();
    if (auto cast = dyn_cast_or_null<tosa::CastOp>(def);
        cast && isCompilerCast(cast)) {
      Value source = cast.getInput();
      // Undo a widening cast (lossless); never a narrowing one.
      if (getElementTypeOrSelf(source.getType()) == elementType &&
          canRepresentAllValues(tensorType.getElementType(), elementType))
        return converted[key] = source;
    }

    RankedTensorType newType = tensorType.clone(elementType);
    // Weights are converted at compile time, through any casts of them (the
    // values then round exactly as the casts would round them at run time).
    SmallVector<Type> castChain;
    Operation *source = def;
    while (source && isa<tosa::CastOp, precision::CastOp>(source)) {
      castChain.push_back(getElementTypeOrSelf(source->getResult(0)));
      source = source->getOperand(0).getDefiningOp();
    }
    // The folded constant is rebuilt as the same op, so its kind matters.
    if (source && isa<tosa::ConstOp, arith::ConstantOp>(source)) {
      Attribute values =
          isa<tosa::ConstOp>(source)
              ? Attribute(cast<tosa::ConstOp>(source).getValues())
              : cast<arith::ConstantOp>(source).getValue();
      for (Type step : llvm::reverse(castChain))
        if (values)
          values = convertConstant(values, step);
      if (Attribute folded =
              values ? convertConstant(values, elementType) : Attribute()) {
        builder.setInsertionPointAfter(def);
        Operation *constant =
            isa<tosa::ConstOp>(source)
                ? tosa::ConstOp::create(builder, source->getLoc(), newType,
                                        cast<ElementsAttr>(folded))
                      .getOperation()
                : arith::ConstantOp::create(builder, source->getLoc(),
                                            cast<TypedAttr>(folded))
                      .getOperation();
        replacedOps.insert(def);
        return converted[key] = constant->getResult(0);
      }
    }

    if (def)
      builder.setInsertionPointAfter(def);
    else
      builder.setInsertionPointToStart(cast<BlockArgument>(value).getOwner());
    auto castOp = tosa::CastOp::create(builder, value.getLoc(), newType, value);
    castOp->setAttr(PrecisionDialect::getInsertedCastAttrName(),
                    builder.getUnitAttr());
    // Binding types restored and then changed by io-types can leave a cast
    // unused: it is erased with the replaced constants.
    replacedOps.insert(castOp);
    return converted[key] = castOp.getResult();
  }

  /// Rewrites `op` to its assignment.
  LogicalResult rewrite(Operation *op, AssignmentAttr assignment) {
    Type compute = assignment.getCompute();
    Type accumulate = assignment.getAccumulate();
    Type storage = assignment.getStorage();
    // A matmul in i8 or f8 is materialized on f32 values and marked:
    // prec-quantize then scales and converts its operands.
    if (isQuantizedPrecision(compute) && isQuantizable(op)) {
      op->setAttr(PrecisionDialect::getQuantizeAttrName(),
                  TypeAttr::get(compute));
      Type f32 = Float32Type::get(op->getContext());
      compute = accumulate = f32;
      if (!isa<FloatType>(storage) || isQuantizedPrecision(storage))
        storage = f32;
    }
    for (Type type : {compute, accumulate, storage}) {
      if (!isa<FloatType>(type) || isQuantizedPrecision(type))
        return op->emitError()
               << "cannot materialize " << type << " for '" << op->getName()
               << "': i8 and f8 are implemented for matmuls and 2-D "
                  "convolutions "
                  "(quantized with scales by prec-quantize); pin other ops to "
                  "a "
                  "float type";
    }
    AccumulatorForm form = getAccumulatorForm(op);
    Type resultType = getRawResultType(form, compute, accumulate, storage);

    for (OpOperand &operand : op->getOpOperands()) {
      if (!isFloatTensor(operand.get().getType()))
        continue;
      Value value = operand.get();
      if (form == AccumulatorForm::Attribute &&
          operand.getOperandNumber() == 2) {
        operand.set(convert(value, resultType));
      } else if (form == AccumulatorForm::Operand && accumulate != compute) {
        // Values are rounded to the compute type, then summed in the
        // accumulate type.
        operand.set(convert(convert(value, compute), accumulate));
      } else {
        operand.set(convert(value, compute));
      }
    }
    rewriteTypedAttributes(op, compute, accumulate);

    for (OpResult result : op->getResults()) {
      auto tensorType = dyn_cast<RankedTensorType>(result.getType());
      if (!isFloatTensor(tensorType))
        continue;
      if (tensorType.getElementType() != resultType) {
        originalTypes.try_emplace(result, tensorType);
        result.setType(tensorType.clone(resultType));
      }
      if (resultType == storage)
        continue;
      // The conversion to the storage type belongs to the op (a GEMM
      // epilogue), not to the boundary between ops.
      builder.setInsertionPointAfter(op);
      auto epilogue = tosa::CastOp::create(builder, op->getLoc(),
                                           tensorType.clone(storage), result);
      epilogue->setAttr(PrecisionDialect::getEpilogueAttrName(),
                        builder.getUnitAttr());
      result.replaceAllUsesExcept(epilogue.getResult(), epilogue);
      originalTypes.try_emplace(epilogue.getResult(), tensorType);
    }
    return success();
  }

  /// Gives an op that has no assignment (returns, comparisons, the model's
  /// own casts) its operands in the types it was written with.
  void restoreOperandTypes(Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      auto it = originalTypes.find(operand.get());
      if (it == originalTypes.end() || operand.get().getType() == it->second)
        continue;
      operand.set(convert(operand.get(),
                          cast<RankedTensorType>(it->second).getElementType()));
    }
  }

  /// Records that `value` was written with `type` before it changed.
  void recordOriginalType(Value value, Type type) {
    originalTypes.try_emplace(value, type);
  }

  /// Erases the constants (and casts of constants) that folded copies
  /// replaced, and inserted casts, once nothing uses them.
  void eraseUnusedOps() {
    SmallVector<Operation *> worklist(replacedOps.begin(), replacedOps.end());
    llvm::DenseSet<Operation *> erased;
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (erased.contains(op) || !op->use_empty())
        continue;
      erased.insert(op);
      // What fed it goes too if it is a weight (a constant, or casts of
      // one) that nothing else reads; the model's casts of activations
      // stay.
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp(); def && isWeight(def))
          worklist.push_back(def);
      op->erase();
    }
  }

private:
  /// A constant, or a chain of casts of one.
  static bool isWeight(Operation *op) {
    while (op && isa<tosa::CastOp, precision::CastOp>(op))
      op = op->getOperand(0).getDefiningOp();
    return op && matchPattern(op, m_Constant());
  }

  static bool isCompilerCast(tosa::CastOp cast) {
    return cast->hasAttr(PrecisionDialect::getInsertedCastAttrName()) ||
           cast->hasAttr(PrecisionDialect::getEpilogueAttrName());
  }

  /// The element type the rewritten op itself produces, before any epilogue
  /// conversion to storage.
  static Type getRawResultType(AccumulatorForm form, Type compute,
                               Type accumulate, Type storage) {
    switch (form) {
    case AccumulatorForm::Result:
    case AccumulatorForm::Operand:
      return accumulate;
    case AccumulatorForm::Attribute:
      return storage == compute || storage == accumulate ? storage : accumulate;
    case AccumulatorForm::None:
      break;
    }
    return compute;
  }

  void rewriteTypedAttributes(Operation *op, Type compute, Type accumulate) {
    if (op->hasAttr("acc_type"))
      op->setAttr("acc_type", TypeAttr::get(accumulate));
    if (auto clamp = dyn_cast<tosa::ClampOp>(op)) {
      auto convertBound = [&](Attribute bound) -> Attribute {
        auto floatBound = dyn_cast<FloatAttr>(bound);
        if (!floatBound)
          return bound;
        APFloat value = floatBound.getValue();
        bool losesInfo = false;
        value.convert(cast<FloatType>(compute).getFloatSemantics(),
                      llvm::APFloat::rmNearestTiesToEven, &losesInfo);
        return FloatAttr::get(compute, value);
      };
      clamp.setMinValAttr(convertBound(clamp.getMinValAttr()));
      clamp.setMaxValAttr(convertBound(clamp.getMaxValAttr()));
    }
  }

  OpBuilder builder;
  DenseMap<std::pair<Value, Type>, Value> converted;
  DenseMap<Value, Type> originalTypes;
  llvm::SetVector<Operation *> replacedOps;
};

class MaterializePass
    : public prec::impl::PrecMaterializeBase<MaterializePass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<std::vector<LayerPattern>> bindingTypes =
        parseLayerPatterns(ioTypes, "io-types", &getContext(),
                           [&] { return emitError(module.getLoc()); });
    if (failed(bindingTypes))
      return signalPassFailure();

    recordQuantizedInputRanges(module);
    dissolveRegions(module);
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      if (failed(materialize(function, *bindingTypes)))
        return signalPassFailure();
    }
  }

private:
  /// The range of a quantized region's inputs belongs to the matmuls that
  /// read them, for prec-quantize: the region is gone by then. A matmul's B
  /// operand that is an input (attention's keys and values) has it too.
  static void recordQuantizedInputRanges(ModuleOp module) {
    module.walk([](RegionOp region) {
      if (!isQuantizedPrecision(region.getPrecision()) ||
          !region.getInputMin() || !region.getInputMax())
        return;
      double bounds[] = {region.getInputMin()->convertToDouble(),
                         region.getInputMax()->convertToDouble()};
      auto range = DenseF64ArrayAttr::get(region.getContext(), bounds);
      for (Operation &op : region.getBodyBlock()) {
        if (!isQuantizable(&op))
          continue;
        if (isa<BlockArgument>(op.getOperand(0)))
          op.setAttr(PrecisionDialect::getInputRangeAttrName(), range);
        if (isa<tosa::MatMulOp>(op) && isa<BlockArgument>(op.getOperand(1)))
          op.setAttr(PrecisionDialect::getBInputRangeAttrName(), range);
      }
    });
  }

  LogicalResult materialize(func::FuncOp function,
                            ArrayRef<LayerPattern> bindingTypes) {
    Materializer materializer(&getContext());
    changeArgumentTypes(function, bindingTypes, materializer);

    SmallVector<Operation *> ops;
    function.walk([&](Operation *op) { ops.push_back(op); });
    for (Operation *op : ops) {
      auto assignment = op->getAttrOfType<AssignmentAttr>(
          PrecisionDialect::getAssignmentAttrName());
      if (!assignment || classifyOp(op) == OpClass::Cast)
        continue;
      if (failed(materializer.rewrite(op, assignment)))
        return failure();
    }
    for (Operation *op : ops) {
      auto assignment = op->getAttrOfType<AssignmentAttr>(
          PrecisionDialect::getAssignmentAttrName());
      if (!assignment || classifyOp(op) == OpClass::Cast)
        materializer.restoreOperandTypes(op);
    }
    changeResultTypes(function, bindingTypes, materializer);
    materializer.eraseUnusedOps();
    return success();
  }

  /// The element type `io-types` asks for a binding called `name`, or null.
  static Type findBindingType(ArrayRef<LayerPattern> bindingTypes,
                              StringRef name) {
    Type found;
    for (const LayerPattern &pattern : bindingTypes)
      if (pattern.pattern.match(name))
        found = pattern.type;
    return found;
  }

  void changeArgumentTypes(func::FuncOp function,
                           ArrayRef<LayerPattern> bindingTypes,
                           Materializer &materializer) {
    if (bindingTypes.empty())
      return;
    for (BlockArgument argument : function.getArguments()) {
      Type type = findBindingType(bindingTypes, getBindingName(argument));
      auto tensorType = dyn_cast<RankedTensorType>(argument.getType());
      if (!type || !isFloatTensor(tensorType))
        continue;
      materializer.recordOriginalType(argument, tensorType);
      argument.setType(tensorType.clone(type));
    }
    function.setFunctionType(
        FunctionType::get(&getContext(), function.getBody().getArgumentTypes(),
                          function.getResultTypes()));
  }

  void changeResultTypes(func::FuncOp function,
                         ArrayRef<LayerPattern> bindingTypes,
                         Materializer &materializer) {
    if (bindingTypes.empty())
      return;
    SmallVector<Type> resultTypes(function.getResultTypes());
    for (auto [index, resultType] : llvm::enumerate(resultTypes)) {
      Type type = findBindingType(bindingTypes, getResultName(function, index));
      if (type && isFloatTensor(resultType))
        resultType = cast<RankedTensorType>(resultType).clone(type);
    }
    function.walk([&](func::ReturnOp ret) {
      for (auto [index, resultType] : llvm::enumerate(resultTypes))
        ret->setOperand(
            index, isFloatTensor(resultType)
                       ? materializer.convert(ret->getOperand(index),
                                              getElementTypeOrSelf(resultType))
                       : ret->getOperand(index));
    });
    function.setFunctionType(FunctionType::get(
        &getContext(), function.getArgumentTypes(), resultTypes));
  }
};

} // namespace
