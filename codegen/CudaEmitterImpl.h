//===- CudaEmitterImpl.h - the CUDA emitter's parts -------------*- C++ -*-===//
//
// The emitter writes an engine op by op: its files split that work by kind
// of op (GEMMs, convolutions, elementwise chains, reductions and row
// kernels, copies, windows) around the driver in CudaEmitter.cpp, which
// reads the engine plan (lowering/'s prec-plan-engine: convolution
// algorithms, kernels, weight layouts, arena offsets), writes the weights
// as it says and writes the engine's host code. This header is what they share;
// users include CudaEmitter.h.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_CODEGEN_CUDAEMITTERIMPL_H
#define PREC_CODEGEN_CUDAEMITTERIMPL_H

#include "codegen/CudaEmitter.h"
#include "dialects/Engine/EngineDialect.h"
#include "dialects/Utils/Shapes.h"
#include "lowering/BatchRange.h"
#include "lowering/BufferAliases.h"
#include "lowering/ContractionEpilogues.h"
#include "lowering/ConvolutionPlan.h"
#include "lowering/DeviceTypes.h"
#include "lowering/ElementIndexMapInterface.h"
#include "lowering/ElementwiseExpressionInterface.h"
#include "lowering/RowGroups.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/JSON.h"

#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace prec::cuda {

using namespace mlir;

/// How kernels spell indices, as engine.index_bitwidth says: `int`, or
/// `long long` with literals ending in LL.
struct IndexSpelling {
  bool narrow = false;
  llvm::StringRef type() const { return narrow ? "int" : "long long"; }
  std::string literal(int64_t value) const {
    return std::to_string(value) + (narrow ? "" : "LL");
  }
};

/// `pattern` (an expression in `x`, as DeviceType's) applied to `value`.
std::string substitute(llvm::StringRef pattern, llvm::StringRef value);

/// Elements each thread of an elementwise or im2col kernel moves.
inline constexpr int64_t elementwiseUnroll = 4;

/// `coordinate * stride` terms turning an output index into the offset of an
/// operand of shape `operand` broadcast to `result`: `o<n>` for operand n, or
/// for operand names[n] where given; `remainder` names the index left to
/// split into coordinates.
std::string broadcastOffsets(const IndexSpelling &indexSpelling,
                             ArrayRef<int64_t> result,
                             ArrayRef<ArrayRef<int64_t>> operands,
                             ArrayRef<size_t> names = {},
                             StringRef remainder = "rem");
/// The coordinates (C index expressions) of the element at flat index
/// `flat` of a tensor of `shape`. The outermost that varies is not reduced
/// modulo its extent, so that it holds at any batch.
SmallVector<std::string> delinearize(const IndexSpelling &spelling,
                                     StringRef flat, ArrayRef<int64_t> shape);
/// The flat index of the element at `coordinates` of a tensor of `shape`.
std::string linearize(const IndexSpelling &spelling,
                      ArrayRef<std::string> coordinates,
                      ArrayRef<int64_t> shape);

/// A value a fused elementwise kernel loads: at the kernel's flat index
/// split by `readAt` (its shape, or that of the op reading it through a
/// reshape) or, read through ops that move elements, at the index
/// expression `offset`, only where `guard` holds (empty: always).
struct ElementLoad {
  Value value;
  ArrayRef<int64_t> readAt;
  std::string offset, guard;

  bool operator==(const ElementLoad &other) const {
    return value == other.value && readAt == other.readAt &&
           offset == other.offset && guard == other.guard;
  }
};

/// A value a fused kernel stores: its element as the float `expression`
/// converted to its type, or as `half`, already of that type, where given.
struct StoredElement {
  Value value;
  std::string expression, half;
};

/// The type an input's loaded elements are held in: as they are stored
/// where kernels hold them so (isHeldAsStored), others widened to float.
const char *heldType(const ElementLoad &input);
/// The float a fused expression reads for `held`, an input's loaded element
/// (heldType).
std::string floatOfHeld(const ElementLoad &input, llvm::StringRef held);
/// The load of input `position`'s element at its offset: as it is stored
/// where kernels hold it so (isHeldAsStored), else widened to float.
std::string loadElement(const ElementLoad &input, size_t position);

/// The pieces of a convolution's fused epilogue (ConvolutionEpilogue.cpp),
/// gathered once from its inputs and outputs for the forms it is printed in.
struct ConvEpilogue {
  ArrayRef<ElementLoad> inputs;
  /// The outputs' shape, the convolution's filters, the filters of a
  /// 16-byte run of the widest output, and whether the outputs have the
  /// convolution's shape (else the inputs need the output's coordinates).
  ArrayRef<int64_t> shape;
  int64_t filters = 0, run = 0;
  bool atConvShape = false;
  /// The struct's members, its initializer at launch, the tensors it reads
  /// or writes as vectors (`aligned()` and the launch check them) and what
  /// it computes.
  std::string members, initializer, alignment, descriptions;
  SmallVector<Value> alignedTensors;
  /// `element`'s loads, the inputs' values as floats, `element`'s outputs.
  std::string elementLoads, values, elementOutputs;
  /// The runs' (prec_conv_outputs): what Loaded and Columns hold and load,
  /// what `run` loads, computes and stores.
  std::string loadedMembers, aheadLoads, columnMembers, columnLoads;
  std::string runLoads, runElementLoads, runOutputs, runValues, runStores;
  /// The pairs' (prec_conv_fragment_tile): the bytes a filter staged in a
  /// tile row and in the filters, the copies into the tile, a pair's loads,
  /// outputs and stores, the tile's stores.
  int64_t rowBytes = 0, filterBytes = 0;
  std::string stageCopies, pairLoads, pairOutputs, pairStores, tileStores;

  /// Where `input` is read without the output's coordinates: "i" (the
  /// output element's offset), "filter", or empty.
  llvm::StringRef offsetOf(const ElementLoad &input) const;
  /// Whether a run loads `input`'s elements as vectors (and the fragment
  /// form stages them): read at an offset that moves with the filter, and
  /// held as stored.
  bool loadsRun(const ElementLoad &input) const;
};

/// A float literal for a constant whose elements are all one value.
std::optional<std::string> getSplatLiteral(Value value);
/// The float expression elementwise `op` computes, each data operand's $n
/// replaced by `operandExpression(operand)` (called once each, in order).
std::string
expressionOf(Operation *op,
             llvm::function_ref<std::string(Value)> operandExpression);
/// `expression` rounded to `type` and back to float, as a kernel storing it
/// would (nothing to do for f32).
std::string roundedTo(Type type, llvm::StringRef expression);

/// The C type a thread moves `bytes` (2, 4, 8 or 16) bytes of elements as.
const char *getVectorCTypeOfBytes(int64_t bytes);

/// runtime/GemmHelpers.cuh and runtime/RowReduce.cuh, for engines with GEMMs
/// and row kernels.
extern const char *const matmulHelpers;
extern const char *const rowReduceHelper;
/// runtime/AttentionKernel.cuh, for engines with an engine.attention.
extern const char *const attentionKernel;
/// runtime/ImplicitGemmConv.cuh, for engines with implicit-GEMM
/// convolutions.
extern const char *const implicitGemmConv;

/// A device buffer: an engine input or output binding, a weight, or an
/// activation in the arena.
struct Buffer {
  enum class Kind { Input, Output, Weight, Activation } kind;
  int64_t offset = 0; // into the weights block or the arena; input index
  int64_t bytes = 0;
  std::string cType;
};

/// A row kernel while it is written (ReductionKernels.cpp).
struct RowKernel;

/// Writes one function of a legalized module, lowered by prec-lower-to-gpu
/// and planned by prec-plan-engine, as a CUDA engine: kernels and library
/// calls in program order on one stream, buffers in bindings, weights and
/// one reused arena.
class CudaEmitter {
public:
  CudaEmitter(func::FuncOp function, llvm::StringRef stem,
              const CudaEngineOptions &options)
      : function(function), stem(stem.str()), options(options) {}

  LogicalResult emit(llvm::raw_ostream &cu, llvm::StringRef directory);

private:
  LogicalResult collectBindings();
  LogicalResult emitBody();
  std::string addCudnnSupport();
  std::string addBatchSupport();
  void printPrologue(llvm::raw_ostream &cu, llvm::StringRef cudnnPreamble);
  void printEngine(llvm::raw_ostream &cu, llvm::StringRef batchCode,
                   llvm::StringRef cudnnPreamble, uint64_t identity);
  LogicalResult writeHeader(llvm::StringRef directory);
  LogicalResult writeWeights(llvm::StringRef directory, uint64_t identity,
                             uint64_t weightsChecksum);
  LogicalResult writeManifest(llvm::StringRef directory);

private:
  LogicalResult emitOp(Operation *op);
  LogicalResult assignBuffer(Value value);
  LogicalResult readKernelPlan();
  /// How prec-plan-weight-layouts stores the constant `weight`: transposed
  /// for the GEMMs that read it (as B, op T); with rows of this many
  /// elements, zero-padded (0: not padded).
  bool isStoredTransposed(Value weight) const;
  int64_t getPaddedDepth(Value weight) const;
  bool isFusedIntoUser(Operation *op) const {
    return fusedIntoUser.contains(op);
  }
  /// The op whose kernel computes `op`'s result: the last of its kernel's
  /// ops (itself if it launches nothing).
  Operation *getKernelOp(Operation *op) const {
    Operation *launch = launchOf.lookup(op);
    return launch ? launch : op;
  }
  LogicalResult addWeight(Value value, ElementsAttr values);
  /// `value`'s buffer as a pointer to its elements, or to `asType`.
  std::string pointer(Value value, StringRef asType = {});
  std::string kernelName(Operation *op);
  /// The run code launching `kernel` over `grid` blocks of `block` threads
  /// with `shared` bytes of dynamic shared memory (prec_launch: early where
  /// `early` and the device can).
  static std::string launchCall(StringRef kernel, StringRef grid,
                                StringRef block, StringRef shared,
                                StringRef arguments, bool early = true);
  /// Launches `kernel` over `count` elements of `output`, passing each
  /// buffer as `pointerOf` spells it (by default, `pointer`).
  void launch(Operation *op, const std::string &kernel, int64_t count,
              ArrayRef<Value> inputs, Value output,
              int64_t elementsPerThread = 1,
              llvm::function_ref<std::string(Value)> pointerOf = nullptr);
  LogicalResult emitElementwise(Operation *op);
  void printElementwiseKernel(Operation *op, ArrayRef<ElementLoad> inputs,
                              ArrayRef<std::string> fusedNames,
                              StringRef expression, StringRef half);
  std::string printVectorElementwiseBody(Operation *op,
                                         ArrayRef<ElementLoad> inputs,
                                         StringRef expression, StringRef half);
  /// The offsets o<n> of the inputs read at a shape (those `isRead` takes,
  /// if given), computed from the flat index `i`.
  std::string readOffsets(ArrayRef<ElementLoad> inputs,
                          ArrayRef<int64_t> resultShape,
                          llvm::function_ref<bool(size_t)> isRead = {}) const;
  LogicalResult emitMatmul(tosa::MatMulOp op);
  LogicalResult emitAttention(engine::AttentionOp op);
  std::string emitKeptTiles(engine::AttentionOp op, StringRef maskType,
                            StringRef index);
  /// cuBLASLt's compute type and alpha/beta type for a GEMM.
  struct GemmComputeType {
    const char *compute, *scale;
  };
  FailureOr<GemmComputeType> getGemmComputeType(tosa::MatMulOp op);
  void addAlgorithmPick(tosa::MatMulOp op, int index, const std::string &pick);
  LogicalResult emitReduce(Operation *op, bool isMax);
  int addGemmState();
  void emitCopyKernel(Operation *op, Value input, llvm::StringRef offsets,
                      bool scatter = false, llvm::StringRef fill = "");
  void emitThreadKernel(Operation *op, Value input, Value space,
                        llvm::StringRef inType, llvm::StringRef outType,
                        llvm::StringRef body);
  /// The elements each thread of `op`'s copy or elementwise kernel moves
  /// together (engine.vector_bytes), 1 without the plan's mark.
  int64_t getVectorLanes(Operation *op) const;
  /// The C type of what a thread of `op`'s kernel moves at a time.
  std::string getVectorCType(Operation *op) const;
  LogicalResult emitMove(ElementIndexMapOpInterface op);
  LogicalResult emitPad(tosa::PadOp op);
  LogicalResult emitConcat(tosa::ConcatOp op);
  LogicalResult emitGather(tosa::GatherOp op);
  LogicalResult emitConv(Operation *op, bool depthwise);
  LogicalResult emitConvGemm(tosa::Conv2DOp op);
  FailureOr<std::string> emitConvColumns(tosa::Conv2DOp op, bool pointwise,
                                         llvm::StringRef epilogueName);
  LogicalResult emitCudnnConv(tosa::Conv2DOp op, Value destination);
  LogicalResult emitImplicitGemmConv(tosa::Conv2DOp op);
  /// Launches `op` as an implicit GEMM whose epilogue is the functor
  /// `<stem>_epilogue` (a struct in `kernels`) initialized by
  /// `initializer`, its geometry the constant `<stem>_geometry`, written
  /// here; the epilogue reads or writes `epilogueTensors` as vectors
  /// (its `aligned()`).
  void launchImplicitGemmConv(tosa::Conv2DOp op, StringRef stem,
                              StringRef initializer, StringRef description,
                              ArrayRef<Value> epilogueTensors);
  /// The fused elementwise kernel storing `outputs` as the epilogue of
  /// `conv`, its accumulator read as `acc`.
  void printConvEpilogue(tosa::Conv2DOp conv, ArrayRef<StoredElement> outputs,
                         ArrayRef<ElementLoad> inputs,
                         ArrayRef<std::string> fusedNames);
  void addConvEpilogueInput(ConvEpilogue &epilogue, size_t n,
                            const ElementLoad &input);
  void addConvEpilogueOutput(ConvEpilogue &epilogue, size_t n,
                             const StoredElement &output, bool last);
  std::string convEpilogueOffsets(const ConvEpilogue &epilogue,
                                  bool inRun) const;
  std::string printConvEpilogueElement(const ConvEpilogue &epilogue) const;
  std::string printConvEpilogueLanes(const ConvEpilogue &epilogue,
                                     StringRef loads, StringRef held,
                                     int64_t lanes, StringRef stores) const;
  std::string printConvEpilogueRuns(const ConvEpilogue &epilogue) const;
  std::string printConvEpilogueFragments(const ConvEpilogue &epilogue) const;
  LogicalResult emitPool(Operation *op, bool isMax);
  LogicalResult emitRowGroup(const RowGroup &group);
  std::string loadRowRegisters(RowKernel &kernel, Value value);
  void addRowReduction(RowKernel &kernel, Operation *op,
                       const std::string &name);
  void addRowElementwise(RowKernel &kernel, Operation *op,
                         const std::string &name, bool full);
  std::string writeRowOutputs(const RowKernel &kernel);
  LogicalResult unsupported(Operation *op, const llvm::Twine &why);
  engine::EngineDialect &getEngineDialect() const;
  /// The error for an op the engine plan says nothing about.
  LogicalResult planMissing(Operation *op, llvm::StringRef name,
                            llvm::StringRef pass);
  /// How `op` runs, as prec-choose-conv-algorithms decided.
  FailureOr<engine::ConvAlgorithm> getConvAlgorithm(tosa::Conv2DOp op);

  static int64_t countOf(Value value) {
    ArrayRef<int64_t> shape = shapeOf(value);
    return std::accumulate(shape.begin(), shape.end(), int64_t(1),
                           std::multiplies<int64_t>());
  }
  static DeviceType typeOf(Value value) {
    return *getDeviceType(getElementTypeOrSelf(value.getType()));
  }
  /// The float `r` converted to `value`'s type, as a kernel stores it.
  std::string storedConversion(Value value, llvm::StringRef r) const;

  /// The dimension of `value` that scales with the engine's batch, as
  /// prec-plan-batch recorded it; none without a dynamic batch.
  std::optional<int64_t> getBatchDim(Value value) const;
  bool isBatched(Value value) const { return getBatchDim(value).has_value(); }
  /// How many of `count` elements (at the largest batch) of `value` there
  /// are when the engine runs: fewer at a smaller batch.
  std::string runtimeCount(Value value, int64_t count) const;
  /// A kernel's bound on its index space over `value`: a literal, or
  /// `extent`, a parameter (countParameter), when it scales with the batch.
  std::string kernelBound(Value value, int64_t count) const {
    return isBatched(value) ? "extent" : indexSpelling.literal(count);
  }
  /// The blocks of `perBlock` elements covering `count` elements of `value`
  /// (at the largest batch) when the engine runs.
  std::string blocksFor(Value value, int64_t count, int64_t perBlock) const;
  std::string countParameter(Value value) const {
    return isBatched(value) ? (", " + indexSpelling.type() + " extent").str()
                            : "";
  }

  func::FuncOp function;
  std::string stem;
  CudaEngineOptions options;
  IndexSpelling indexSpelling;
  /// Set for an engine with a dynamic batch (the module is at its largest).
  std::optional<BatchRange> batchRange;
  /// Per GEMM, run when the batch changes: its layouts' batch-dependent
  /// sizes, then its algorithm for them.
  std::string resizeCode;
  llvm::DenseMap<Value, Buffer> buffers;
  /// GEMMs with an epilogue (bias, ReLU, conversion), keyed by the op at
  /// which they run: the last op of the epilogue.
  llvm::DenseMap<Operation *, Operation *> gemmAt;
  /// The GEMM, its other epilogue ops and a bias's widening it reads
  /// through, mapped to the op at which that GEMM runs; and the values an
  /// implicit GEMM's epilogue stores beside its launch's, mapped to that.
  llvm::DenseMap<Operation *, Operation *> performedBy;
  std::vector<RowGroup> rowGroups;
  llvm::DenseMap<Operation *, const RowGroup *> rowGroupOf;
  /// Each op of the plan's kernels mapped to the last of them.
  llvm::DenseMap<Operation *, Operation *> launchOf;
  /// Elementwise ops computed inside their only user's kernel.
  llvm::DenseSet<Operation *> fusedIntoUser;
  /// The launch of each `epilogue` kernel, mapped to its convolution, and
  /// to the values it stores (the launch's last).
  llvm::DenseMap<Operation *, tosa::Conv2DOp> epilogueConvs;
  llvm::DenseMap<Operation *, SmallVector<Value>> epilogueOutputs;
  /// Values computed straight into an output binding (its index).
  llvm::DenseMap<Value, int64_t> outputBindings;
  std::vector<char> weights;
  std::vector<std::pair<int64_t, int64_t>> weightEntries; // offset, bytes
  /// The arena's size, as prec-plan-buffers placed activations in it.
  int64_t arenaBytes = 0;
  int64_t workspaceBytes = 0;
  int kernelCount = 0;
  std::string kernels;     // __global__ functions
  std::string createCode;  // per-engine set-up (cuBLASLt descriptors)
  std::string releaseCode; // what create set up, destroyed
  std::string runCode;     // launches, in order
  std::string stateFields;
  bool hasGemms = false;
  bool usesCudnn = false;
  bool hasAttention = false;
  bool hasImplicitGemmConv = false;
  /// The kept-tiles buffer of each mask, by the query rows of a block and
  /// the matrices' Sq and Sk: attentions sharing a mask (every layer of a
  /// decoder) share its record.
  llvm::DenseMap<std::tuple<Value, int64_t, int64_t, int64_t>, std::string>
      keptTilesOfMask;
  llvm::json::Array opRecords;
  // The bindings, for the manifest and the engine's binding table.
  llvm::json::Array bindingRecords;
  std::string bindingTable;
};

} // namespace prec::cuda

#endif // PREC_CODEGEN_CUDAEMITTERIMPL_H
