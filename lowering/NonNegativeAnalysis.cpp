//===- NonNegativeAnalysis.cpp - values never NaN nor below 0 -------------===//

#include "lowering/NonNegativeAnalysis.h"

#include "dialects/Engine/EngineDialect.h"
#include "dialects/Utils/Constants.h"
#include "lowering/BufferAliases.h"
#include "lowering/ElementIndexMapInterface.h"
#include "passes/ControlFlowLiveness.h"

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace prec {

namespace {

/// What the analysis knows of a value's elements: nothing yet, that each
/// is a number (not NaN) at or above 0, or not that.
class NonNegativeNumber {
public:
  NonNegativeNumber() = default;
  static NonNegativeNumber proven(bool isProven) {
    NonNegativeNumber fact;
    fact.state = isProven ? State::Proven : State::Unknown;
    return fact;
  }

  bool isUninitialized() const { return state == State::Uninitialized; }
  bool isProven() const { return state == State::Proven; }

  static NonNegativeNumber join(const NonNegativeNumber &a,
                                const NonNegativeNumber &b) {
    if (a.isUninitialized())
      return b;
    if (b.isUninitialized())
      return a;
    return proven(a.isProven() && b.isProven());
  }
  bool operator==(const NonNegativeNumber &other) const {
    return state == other.state;
  }
  void print(raw_ostream &os) const {
    os << (isUninitialized() ? "<uninitialized>"
           : isProven()      ? "non-negative number"
                             : "unknown");
  }

private:
  enum class State { Uninitialized, Proven, Unknown };
  State state = State::Uninitialized;
};

class NonNegativeLattice : public dataflow::Lattice<NonNegativeNumber> {
public:
  using Lattice::Lattice;
};

/// Whether every element of the float constant `value` is a number at or
/// above 0, and, where `positive`, above 0 and finite (a scale that keeps
/// +inf at +inf, where 0 would make it NaN).
bool isNonNegativeConstant(Value value, bool positive = false) {
  ElementsAttr elements;
  if (!matchPattern(value, m_Constant(&elements)))
    return false;
  bool all = true;
  return forEachFloat(elements,
                      [&](int64_t, const APFloat &x) {
                        all &= !x.isNaN() && !x.isNegative() &&
                               (!positive || (!x.isZero() && x.isFinite()));
                      }) &&
         all;
}

/// A float type with infinities, into which a value beyond the range
/// converts to +inf (f8E4M3FN has none: what it gives is the conversion's).
bool hasInfinities(Type type) {
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  return floatType && APFloat::semanticsHasInf(floatType.getFloatSemantics());
}

/// A clamp's bound, where it is a float (an integer clamp has no NaN).
std::optional<APFloat> getFloatBound(Attribute bound) {
  if (auto value = dyn_cast<FloatAttr>(bound))
    return value.getValue();
  return std::nullopt;
}

/// Whether `clamp`'s result is never NaN whatever its input: the engine
/// computes it against a lower bound it keeps (a mark left by an earlier
/// plan, whose bound the kernel would leave out, is not trusted).
bool dropsNaN(tosa::ClampOp clamp) {
  return isEngineClamp(clamp) && !engine::EngineDialect::get(clamp.getContext())
                                      .getMetLowerBoundAttrHelper()
                                      .isAttrPresent(clamp);
}

/// A clamp's result is one where its upper bound is at or above 0 and its
/// input is one, or it drops NaN against a lower bound at or above 0.
bool isClampProven(tosa::ClampOp clamp,
                   llvm::function_ref<bool(Value)> proven) {
  std::optional<APFloat> lower = getFloatBound(clamp.getMinValAttr());
  std::optional<APFloat> upper = getFloatBound(clamp.getMaxValAttr());
  if (!lower || !upper || upper->isNaN() || upper->isNegative())
    return false;
  return proven(clamp.getInput()) ||
         (!lower->isNaN() && !lower->isNegative() && dropsNaN(clamp));
}

/// Whether `op`'s result is a non-negative number, given which of its
/// operands are (`proven`).
bool isResultProven(Operation *op, llvm::function_ref<bool(Value)> proven) {
  return llvm::TypeSwitch<Operation *, bool>(op)
      .Case([&](tosa::ConstOp constant) {
        return isNonNegativeConstant(constant.getResult());
      })
      .Case([&](tosa::ClampOp clamp) { return isClampProven(clamp, proven); })
      .Case([&](tosa::CastOp cast) {
        return isa<FloatType>(getElementTypeOrSelf(cast.getInput())) &&
               proven(cast.getInput());
      })
      .Case([&](tosa::MulOp mul) {
        Value a = mul.getInput1(), b = mul.getInput2();
        return (proven(a) && isNonNegativeConstant(b, /*positive=*/true)) ||
               (proven(b) && isNonNegativeConstant(a, /*positive=*/true));
      })
      .Case([&](tosa::AddOp add) {
        return proven(add.getInput1()) && proven(add.getInput2());
      })
      .Case([&](tosa::MaxPool2dOp pool) { return proven(pool.getInput()); })
      .Case([&](tosa::PadOp pad) {
        return proven(pad.getInput1()) && proven(pad.getPadConst());
      })
      .Default([&](Operation *) {
        // Reshapes, identities and the ops that only move elements.
        auto map = dyn_cast<ElementIndexMapOpInterface>(op);
        SmallVector<Value> sources =
            map ? map.getElementSources() : SmallVector<Value>();
        return (isBufferAlias(op) && proven(op->getOperand(0))) ||
               (!sources.empty() && llvm::all_of(sources, proven));
      });
}

class NonNegativeDataFlow
    : public dataflow::SparseForwardDataFlowAnalysis<NonNegativeLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  LogicalResult
  visitOperation(Operation *op, ArrayRef<const NonNegativeLattice *> operands,
                 ArrayRef<NonNegativeLattice *> results) override {
    // Only one float tensor whose type has infinities can be one: in
    // another (f8E4M3FN), a large enough value may become NaN.
    if (results.size() != 1 || !hasInfinities(op->getResult(0).getType())) {
      for (NonNegativeLattice *result : results)
        propagateIfChanged(result,
                           result->join(NonNegativeNumber::proven(false)));
      return success();
    }
    // Wait for every operand: the solver visits the op again when one is
    // reached.
    if (llvm::any_of(operands, [](const NonNegativeLattice *operand) {
          return operand->getValue().isUninitialized();
        }))
      return success();
    auto proven = [&](Value value) {
      for (auto [operand, lattice] : llvm::zip(op->getOperands(), operands))
        if (operand == value)
          return lattice->getValue().isProven();
      return false;
    };
    propagateIfChanged(results[0], results[0]->join(NonNegativeNumber::proven(
                                       isResultProven(op, proven))));
    return success();
  }

  void setToEntryState(NonNegativeLattice *lattice) override {
    propagateIfChanged(lattice,
                       lattice->join(NonNegativeNumber::proven(false)));
  }
};

} // namespace

bool isEngineClamp(tosa::ClampOp clamp) {
  engine::KernelAttr kernel = engine::EngineDialect::get(clamp.getContext())
                                  .getKernelAttrHelper()
                                  .getAttr(clamp);
  return kernel && kernel.getKind() != engine::KernelKind::Contraction;
}

FailureOr<NonNegativeAnalysis> NonNegativeAnalysis::run(func::FuncOp function) {
  NonNegativeAnalysis analysis;
  analysis.solver = std::make_unique<DataFlowSolver>();
  loadControlFlowLiveness(*analysis.solver);
  analysis.solver->load<NonNegativeDataFlow>();
  if (failed(analysis.solver->initializeAndRun(function)))
    return function.emitError("the analysis of non-negative values failed");
  return analysis;
}

bool NonNegativeAnalysis::isNonNegativeNumber(Value value) const {
  const auto *lattice = solver->lookupState<NonNegativeLattice>(value);
  return lattice && lattice->getValue().isProven();
}

} // namespace prec
