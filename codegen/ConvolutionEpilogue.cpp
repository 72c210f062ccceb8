//===- ConvolutionEpilogue.cpp - an implicit GEMM's fused epilogue -------===//
//
// The struct an implicit-GEMM convolution (runtime/ImplicitGemmConv.cuh)
// calls to compute and store its outputs: the fused elementwise chain that
// reads the accumulators, in three forms built from the same pieces.
//
//===----------------------------------------------------------------------===//

#include "codegen/CudaEmitterImpl.h"

#include "dialects/Utils/OpNames.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace prec::cuda {

/// Where a convolution's epilogue, whose root has the convolution's output
/// shape `result`, reads `input` without splitting the output index: at the
/// output element itself (`i`) or at its filter's element of a vector of
/// filters (`filter`); empty where it needs the coordinates.
static StringRef getEpilogueOffset(const ElementLoad &input,
                                   ArrayRef<int64_t> result) {
  if (!input.offset.empty() || !input.guard.empty() || input.readAt != result)
    return "";
  ArrayRef<int64_t> shape = shapeOf(input.value);
  if (shape == result)
    return "i";
  bool perFilter =
      !shape.empty() && shape.back() == result.back() &&
      llvm::all_of(shape.drop_back(), [](int64_t d) { return d == 1; });
  return perFilter ? "filter" : "";
}

StringRef ConvEpilogue::offsetOf(const ElementLoad &input) const {
  return atConvShape ? getEpilogueOffset(input, shape) : StringRef();
}

bool ConvEpilogue::loadsRun(const ElementLoad &input) const {
  return !offsetOf(input).empty() &&
         isHeldAsStored(getElementTypeOrSelf(input.value.getType()));
}

/// `conv` launched as an implicit GEMM whose epilogue computes the fused
/// kernel storing `outputs` (the launch's last, all of one shape) from the
/// accumulators: `element` for one output element; `load`, `columns` and
/// `run` for a 16-byte run of the widest output's filters
/// (prec_conv_outputs); and `stage`, `pair` and `store` for a pair of
/// filters where the accumulators are (prec_conv_fragment_tile).
void CudaEmitter::printConvEpilogue(tosa::Conv2DOp conv,
                                    ArrayRef<StoredElement> outputs,
                                    ArrayRef<ElementLoad> inputs,
                                    ArrayRef<std::string> fusedNames) {
  ConvEpilogue epilogue;
  epilogue.inputs = inputs;
  epilogue.shape = shapeOf(outputs.back().value);
  // An output element's flat index, which reshapes keep: row * filters +
  // filter. Where the root reads through a reshape, at a shape of its own,
  // its inputs need the coordinates.
  epilogue.filters = shapeOf(conv.getResult()).back();
  epilogue.atConvShape = epilogue.shape == shapeOf(conv.getResult());
  DeviceType widest = typeOf(outputs.front().value);
  for (const StoredElement &output : outputs)
    if (typeOf(output.value).bytes > widest.bytes)
      widest = typeOf(output.value);
  epilogue.run = 16 / widest.bytes;
  std::string stem = kernelName(outputs.back().value.getDefiningOp());
  for (auto [n, input] : llvm::enumerate(inputs))
    addConvEpilogueInput(epilogue, n, input);
  for (auto [n, output] : llvm::enumerate(outputs))
    addConvEpilogueOutput(epilogue, n, output, n + 1 == outputs.size());

  for (const std::string &fused : fusedNames)
    kernels += "// fused: " + fused + "\n";
  kernels += llvm::formatv(
      "// {0}: the epilogue of tosa.conv2d {1}\nstruct {2}_epilogue {{\n"
      "  using Output = {3};\n{4}"
      "  __device__ bool aligned() const {{ return ({5}) % 16 == 0; }\n{6}{7}"
      "{8}};\n\n",
      epilogue.descriptions, getLayerName(conv), stem, widest.cType,
      epilogue.members, epilogue.alignment, printConvEpilogueElement(epilogue),
      printConvEpilogueRuns(epilogue), printConvEpilogueFragments(epilogue));
  launchImplicitGemmConv(conv, stem, epilogue.initializer,
                         epilogue.descriptions, epilogue.alignedTensors);
}

/// Input `n`: a member, loaded element by element where it is not read as
/// vectors; else held as stored, those of the output's shape loaded ahead
/// (`load`, into a Loaded), per-filter ones into Columns (ncu: reloading
/// them for each run took a third of the global loads' L1 wavefronts of
/// ResNet-50's 64 -> 256 1x1 convolution, whose L1 was ~89% busy), and in
/// the fragment form copied into the tile (rows or filters) and read a pair
/// at a time.
void CudaEmitter::addConvEpilogueInput(ConvEpilogue &epilogue, size_t n,
                                       const ElementLoad &input) {
  epilogue.members += llvm::formatv("  const {0} *__restrict__ in{1};\n",
                                    typeOf(input.value).cType, n);
  epilogue.initializer += pointer(input.value) + ", ";
  epilogue.elementLoads += llvm::formatv(
      "    {0} v{1}[1] = {{{2}};\n", heldType(input), n, loadElement(input, n));
  epilogue.values +=
      llvm::formatv("    float a{0} = {1};\n", n,
                    floatOfHeld(input, llvm::formatv("v{0}[k]", n).str()));
  std::string array = llvm::formatv("__align__(16) {0} v{1}[{2}];",
                                    heldType(input), n, epilogue.run);
  if (!epilogue.loadsRun(input)) {
    epilogue.runLoads += "    " + array + "\n";
    epilogue.pairLoads +=
        llvm::formatv("    {0} v{1}[2];\n", heldType(input), n);
    epilogue.runElementLoads +=
        llvm::formatv("    v{0}[k] = {1};\n", n, loadElement(input, n));
    return;
  }
  // `run` elements from a multiple of `run`: aligned to their bytes (16
  // at most) where the pointer is to 16.
  bool ahead = epilogue.offsetOf(input) == "i";
  int64_t elementBytes = typeOf(input.value).bytes;
  int64_t &at = ahead ? epilogue.rowBytes : epilogue.filterBytes;
  epilogue.stageCopies += llvm::formatv("    tile.copy_{0}(in{1}, {2});\n",
                                        ahead ? "rows" : "filters", n, at);
  epilogue.pairLoads += llvm::formatv(
      "    __align__({0}) {1} v{2}[2];\n    *reinterpret_cast<{3} *>(v{2}) = "
      "tile.template {4}<{3}>({5}, {6});\n",
      2 * elementBytes, heldType(input), n,
      getVectorCTypeOfBytes(2 * elementBytes),
      ahead ? "row_pair" : "filter_pair", ahead ? "r, c" : "c", at);
  at += elementBytes;
  int64_t bytes = epilogue.run * elementBytes;
  int64_t chunk = std::min<int64_t>(bytes, 16);
  // Held in Loaded at the output element's offset, or in Columns at the
  // filter's.
  std::string &heldMembers =
      ahead ? epilogue.loadedMembers : epilogue.columnMembers;
  std::string &heldLoads = ahead ? epilogue.aheadLoads : epilogue.columnLoads;
  StringRef holder = ahead ? "loaded" : "columns";
  heldMembers += "    " + array + "\n";
  epilogue.runLoads +=
      llvm::formatv("    const auto &v{0} = {1}.v{0};\n", n, holder);
  for (int64_t c = 0; c < bytes / chunk; ++c)
    heldLoads += llvm::formatv(
        "    reinterpret_cast<{0} *>({1}.v{2})[{3}] = reinterpret_cast<const "
        "{0} *>(in{2} + {4})[{3}];\n",
        getVectorCTypeOfBytes(chunk), holder, n, c, ahead ? "i0" : "filter");
  epilogue.alignment += llvm::formatv("(uintptr_t)in{0} | ", n).str();
  epilogue.alignedTensors.push_back(input.value);
}

/// Output `n` (`last`: the launch's last): its elements held in `w<n>`,
/// computed in order (a later one reads an earlier one's), stored one by
/// one (`element`), as one vector of the run (`run`), or a pair at a time
/// into the tile, whose rows are stored whole (`pair`, `store`).
void CudaEmitter::addConvEpilogueOutput(ConvEpilogue &epilogue, size_t n,
                                        const StoredElement &output,
                                        bool last) {
  DeviceType type = typeOf(output.value);
  epilogue.members += llvm::formatv("  {0} *out{1};\n", type.cType, n);
  epilogue.initializer += pointer(output.value) + (last ? "" : ", ");
  epilogue.alignment +=
      llvm::formatv("(uintptr_t)out{0}", n).str() + (last ? "" : " | ");
  epilogue.alignedTensors.push_back(output.value);
  std::string value =
      output.half.empty()
          ? llvm::formatv(
                "    float r{0} = {1};\n    w{0}[k] = {2};\n", n,
                output.expression,
                storedConversion(output.value, llvm::formatv("r{0}", n).str()))
                .str()
          : llvm::formatv("    w{0}[k] = {1};\n", n, output.half).str();
  epilogue.elementOutputs += llvm::formatv("    {0} w{1}[1];\n{2}    out{1}[i] "
                                           "= w{1}[k];\n",
                                           type.cType, n, value);
  epilogue.runOutputs += llvm::formatv("    __align__(16) {0} w{1}[{2}];\n",
                                       type.cType, n, epilogue.run);
  epilogue.runValues += value;
  epilogue.pairOutputs += llvm::formatv("    __align__({0}) {1} w{2}[2];\n",
                                        2 * type.bytes, type.cType, n);
  epilogue.pairStores += llvm::formatv(
      "    tile.put_pair(r, c, {0}, *reinterpret_cast<const {1} *>(w{2}));\n",
      epilogue.rowBytes, getVectorCTypeOfBytes(2 * type.bytes), n);
  epilogue.tileStores += llvm::formatv("    tile.store_rows(out{0}, {1});\n", n,
                                       epilogue.rowBytes);
  epilogue.rowBytes += type.bytes;
  epilogue.runStores += llvm::formatv(
      "    *reinterpret_cast<{0} *>(out{1} + i0) = *reinterpret_cast<const "
      "{0} *>(w{1});\n",
      getVectorCTypeOfBytes(epilogue.run * type.bytes), n);
  Operation *op = output.value.getDefiningOp();
  std::string layer = getLayerName(op).str();
  epilogue.descriptions += (n ? " and " : "") +
                           op->getName().getStringRef().str() +
                           (layer.empty() ? "" : " '" + layer + "'");
}

/// The offsets of the inputs loaded element by element: in a run or a
/// pair, at filter + k, skipping those it loads as vectors.
std::string CudaEmitter::convEpilogueOffsets(const ConvEpilogue &epilogue,
                                             bool inRun) const {
  std::string code =
      readOffsets(epilogue.inputs, epilogue.shape, [&](size_t n) {
        return epilogue.offsetOf(epilogue.inputs[n]).empty();
      });
  for (auto [n, input] : llvm::enumerate(epilogue.inputs)) {
    StringRef offset = epilogue.offsetOf(input);
    if (offset.empty() || (inRun && epilogue.loadsRun(input)))
      continue;
    code +=
        llvm::formatv("    const {0} o{1} = {2};\n", indexSpelling.type(), n,
                      offset == "i" ? "i"
                      : inRun       ? "filter + k"
                                    : "filter");
  }
  return code;
}

std::string
CudaEmitter::printConvEpilogueElement(const ConvEpilogue &epilogue) const {
  return llvm::formatv(
      "  __device__ void element(long long row, long long filter, int32_t acc) "
      "const {{\n    [[maybe_unused]] const {0} i = ({0})(row * {1} + "
      "filter);\n    [[maybe_unused]] constexpr int k = 0;\n{2}{3}{4}{5}  }\n",
      indexSpelling.type(), epilogue.filters,
      convEpilogueOffsets(epilogue, false), epilogue.elementLoads,
      epilogue.values, epilogue.elementOutputs);
}

/// The body of `run` and `pair`: `lanes` consecutive filters' outputs from
/// `accs`, their inputs held by `loads`, the outputs by `held`, stored by
/// `stores`.
std::string CudaEmitter::printConvEpilogueLanes(const ConvEpilogue &epilogue,
                                                StringRef loads, StringRef held,
                                                int64_t lanes,
                                                StringRef stores) const {
  return llvm::formatv("    const {0} i0 = ({0})(row * {1} + filter);\n{2}{3}"
                       "#pragma unroll\n"
                       "    for (int k = 0; k < {4}; ++k) {{\n"
                       "    [[maybe_unused]] const {0} i = i0 + k;\n"
                       "    const int32_t acc = accs[k];\n{5}{6}{7}{8}    }\n"
                       "{9}  }\n",
                       indexSpelling.type(), epilogue.filters, loads, held,
                       lanes, convEpilogueOffsets(epilogue, true),
                       epilogue.runElementLoads, epilogue.values,
                       epilogue.runValues, stores)
      .str();
}

/// `load`, `columns` and `run` (prec_conv_outputs).
std::string
CudaEmitter::printConvEpilogueRuns(const ConvEpilogue &epilogue) const {
  StringRef index = indexSpelling.type();
  std::string load = llvm::formatv(
      "  struct Loaded {{\n{0}  };\n"
      "  __device__ void load(long long row, long long filter, Loaded &loaded) "
      "const {{\n{1}  }\n",
      epilogue.loadedMembers,
      epilogue.aheadLoads.empty()
          ? std::string()
          : llvm::formatv("    const {0} i0 = ({0})(row * {1} + filter);\n",
                          index, epilogue.filters) +
                epilogue.aheadLoads);
  std::string columns =
      llvm::formatv("  struct Columns {{\n{0}  };\n", epilogue.columnMembers)
          .str() +
      (epilogue.columnLoads.empty()
           ? "  __device__ void columns(long long, Columns &) const {}\n"
           : "  __device__ void columns(long long filter, Columns &columns) "
             "const {\n" +
                 epilogue.columnLoads + "  }\n");
  std::string run =
      "  __device__ void run(long long row, long long filter, const int32_t "
      "*accs, const Loaded &loaded, const Columns &columns) const {\n" +
      printConvEpilogueLanes(epilogue, epilogue.runLoads, epilogue.runOutputs,
                             epilogue.run, epilogue.runStores);
  return load + columns + run;
}

/// `stage`, `pair` and `store` (prec_conv_fragment_tile): the inputs a run
/// loads as vectors and the outputs staged in shared memory, each at its
/// offset in bytes a filter of a tile row or of the filters, read and
/// written a pair of filters at a time.
std::string
CudaEmitter::printConvEpilogueFragments(const ConvEpilogue &epilogue) const {
  return llvm::formatv(
      "  static constexpr int STAGED_ROW_BYTES = {0}, STAGED_FILTER_BYTES = "
      "{1};\n"
      "  template <typename Tile>\n  __device__ void stage([[maybe_unused]] "
      "const Tile &tile) const {{\n{2}  }\n"
      "  template <typename Tile>\n  __device__ void pair(const Tile &tile, "
      "int r, int c, long long row, long long filter, const int32_t "
      "(&accs)[2]) const {{\n{3}"
      "  template <typename Tile>\n  __device__ void store(const Tile &tile) "
      "const {{\n{4}  }\n",
      epilogue.rowBytes, epilogue.filterBytes, epilogue.stageCopies,
      printConvEpilogueLanes(epilogue, epilogue.pairLoads, epilogue.pairOutputs,
                             2, epilogue.pairStores),
      epilogue.tileStores);
}

} // namespace prec::cuda
