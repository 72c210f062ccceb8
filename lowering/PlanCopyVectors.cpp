//===- PlanCopyVectors.cpp - copy kernels that move 16 bytes a thread ----===//
//
// A copy kernel (transpose, slice, concat, tile, reverse, gather, pad)
// moving one 2-byte element a thread spends its time on index arithmetic,
// not memory:
// LLaMA-8B's 16 MB transpose of Q took 26.5 us on an H200, three times its
// bytes' time. Where the innermost dimension stays innermost and every
// extent and offset along it divides, a thread moves a vector of elements
// instead, and the kernel indexes vectors. A pooling window kernel reads
// NHWC elements a channel apart: it takes a vector of channels a thread
// where enough threads remain (ResNet-50's 3x3 max-pool at batch 64 took
// 72 us on an H200, 2.7 times its bytes' time; 39 us on vectors). A pad
// whose innermost row fits a vector (an image's 3 channels padded to 4)
// writes it whole.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialects/Utils/Shapes.h"
#include "lowering/BufferAliases.h"
#include "lowering/DeviceTypes.h"
#include "lowering/PlannableFunction.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECPLANCOPYVECTORS
#include "lowering/Passes.h.inc"

namespace {

/// A pool's thread loops over its window: with fewer threads than an H200
/// holds at once (132 SMs of 2048), wider vectors leave it latency-bound
/// (ResNet-50's global average pool at batch 64, 7x7 windows over 2048
/// channels: 11.4 us a thread an element, 14.7 us 8 elements a thread).
constexpr int64_t kPoolThreads = int64_t(1) << 18;

/// Whether each thread of `op`'s copy kernel can move `lanes` consecutive
/// elements of the innermost dimension: it stays innermost, and every
/// extent and offset along it is a multiple of `lanes`.
bool movesInnermostVectors(Operation *op, int64_t lanes) {
  auto divides = [&](int64_t extent) { return extent % lanes == 0; };
  auto innermost = [&](Value value) { return shapeOf(value).back(); };
  int64_t last = int64_t(shapeOf(op->getResult(0)).size()) - 1;
  return llvm::TypeSwitch<Operation *, bool>(op)
      .Case([&](tosa::TransposeOp transpose) {
        return transpose.getPerms().back() == last &&
               divides(innermost(transpose.getInput1()));
      })
      .Case([&](tosa::SliceOp slice) {
        SmallVector<int64_t> start;
        return tosa::getConstShapeValues(slice.getStart().getDefiningOp(),
                                         start) &&
               divides(start.back()) && divides(innermost(slice.getInput1())) &&
               divides(innermost(slice.getResult()));
      })
      .Case([&](tosa::ConcatOp concat) {
        return llvm::all_of(concat.getInput1(), [&](Value input) {
          return divides(innermost(input));
        });
      })
      .Case([&](tosa::TileOp tile) {
        return divides(innermost(tile.getInput1()));
      })
      .Case([&](tosa::ReverseOp reverse) {
        return reverse.getAxis() != last &&
               divides(innermost(reverse.getInput1()));
      })
      .Case([&](tosa::PadOp pad) {
        // A thread writes the padded innermost row whole.
        return innermost(pad.getResult()) == lanes;
      })
      .Case([&](tosa::GatherOp gather) {
        return divides(innermost(gather.getValues()));
      })
      .Case<tosa::MaxPool2dOp, tosa::AvgPool2dOp>([&](Operation *pool) {
        int64_t outputs =
            cast<ShapedType>(pool->getResult(0).getType()).getNumElements();
        return getElementTypeOrSelf(pool->getOperand(0).getType()) ==
                   getElementTypeOrSelf(pool->getResult(0).getType()) &&
               divides(innermost(pool->getOperand(0))) &&
               outputs / lanes >= kPoolThreads;
      })
      .Default([](Operation *) { return false; });
}

/// Whether every buffer `op` moves elements of is the arena's or the
/// weights' (256-byte aligned): the engine cannot promise a binding's
/// alignment. A gather's indices are read one at a time.
bool movesOnlyEngineBuffers(Operation *op,
                            const llvm::DenseMap<Value, int64_t> &inPlace) {
  auto gather = dyn_cast<tosa::GatherOp>(op);
  SmallVector<Value> moved = gather ? SmallVector<Value>{gather.getValues()}
                                    : llvm::to_vector(op->getOperands());
  return llvm::none_of(moved,
                       [](Value operand) {
                         return isa<BlockArgument>(getStorageRoot(operand));
                       }) &&
         !inPlace.contains(op->getResult(0));
}

/// Whether `op` runs as a kernel of its own.
bool isOwnKernel(Operation *op, engine::EngineDialect &dialect) {
  engine::KernelAttr kernel = dialect.getKernelAttrHelper().getAttr(op);
  return kernel && kernel.getKind() == engine::KernelKind::Single;
}

class PlanCopyVectorsPass
    : public PlanPass<PlanCopyVectorsPass, impl::PrecPlanCopyVectorsBase> {
public:
  using PlanPass::PlanPass;

  LogicalResult plan(func::FuncOp function) {
    auto &dialect = engine::EngineDialect::get(&getContext());
    llvm::DenseMap<Value, int64_t> inPlace = getResultsWrittenInPlace(function);
    auto vectorBytes = dialect.getVectorBytesAttrHelper();
    function.walk([&](Operation *op) {
      // A plan already there is replaced.
      op->removeAttr(vectorBytes.getName());
      if (!isa<tosa::TransposeOp, tosa::SliceOp, tosa::ConcatOp, tosa::TileOp,
               tosa::ReverseOp, tosa::GatherOp, tosa::MaxPool2dOp,
               tosa::AvgPool2dOp, tosa::PadOp>(op) ||
          !isOwnKernel(op, dialect) || shapeOf(op->getResult(0)).empty() ||
          !movesOnlyEngineBuffers(op, inPlace))
        return;
      std::optional<DeviceType> element =
          getDeviceType(getElementTypeOrSelf(op->getResult(0).getType()));
      if (!element)
        return;
      if (std::optional<int64_t> bytes =
              chooseVectorBytes(element->bytes, [&](int64_t lanes) {
                return movesInnermostVectors(op, lanes);
              }))
        vectorBytes.setAttr(
            op, IntegerAttr::get(IntegerType::get(&getContext(), 64), *bytes));
    });
    return success();
  }
};

} // namespace

} // namespace prec
