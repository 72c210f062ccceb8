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

#include "dialects/Precision/PrecisionAttrs.h"
#include "dialects/Precision/PrecisionDialect.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECMERGELAYERDUPLICATES
#include "lowering/Passes.h.inc"

namespace {

using precision::PrecisionDialect;

/// The discardable attributes that say what an op computes: all but its
/// names and the range analysis' notes; an assignment by its types alone
/// (its reason and detail explain the types, they change nothing).
SmallVector<NamedAttribute> getComputingAttrs(Operation *op) {
  static const StringRef notes[] = {
      PrecisionDialect::getLayerAttrName(),
      PrecisionDialect::getTensorAttrName(),
      PrecisionDialect::getRangeAttrName(),
      PrecisionDialect::getLooseRangeAttrName(),
      PrecisionDialect::getObservedRangeAttrName(),
      PrecisionDialect::getRequestAttrName()};
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : op->getDiscardableAttrs()) {
    if (llvm::is_contained(notes, attr.getName().getValue()))
      continue;
    if (auto assigned = dyn_cast<precision::AssignmentAttr>(attr.getValue())) {
      Type types[] = {assigned.getCompute(), assigned.getAccumulate(),
                      assigned.getStorage()};
      SmallVector<Attribute> typeAttrs;
      for (Type type : types)
        typeAttrs.push_back(TypeAttr::get(type));
      attrs.emplace_back(attr.getName(),
                         ArrayAttr::get(op->getContext(), typeAttrs));
      continue;
    }
    attrs.push_back(attr);
  }
  return attrs;
}

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
