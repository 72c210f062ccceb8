//===- MergeLayerDuplicates.cpp - what every layer repeats, computed once -===//
//
// Exporters repeat in every layer what depends on the model's inputs alone:
// each decoder layer of a LLaMA export rebuilds the same causal mask, a
// kernel per layer, and each attention then records the same mask's tiles.
// MLIR's CSE keeps those ops apart, as their names (the layer and tensor
// they come from) and the range analysis' notes differ. This pass is the
// lowering's CSE: it merges pure ops that differ in nothing else, equal ones
// included.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "lowering/ComputingAttributes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECMERGELAYERDUPLICATES
#include "lowering/Passes.h.inc"

namespace {

constexpr OperationEquivalence::Flags kStructure =
    OperationEquivalence::IgnoreLocations |
    OperationEquivalence::IgnoreDiscardableAttrs;

/// Ops equal but for their names: same op, operands, result types,
/// properties and computing attributes.
struct LayerBlindInfo : llvm::DenseMapInfo<Operation *> {
  static unsigned getHashValue(const Operation *constOp) {
    auto *op = const_cast<Operation *>(constOp);
    SmallVector<NamedAttribute> attrs = getComputingAttrs(op);
    return llvm::hash_combine(
        OperationEquivalence::computeHash(
            op, OperationEquivalence::directHashValue,
            OperationEquivalence::ignoreHashValue, kStructure),
        llvm::hash_combine_range(attrs.begin(), attrs.end()));
  }
  static bool isEqual(const Operation *constLhs, const Operation *constRhs) {
    auto *lhs = const_cast<Operation *>(constLhs);
    auto *rhs = const_cast<Operation *>(constRhs);
    if (lhs == rhs)
      return true;
    if (lhs == getEmptyKey() || lhs == getTombstoneKey() ||
        rhs == getEmptyKey() || rhs == getTombstoneKey())
      return false;
    return OperationEquivalence::isEquivalentTo(
               lhs, rhs, OperationEquivalence::exactValueMatch,
               /*markEquivalent=*/nullptr, kStructure) &&
           getComputingAttrs(lhs) == getComputingAttrs(rhs);
  }
};

class MergeLayerDuplicatesPass
    : public impl::PrecMergeLayerDuplicatesBase<MergeLayerDuplicatesPass> {
public:
  void runOnOperation() override {
    for (Block &block : getOperation().getBody()) {
      llvm::DenseSet<Operation *, LayerBlindInfo> seen;
      for (Operation &op : llvm::make_early_inc_range(block)) {
        if (op.getNumRegions() != 0 || op.getNumResults() == 0 ||
            !isMemoryEffectFree(&op))
          continue;
        auto [kept, inserted] = seen.insert(&op);
        if (inserted)
          continue;
        op.replaceAllUsesWith(*kept);
        op.erase();
      }
    }
  }
};

} // namespace

} // namespace prec
