//===- ShareThroughSlices.cpp - elementwise ops of a slice, shared --------===//
//
// ONNX exports of strided 1x1 convolutions (ResNet's downsamples) slice
// their input so that TOSA's stride divides it, and legalization then
// quantizes that slice for the convolution, while the next block's first
// convolution quantizes the whole tensor with the same scale: the same
// arithmetic twice, the sliced copy read element by element through the
// slice. Elementwise ops commute with a slice, so a chain of them reading a
// slice of x, where the same ops already read x (before it), is a slice of
// that chain's result: this pass rewrites it so.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialects/Precision/PrecisionDialect.h"
#include "dialects/Utils/Shapes.h"
#include "lowering/ComputingAttributes.h"
#include "lowering/ElementwiseExpressionInterface.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECSHARETHROUGHSLICES
#include "lowering/Passes.h.inc"

namespace {

/// Whether `whole` computes what `sliced` does, reading `source` where
/// `sliced` reads `slice` (a slice of it) and the same values elsewhere.
bool computesAlike(Operation *sliced, Operation *whole, Value slice,
                   Value source) {
  return sliced != whole && sliced->getName() == whole->getName() &&
         sliced->getNumOperands() == whole->getNumOperands() &&
         llvm::all_of(llvm::zip(sliced->getOperands(), whole->getOperands()),
                      [&](auto pair) {
                        auto [mine, theirs] = pair;
                        return mine == slice ? theirs == source
                                             : theirs == mine;
                      }) &&
         whole->getNumResults() == 1 &&
         elementOf(whole->getResult(0)) == elementOf(sliced->getResult(0)) &&
         whole->getResult(0).getType() ==
             cast<ShapedType>(source.getType())
                 .clone(elementOf(whole->getResult(0))) &&
         sliced->getPropertiesAsAttribute() ==
             whole->getPropertiesAsAttribute() &&
         getComputingAttrs(sliced) == getComputingAttrs(whole);
}

/// The earlier op computing from `whole` what `op`, the only reader of
/// `sliced` (a slice of it), computes from `sliced`; or none.
Operation *getWholeTwin(Operation *op, Value sliced, Value whole) {
  // Of the slice's shape: an op broadcasting the slice along a sliced
  // dimension reads one slice element for many of its own.
  if (!isElementwise(op) || op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()) ||
      !isa<RankedTensorType>(sliced.getType()) ||
      shapeOf(op->getResult(0)) != shapeOf(sliced))
    return nullptr;
  for (Operation *twin : whole.getUsers())
    if (twin->getBlock() == op->getBlock() && twin->isBeforeInBlock(op) &&
        computesAlike(op, twin, sliced, whole))
      return twin;
  return nullptr;
}

unsigned getElementBits(Value value) {
  return elementOf(value).getIntOrFloatBitWidth();
}

/// Follows the chain of ops reading `slice`, each the only reader of the
/// one before, as far as each has an earlier twin reading the whole, and
/// rewrites its last op as a slice of that twin's result, where that
/// result is no wider than the source (the slice then moves no more bytes
/// than before, and a twin that only widens is not made to be stored).
void shareThroughSlice(tosa::SliceOp slice) {
  Value sliced = slice.getResult(), whole = slice.getInput1();
  SmallVector<Operation *> chain;
  while (sliced.hasOneUse()) {
    Operation *op = *sliced.user_begin();
    Operation *twin = getWholeTwin(op, sliced, whole);
    if (!twin)
      break;
    chain.push_back(op);
    sliced = op->getResult(0);
    whole = twin->getResult(0);
  }
  if (chain.empty() ||
      getElementBits(whole) > getElementBits(slice.getInput1()))
    return;
  // The slice keeps its layer, not its assignment (made for the type it
  // moved).
  OpBuilder builder(chain.back());
  auto shared =
      tosa::SliceOp::create(builder, slice.getLoc(), sliced.getType(), whole,
                            slice.getStart(), slice.getSize());
  StringRef layerAttr = precision::PrecisionDialect::getLayerAttrName();
  if (Attribute layer = slice->getAttr(layerAttr))
    shared->setAttr(layerAttr, layer);
  sliced.replaceAllUsesWith(shared.getResult());
  for (Operation *op : llvm::reverse(chain))
    op->erase();
  slice->erase();
}

class ShareThroughSlicesPass
    : public impl::PrecShareThroughSlicesBase<ShareThroughSlicesPass> {
public:
  void runOnOperation() override {
    SmallVector<tosa::SliceOp> slices;
    getOperation().walk([&](tosa::SliceOp slice) { slices.push_back(slice); });
    for (tosa::SliceOp slice : slices)
      shareThroughSlice(slice);
  }
};

} // namespace

} // namespace prec
