//===- PlanKernels.cpp - which ops each kernel of an engine computes ------===//
//
// A CUDA engine launches far fewer kernels than its function has ops: GEMMs
// and convolutions take their epilogues, row kernels take LayerNorm and
// softmax, elementwise ops fuse into their users, and so do the transposes,
// slices, concats, tiles and reverses elementwise kernels read through, and
// an implicit-GEMM convolution computes its reader's kernel in its epilogue
// (and that kernel's elementwise reader's, storing both results).
// This pass makes those groups and records each op's as #engine.kernel<index,
// kind>, then moves each group's ops next to its last op, where the emitter
// launches it: the block lists ops in the order the engine runs them.
//
//===----------------------------------------------------------------------===//

#include "lowering/Passes.h"

#include "dialects/Precision/PrecisionOpInterface.h"
#include "dialects/Utils/Constants.h"
#include "dialects/Utils/Shapes.h"
#include "lowering/BufferAliases.h"
#include "lowering/ContractionEpilogues.h"
#include "lowering/ConvolutionPlan.h"
#include "lowering/ElementIndexMapInterface.h"
#include "lowering/ElementwiseExpressionInterface.h"
#include "lowering/KernelGroups.h"
#include "lowering/PlannableFunction.h"
#include "lowering/RowGroups.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECPLANKERNELS
#include "lowering/Passes.h.inc"

namespace {

/// The bits of each element `op` computes.
unsigned getResultBits(Operation *op) {
  return getElementTypeOrSelf(op->getResult(0).getType())
      .getIntOrFloatBitWidth();
}

/// Whether an epilogue can store `kernel`'s result: it stores runs of 16
/// bytes in groups of 4 elements (its staged accumulators' planes), so
/// elements of 4 bytes at most.
bool fitsEpilogueStaging(Operation *kernel) {
  return getResultBits(kernel) <= 32;
}

/// Ops no kernel computes: constants (weights) and shapes. Reshapes and
/// identities alias their input unless a row kernel computes them.
bool launchesNothing(Operation *op) {
  return isa<tosa::ConstShapeOp, tosa::ConstOp, arith::ConstantOp,
             tosa::ReshapeOp, tosa::IdentityOp>(op) ||
         op->hasTrait<OpTrait::IsTerminator>();
}

class KernelPlanner {
public:
  explicit KernelPlanner(Block &body) : body(body) {}

  void plan() {
    planContractions();
    rowGroups = planRowGroups(
        body, /*maxWidth=*/8192, isElementwise,
        // Sums in f32 (or max): other sums round every step, in order.
        [](Operation *op) {
          return isa<tosa::ReduceMaxOp>(op) ||
                 getElementTypeOrSelf(op->getResult(0).getType()).isF32();
        },
        [&](Operation *op) { return isContractionPart(op); });
    for (const RowGroup &group : rowGroups)
      for (Operation *op : group.ops)
        rowGroupOf[op] = &group;
    planFusion();
    planSiblingOutputs();
  }

  /// Records each computing op's kernel: indices in launch order; and the
  /// ops GEMMs read through.
  void annotate(engine::EngineDialect &dialect) {
    llvm::DenseMap<Operation *, Operation *> kernelOps = getKernelOps();
    llvm::DenseMap<Operation *, int64_t> indexOf;
    for (Operation &op : body)
      if (isComputed(&op) && kernelOps.lookup(&op) == &op)
        indexOf[&op] = indexOf.size();
    auto kernelAttr = dialect.getKernelAttrHelper();
    auto readThroughAttr = dialect.getReadThroughAttrHelper();
    auto epilogueAttr = dialect.getEpilogueAttrHelper();
    auto blockThreadsAttr = dialect.getBlockThreadsAttrHelper();
    for (Operation &op : body) {
      op.removeAttr(blockThreadsAttr.getName());
      // A plan already there (the pass ran before) is replaced.
      op.removeAttr(readThroughAttr.getName());
      if (readThrough.contains(&op))
        readThroughAttr.setAttr(&op, UnitAttr::get(op.getContext()));
      op.removeAttr(epilogueAttr.getName());
      if (auto steps = epilogues.find(&op); steps != epilogues.end())
        epilogueAttr.setAttr(
            &op, engine::EpilogueAttr::get(op.getContext(), steps->second));
      if (!isComputed(&op)) {
        op.removeAttr(kernelAttr.getName());
        continue;
      }
      Operation *launch = kernelOps.lookup(&op);
      engine::KernelKind kind = getKind(launch);
      kernelAttr.setAttr(&op,
                         engine::KernelAttr::get(op.getContext(),
                                                 indexOf.lookup(launch), kind));
      if (kind == engine::KernelKind::Rows && launch == &op)
        blockThreadsAttr.setAttr(
            &op, IntegerAttr::get(
                     IntegerType::get(op.getContext(), 64),
                     getRowBlockThreads(rowGroupOf.lookup(&op)->width)));
    }
  }

  /// Moves each kernel's ops, in order, to just before its launch. Launches
  /// and ops outside kernels stay, so an op's place once all have moved is
  /// its launch's (its own outside kernels), from one numbering of the block:
  /// asking the block for the order while ops move would renumber it again
  /// and again.
  LogicalResult schedule() {
    llvm::MapVector<int64_t, KernelGroup> kernels = getKernelGroups(body);
    llvm::DenseMap<Operation *, int64_t> position;
    for (auto [index, op] : llvm::enumerate(body))
      position[&op] = index;
    llvm::DenseMap<Operation *, int64_t> scheduledPosition(position);
    for (auto &[index, kernel] : kernels)
      for (Operation *op : kernel.ops)
        scheduledPosition[op] = position[kernel.getLaunch()];
    for (auto &[index, kernel] : kernels) {
      int64_t launch = position[kernel.getLaunch()];
      for (Operation *op : ArrayRef(kernel.ops).drop_back())
        for (Operation *user : op->getUsers())
          if (user->getBlock() == &body && scheduledPosition[user] < launch)
            return user->emitError() << "reads a value of engine kernel "
                                     << index << " before the kernel runs";
    }
    for (auto &[index, kernel] : kernels)
      for (Operation *op : ArrayRef(kernel.ops).drop_back())
        op->moveBefore(kernel.getLaunch());
    return success();
  }

private:
  /// Matmul epilogues and convolution ReLUs: they are computed by the GEMM,
  /// which runs where the last op of its epilogue is (every operand of the
  /// epilogue, a bias, exists by then). The transposes, bias widenings and
  /// crops of a convolution's input that only GEMMs read need no kernel:
  /// the GEMMs read their operand.
  void planContractions() {
    auto fuse = [&](Operation *gemm, ArrayRef<Operation *> epilogueOps,
                    engine::Epilogue steps) {
      Operation *last = epilogueOps.back();
      gemmAt[last] = gemm;
      performedBy[gemm] = last;
      for (Operation *covered : epilogueOps.drop_back())
        performedBy[covered] = last;
      epilogues[gemm] = steps;
    };
    llvm::SetVector<Operation *> biasWidenings, transposesRead, cropsRead;
    for (Operation &op : body) {
      if (auto conv = dyn_cast<tosa::Conv2DOp>(op)) {
        if (Operation *relu = getReluEpilogue(conv))
          fuse(conv, {relu}, engine::Epilogue::Relu);
        if (readsUncropped(conv))
          cropsRead.insert(conv.getInput().getDefiningOp());
      }
      auto matmul = dyn_cast<tosa::MatMulOp>(op);
      if (!matmul)
        continue;
      MatmulEpilogue epilogue = getMatmulEpilogue(matmul);
      SmallVector<Operation *> epilogueOps;
      for (Operation *covered :
           {epilogue.scale, epilogue.biasAdd, epilogue.cast})
        if (covered)
          epilogueOps.push_back(covered);
      if (!epilogueOps.empty())
        fuse(matmul, epilogueOps, epilogue.getSteps());
      if (epilogue.biasWidening)
        biasWidenings.insert(epilogue.biasWidening);
      if (getTransposedB(matmul))
        transposesRead.insert(matmul.getB().getDefiningOp());
    }
    for (Operation *transpose : transposesRead)
      readOnlyByGemms(transpose, [&](Operation *user) {
        auto matmul = dyn_cast<tosa::MatMulOp>(user);
        return matmul && matmul.getB() == transpose->getResult(0);
      });
    for (Operation *widening : biasWidenings)
      readOnlyByGemms(widening, [&](Operation *user) {
        return isa<tosa::AddOp>(user) && performedBy.count(user);
      });
    for (Operation *crop : cropsRead)
      readOnlyByGemms(crop, [&](Operation *user) {
        auto conv = dyn_cast<tosa::Conv2DOp>(user);
        return conv && readsUncropped(conv);
      });
  }

  static bool runsAsImplicitGemm(tosa::Conv2DOp conv) {
    engine::ConvAlgorithmAttr algorithm =
        engine::EngineDialect::get(conv.getContext())
            .getConvAlgorithmAttrHelper()
            .getAttr(conv);
    return algorithm &&
           algorithm.getValue() == engine::ConvAlgorithm::ImplicitGemm;
  }

  /// Whether `conv`, an implicit GEMM, reads its input's uncropped source
  /// (getUncroppedInput).
  static bool readsUncropped(tosa::Conv2DOp conv) {
    return runsAsImplicitGemm(conv) && getUncroppedInput(conv);
  }

  /// A producer that only GEMMs read (as `reads` says) needs no kernel.
  void readOnlyByGemms(Operation *producer,
                       llvm::function_ref<bool(Operation *)> reads) {
    Value result = producer->getResult(0);
    if (!result.use_empty() && llvm::all_of(result.getUsers(), reads))
      readThrough.insert(producer);
  }

  bool isContractionPart(Operation *op) const {
    return performedBy.count(op) || gemmAt.count(op) || readThrough.count(op);
  }

  /// Reshapes and identities outside row kernels: the same elements in the
  /// same order, so a fused kernel reads through them at the same index.
  bool isView(Operation *op) const {
    return isBufferAlias(op) && !rowGroupOf.count(op);
  }

  /// The ops that read `value`, directly or through views, each with the
  /// value it reads.
  void collectReaders(
      Value value,
      SmallVectorImpl<std::pair<Operation *, Value>> &readers) const {
    for (Operation *user : value.getUsers()) {
      if (isView(user) && user->getBlock() == &body)
        collectReaders(user->getResult(0), readers);
      else
        readers.emplace_back(user, value);
    }
  }

  /// The op launching the kernel in which `reader` reads `read` element by
  /// element at its own coordinates: an elementwise op reading it at its own
  /// shape (its kernel, or itself), or an op that moves elements, read
  /// through inside such a kernel; none otherwise.
  Operation *getElementReadingKernel(Operation *reader, Value read) const {
    if (reader->getBlock() != &body || isContractionPart(reader) ||
        rowGroupOf.count(reader))
      return nullptr;
    if (isElementwise(reader)) {
      bool atOwnShape = llvm::is_contained(getDataOperands(reader), read) &&
                        shapeOf(reader->getResult(0)) == shapeOf(read);
      if (!atOwnShape)
        return nullptr;
      Operation *kernel = fusedInto.lookup(reader);
      return kernel ? kernel : reader;
    }
    if (isElementIndexMap(reader) &&
        llvm::is_contained(
            cast<ElementIndexMapOpInterface>(reader).getElementSources(), read))
      return fusedInto.lookup(reader);
    return nullptr;
  }

  /// The kernel `op` is computed in, other than its own: that of every op
  /// reading its result, where each reads it element by element (see
  /// getElementReadingKernel), rounding it to its type as its own kernel
  /// would. An elementwise op is computed once per reader, so only with
  /// one; an op that moves elements computes nothing, so every reader
  /// reading through it costs only its loads.
  Operation *getFusingKernel(Operation *op) const {
    if (auto conv = dyn_cast<tosa::Conv2DOp>(op))
      return getEpilogueKernel(conv);
    bool movesElements = isElementIndexMap(op);
    if ((!isElementwise(op) && !movesElements) || op->getNumResults() != 1 ||
        isContractionPart(op) || rowGroupOf.count(op))
      return nullptr;
    SmallVector<std::pair<Operation *, Value>> readers;
    collectReaders(op->getResult(0), readers);
    if (readers.empty() || (readers.size() > 1 && !movesElements))
      return nullptr;
    Operation *kernel = nullptr;
    for (auto [reader, read] : readers) {
      Operation *readerKernel = getElementReadingKernel(reader, read);
      if (!readerKernel || (kernel && kernel != readerKernel))
        return nullptr;
      kernel = readerKernel;
    }
    return kernel;
  }

  /// Whether `conv` runs as an implicit GEMM whose epilogue may compute
  /// its only reader's kernel.
  bool mayHaveEpilogue(tosa::Conv2DOp conv) const {
    return runsAsImplicitGemm(conv) && !isContractionPart(conv) &&
           conv->hasOneUse() && isZeroConstant(conv.getBias());
  }

  /// The kernel whose ops an implicit-GEMM convolution computes in its
  /// epilogue: that of its only reader, an elementwise op reading it at its
  /// own shape (the epilogue has the accumulators of output elements),
  /// writing elements of 4 bytes at most, and of no other convolution (a
  /// residual add of two: the later one). The convolution adds no bias: the
  /// epilogue reads its accumulators as its value (a quantized convolution
  /// adds its bias after scaling, in the reader).
  Operation *getEpilogueKernel(tosa::Conv2DOp conv) const {
    if (!mayHaveEpilogue(conv))
      return nullptr;
    Operation *reader = *conv->user_begin();
    if (!isElementwise(reader))
      return nullptr;
    Operation *kernel = getElementReadingKernel(reader, conv.getResult());
    return kernel && fitsEpilogueStaging(kernel) &&
                   !epilogueConvs.contains(kernel)
               ? kernel
               : nullptr;
  }

  /// Decides fusion from the last op back, so that the kernels of an op's
  /// readers are known before it. Views follow their producers.
  void planFusion() {
    for (Operation &op : llvm::reverse(body)) {
      if (isView(&op))
        continue;
      if (Operation *kernel = getFusingKernel(&op)) {
        fusedInto[&op] = kernel;
        if (isa<tosa::Conv2DOp>(op))
          epilogueConvs[kernel] = &op;
      } else if (auto conv = dyn_cast<tosa::Conv2DOp>(op)) {
        splitNarrowingChain(conv);
      }
    }
  }

  /// A convolution whose reader's kernel is another's epilogue (the earlier
  /// of a residual add of two) would store its int32 accumulators for that
  /// kernel to read. Where the chain of ops only it feeds there narrows
  /// them (dequantized to f16), the chain's narrowest op becomes a kernel of
  /// its own, which this convolution's epilogue computes: the other kernel
  /// reads fewer bytes, and as vectors.
  void splitNarrowingChain(tosa::Conv2DOp conv) {
    if (!mayHaveEpilogue(conv))
      return;
    Operation *kernel = fusedInto.lookup(*conv->user_begin());
    if (!kernel || !epilogueConvs.contains(kernel))
      return;
    // Ops of the kernel reading, besides the chain, only bindings and
    // constants (a dequantization's scale and bias), or views of them.
    auto isSource = [&](Value value) {
      Operation *def = value.getDefiningOp();
      while (def && isView(def))
        def = def->getOperand(0).getDefiningOp();
      return !def || isa<tosa::ConstOp, arith::ConstantOp>(def);
    };
    auto continuesChain = [&](Operation *op, Value read) {
      return op != kernel && fusedInto.lookup(op) == kernel &&
             isElementwise(op) && op->hasOneUse() &&
             shapeOf(op->getResult(0)) == shapeOf(read) &&
             llvm::all_of(getDataOperands(op), [&](Value operand) {
               return operand == read || isSource(operand);
             });
    };
    SmallVector<Operation *> chain;
    for (Value read = conv.getResult();
         continuesChain(*read.user_begin(), read);
         read = chain.back()->getResult(0))
      chain.push_back(*read.user_begin());
    Operation *narrowest = nullptr;
    for (Operation *op : chain)
      if (!narrowest || getResultBits(op) <= getResultBits(narrowest))
        narrowest = op;
    if (!narrowest || getResultBits(narrowest) >= getResultBits(conv))
      return;
    fusedInto.erase(narrowest);
    for (Operation *op : chain) {
      if (op == narrowest)
        break;
      fusedInto[op] = narrowest;
    }
    fusedInto[conv] = narrowest;
    epilogueConvs[narrowest] = conv;
  }

  /// An epilogue's result read by an elementwise kernel of its shape
  /// (a quantization for the next convolution) is still read from memory
  /// by that kernel. The epilogue computes that kernel as well, from the
  /// value it has just rounded, and stores both results: the sibling's
  /// ops join the epilogue's kernel, which launches at the sibling's launch.
  /// Every other reader of the epilogue's result must run after it.
  void planSiblingOutputs() {
    llvm::DenseMap<Operation *, Operation *> kernelOps = getKernelOps();
    llvm::DenseMap<Operation *, int64_t> position;
    for (auto [index, op] : llvm::enumerate(body))
      position[&op] = index;
    for (auto [epilogue, conv] : llvm::to_vector(epilogueConvs))
      if (Operation *sibling =
              getSibling(epilogue, conv, kernelOps, position)) {
        siblingLaunch[epilogue] = sibling;
        epilogueConvs[sibling] = conv;
      }
  }

  /// The launch of the kernel `planSiblingOutputs` lets the epilogue of
  /// `conv` ending at `epilogue` compute, or none.
  Operation *
  getSibling(Operation *epilogue, Operation *conv,
             const llvm::DenseMap<Operation *, Operation *> &kernelOps,
             const llvm::DenseMap<Operation *, int64_t> &position) const {
    Value result = epilogue->getResult(0);
    if (shapeOf(result) != shapeOf(conv->getResult(0)))
      return nullptr;
    Operation *sibling = nullptr;
    for (Operation *reader : result.getUsers()) {
      Operation *kernel = isElementwise(reader)
                              ? getElementReadingKernel(reader, result)
                              : nullptr;
      if (kernel && !sibling && !epilogueConvs.contains(kernel) &&
          shapeOf(kernel->getResult(0)) == shapeOf(result) &&
          fitsEpilogueStaging(kernel))
        sibling = kernel;
    }
    if (!sibling)
      return nullptr;
    // The sibling reads the result only at each element's own index (the
    // value the epilogue holds), and the other readers run after it.
    for (Operation *reader : result.getUsers()) {
      Operation *launch = kernelOps.lookup(reader);
      if (launch == sibling) {
        if (!readsAtOwnIndex(reader, result, sibling))
          return nullptr;
        continue;
      }
      if (!launch || position.lookup(launch) <= position.lookup(sibling))
        return nullptr;
    }
    return sibling;
  }

  /// Whether the kernel launched at `sibling` reads `result` through
  /// `reader` at each element's own index: `reader` and every op from it to
  /// `sibling` elementwise at `result`'s shape, each the only reader of the
  /// one before (no move or view between, which would read the result at
  /// other coordinates).
  bool readsAtOwnIndex(Operation *reader, Value result,
                       Operation *sibling) const {
    for (Value read = result;;
         read = reader->getResult(0), reader = *reader->user_begin()) {
      if (!isElementwise(reader) ||
          getElementReadingKernel(reader, read) != sibling ||
          shapeOf(reader->getResult(0)) != shapeOf(result))
        return false;
      if (reader == sibling)
        return true;
      if (!reader->hasOneUse())
        return false;
    }
  }

  /// Whether `op` is computed inside another op's kernel (fusedInto); the
  /// views between it and its readers are part of that kernel too.
  bool isFusedIntoUser(Operation *op) const {
    if (isView(op)) {
      Operation *producer = op;
      while (producer && isView(producer))
        producer = producer->getOperand(0).getDefiningOp();
      return producer && isFusedIntoUser(producer);
    }
    return fusedInto.count(op);
  }

  /// Each op's kernel op, the one whose kernel computes its result (itself
  /// unless grouped). A fused view takes its first reader's, already known
  /// from the last op back.
  llvm::DenseMap<Operation *, Operation *> getKernelOps() const {
    llvm::DenseMap<Operation *, Operation *> kernelOps;
    for (Operation &op : llvm::reverse(body)) {
      Operation *kernel = &op;
      if (Operation *fused = fusedInto.lookup(&op))
        kernel = fused;
      else if (isFusedIntoUser(&op))
        kernel = kernelOps.lookup(*op.getResult(0).user_begin());
      else if (Operation *gemm = performedBy.lookup(&op))
        kernel = gemm;
      else if (const RowGroup *group = rowGroupOf.lookup(&op))
        kernel = group->ops.back();
      kernelOps[&op] = siblingLaunch.lookup_or(kernel, kernel);
    }
    return kernelOps;
  }

  bool isComputed(Operation *op) const {
    return (!launchesNothing(op) && !readThrough.count(op)) ||
           rowGroupOf.count(op) || (isView(op) && isFusedIntoUser(op));
  }

  engine::KernelKind getKind(Operation *launch) const {
    if (epilogueConvs.contains(launch))
      return engine::KernelKind::Epilogue;
    auto conv = dyn_cast<tosa::Conv2DOp>(launch);
    if (gemmAt.count(launch) || isa<tosa::MatMulOp>(launch) ||
        (conv && isConvGemm(conv)))
      return engine::KernelKind::Contraction;
    if (rowGroupOf.count(launch))
      return engine::KernelKind::Rows;
    if (llvm::any_of(launch->getOperands(), [&](Value operand) {
          Operation *def = operand.getDefiningOp();
          return def && isFusedIntoUser(def);
        }))
      return engine::KernelKind::Fused;
    return engine::KernelKind::Single;
  }

  Block &body;
  /// The last op of each GEMM's epilogue, mapped to the GEMM.
  llvm::DenseMap<Operation *, Operation *> gemmAt;
  /// The GEMM and its other epilogue ops, mapped to the op at which the
  /// GEMM runs.
  llvm::DenseMap<Operation *, Operation *> performedBy;
  /// What each GEMM with an epilogue computes after its product.
  llvm::DenseMap<Operation *, engine::Epilogue> epilogues;
  /// Transposes and bias widenings that GEMMs read through.
  llvm::SmallPtrSet<Operation *, 8> readThrough;
  std::vector<RowGroup> rowGroups;
  llvm::DenseMap<Operation *, const RowGroup *> rowGroupOf;
  /// Each op computed in another op's kernel, mapped to that op.
  llvm::DenseMap<Operation *, Operation *> fusedInto;
  /// The kernels an implicit-GEMM convolution's epilogue computes, each
  /// mapped to the convolution (one that computes a sibling too stays,
  /// though it launches at the sibling).
  llvm::MapVector<Operation *, Operation *> epilogueConvs;
  /// Each epilogue kernel that computes a sibling (planSiblingOutputs),
  /// mapped to the sibling's launch, where it launches.
  llvm::DenseMap<Operation *, Operation *> siblingLaunch;
};

class PlanKernelsPass
    : public PlanPass<PlanKernelsPass, impl::PrecPlanKernelsBase> {
public:
  using PlanPass::PlanPass;

  LogicalResult plan(func::FuncOp function) {
    KernelPlanner planner(function.getBody().front());
    planner.plan();
    planner.annotate(engine::EngineDialect::get(&getContext()));
    return planner.schedule();
  }
};

} // namespace

} // namespace prec
