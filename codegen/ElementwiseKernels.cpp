//===- ElementwiseKernels.cpp - fused elementwise chains -----------------===//

#include "codegen/CudaEmitterImpl.h"

#include "dialects/Precision/PrecisionOpInterface.h"
#include "dialects/Utils/Constants.h"
#include "dialects/Utils/OpNames.h"
#include "lowering/ElementIndexMapInterface.h"
#include "lowering/ElementwiseExpressionInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <functional>

using namespace mlir;

namespace prec::cuda {

/// `coordinate * stride` terms turning an output index into the offset of an
/// operand of shape `operand` broadcast to `result`, named o<names[n]> (or
/// o<n>); `remainder` holds what is left of the index to split.
std::string broadcastOffsets(const IndexSpelling &indexSpelling,
                             ArrayRef<int64_t> result,
                             ArrayRef<ArrayRef<int64_t>> operands,
                             ArrayRef<size_t> names, StringRef remainder) {
  // An operand of the result's shape is read at `i`, one of a single element
  // at 0; only the others need the coordinates.
  auto name = [&](size_t n) { return names.empty() ? n : names[n]; };
  std::string code;
  SmallVector<size_t> broadcast;
  for (auto [n, shape] : llvm::enumerate(operands)) {
    bool single = llvm::all_of(shape, [](int64_t d) { return d == 1; });
    code += llvm::formatv("    {2} o{0} = {1};\n", name(n),
                          shape == result ? "i" : "0", indexSpelling.type());
    if (shape != result && !single)
      broadcast.push_back(n);
  }
  if (broadcast.empty())
    return code;
  code += llvm::formatv("    {0} {1} = i;\n", indexSpelling.type(), remainder);
  SmallVector<int64_t> strides(operands.size(), 1);
  auto isRead = [&](int64_t d) {
    return llvm::any_of(broadcast,
                        [&](size_t n) { return operands[n][d] != 1; });
  };
  for (int64_t d = int64_t(result.size()) - 1; d >= 0; --d) {
    // A unit dimension has coordinate 0: nothing to add.
    if (result[d] == 1)
      continue;
    bool outerRead = false;
    for (int64_t outer = 0; outer < d; ++outer)
      outerRead |= result[outer] != 1 && isRead(outer);
    if (!isRead(d)) {
      if (!outerRead)
        break;
      code += llvm::formatv("    {1} /= {0};\n",
                            indexSpelling.literal(result[d]), remainder);
      continue;
    }
    code += llvm::formatv("    {{ {1} c = {2} % {0};",
                          indexSpelling.literal(result[d]),
                          indexSpelling.type(), remainder);
    for (size_t n : broadcast) {
      if (operands[n][d] != 1)
        code += llvm::formatv(" o{0} += c * {1};", name(n),
                              indexSpelling.literal(strides[n]));
      strides[n] *= operands[n][d];
    }
    code += outerRead
                ? llvm::formatv(" {1} /= {0}; }\n",
                                indexSpelling.literal(result[d]), remainder)
                      .str()
                : std::string(" }\n");
  }
  return code;
}

/// A float literal for a constant whose elements are all one value, so that
/// kernels need not load it (the GELU's 0.5, LayerNorm's epsilon).
std::optional<std::string> getSplatLiteral(Value value) {
  std::optional<APFloat> splat = getFloatSplat(value);
  if (!splat)
    return std::nullopt;
  APFloat element = *splat;
  bool losesInfo = false;
  element.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
  return getFloatLiteral(element.convertToFloat());
}

/// `pattern` with each data operand's $n replaced by
/// `operandExpression(operand)`.
static std::string
substituteOperands(std::string expression, Operation *op,
                   llvm::function_ref<std::string(Value)> operandExpression) {
  for (auto [index, operand] : llvm::enumerate(getDataOperands(op))) {
    std::string placeholder = "$" + std::to_string(index);
    std::string replacement = "(" + operandExpression(operand) + ")";
    for (size_t at = expression.find(placeholder); at != std::string::npos;
         at = expression.find(placeholder, at + replacement.size()))
      expression.replace(at, placeholder.size(), replacement);
  }
  return expression;
}

std::string
expressionOf(Operation *op,
             llvm::function_ref<std::string(Value)> operandExpression) {
  return substituteOperands(
      cast<ElementwiseExpressionOpInterface>(op).getElementwiseExpression(), op,
      operandExpression);
}

/// A splat constant of a 16-bit float type as a literal of that type.
static std::optional<std::string> getHalfSplatLiteral(Value value) {
  std::optional<APFloat> splat = getFloatSplat(value);
  Type type = getElementTypeOrSelf(value.getType());
  if (!splat || !isHalfFloat(type))
    return std::nullopt;
  return getHalfLiteral(*splat, type);
}

/// `op`'s expression in its 16-bit float result type, where it has one
/// (getHalfExpression) and reads only operands of that type.
static std::string
halfExpressionOf(Operation *op,
                 llvm::function_ref<std::string(Value)> operandHalf) {
  Type type = getElementTypeOrSelf(op->getResult(0).getType());
  std::string pattern =
      cast<ElementwiseExpressionOpInterface>(op).getHalfExpression();
  if (pattern.empty() || !isHalfFloat(type) ||
      !llvm::all_of(getDataOperands(op), [&](Value operand) {
        return getElementTypeOrSelf(operand.getType()) == type;
      }))
    return "";
  return substituteOperands(pattern, op, operandHalf);
}

std::string roundedTo(Type type, llvm::StringRef expression) {
  if (type.isF32())
    return expression.str();
  DeviceType device = *getDeviceType(type);
  return substitute(device.toFloat,
                    "(" + substitute(device.fromFloat, expression) + ")");
}

/// An i8 cast of a clamp computed in the same kernel with a finite lower
/// bound converts with the one saturating instruction: the clamp's fmaxf
/// (or __hmax) comes first and drops NaN, which prec_saturate_i8 otherwise
/// sends to -128, and below -128 the conversion saturates as it does. A
/// clamp whose lower bound is met (engine.met_lower_bound) has no fmaxf,
/// but its input is never NaN nor below that bound.
std::string CudaEmitter::storedConversion(Value value,
                                          llvm::StringRef r) const {
  auto cast = value.getDefiningOp<tosa::CastOp>();
  auto clamp = cast ? cast.getInput().getDefiningOp<tosa::ClampOp>() : nullptr;
  auto lower = clamp ? dyn_cast<FloatAttr>(clamp.getMinValAttr()) : nullptr;
  if (getElementTypeOrSelf(value.getType()).isInteger(8) && lower &&
      isFusedIntoUser(clamp) && lower.getValue().isFinite())
    return ("prec_round_i8(" + r + ")").str();
  return substitute(typeOf(value).fromFloat, r);
}

/// The offset o<n> of each input n read at a shape: the result's, or that
/// of a fused op before a reshape, whose coordinates come from the same flat
/// index split by that shape. Inputs read through ops that move elements
/// have offsets of their own.
std::string
CudaEmitter::readOffsets(ArrayRef<ElementLoad> inputs,
                         ArrayRef<int64_t> resultShape,
                         llvm::function_ref<bool(size_t)> isRead) const {
  llvm::MapVector<ArrayRef<int64_t>, SmallVector<size_t>> readers;
  readers[resultShape];
  for (auto [n, input] : llvm::enumerate(inputs))
    if (input.offset.empty() && (!isRead || isRead(n)))
      readers[input.readAt].push_back(n);
  std::string code;
  for (auto [index, reader] : llvm::enumerate(readers)) {
    auto &[readAt, names] = reader;
    SmallVector<ArrayRef<int64_t>> shapes;
    for (size_t n : names)
      shapes.push_back(shapeOf(inputs[n].value));
    code += broadcastOffsets(indexSpelling, readAt, shapes, names,
                             index ? "rem" + std::to_string(index) : "rem");
  }
  return code;
}

/// The coordinates at which an elementwise op at `coordinates` reads its
/// operand of `shape`: 0 along the dimensions it broadcasts.
static SmallVector<std::string>
broadcastCoordinates(const IndexSpelling &spelling,
                     ArrayRef<std::string> coordinates,
                     ArrayRef<int64_t> shape) {
  SmallVector<std::string> read(coordinates);
  for (auto [d, extent] : llvm::enumerate(shape))
    if (extent == 1)
      read[d] = spelling.literal(0);
  return read;
}

/// Where a fused expression reads a value: at the kernel's flat index split
/// by `shape`, or, below an op that moves elements, at `coordinates`, where
/// `guard` holds.
struct ElementPosition {
  ArrayRef<int64_t> shape;
  std::optional<SmallVector<std::string>> coordinates;
  std::string guard;
};

/// An element of a fused kernel as a float expression and, for a 16-bit
/// float value, as an expression of its type (empty for other types).
struct ElementExpression {
  std::string value, half;
};

using ValueExpression =
    llvm::function_ref<ElementExpression(Value, const ElementPosition &)>;

/// The expression of an op that moves elements, at `coordinates`: each
/// source's, read at its own coordinates where `guard` and its condition
/// (and no earlier source's) hold, chosen by the conditions.
static ElementExpression readThroughMap(ElementIndexMapOpInterface map,
                                        ArrayRef<std::string> coordinates,
                                        StringRef guard, ValueExpression read) {
  SmallVector<Value> sources = map.getElementSources();
  // A move keeps its sources' type: each has a half form, or none has.
  bool half = isHalfFloat(getElementTypeOrSelf(map->getResult(0).getType()));
  ElementExpression expression;
  std::string earlier;
  for (auto [n, source] : llvm::enumerate(sources)) {
    SmallVector<std::string> sourceCoordinates;
    std::string condition =
        map.getSourceCoordinates(n, coordinates, sourceCoordinates);
    std::string sourceGuard = guard.str();
    for (StringRef term : {StringRef(earlier), StringRef(condition)})
      if (!term.empty())
        sourceGuard += (sourceGuard.empty() ? "" : " && ") + term.str();
    ElementExpression element =
        read(source, {shapeOf(source), sourceCoordinates, sourceGuard});
    std::string choice = condition.empty() ? "" : "(" + condition + ") ? ";
    std::string otherwise = condition.empty() ? "" : " : ";
    expression.value += choice + "(" + element.value + ")" + otherwise;
    if (half)
      expression.half += choice + "(" + element.half + ")" + otherwise;
    if (condition.empty())
      break;
    earlier += (earlier.empty() ? "!(" : " && !(") + condition + ")";
  }
  return expression;
}

using OperandExpressions = llvm::DenseMap<Value, ElementExpression>;

/// `user`'s data operands' expressions, each built once, by value.
static OperandExpressions
buildOperands(Operation *user,
              llvm::function_ref<ElementExpression(Value)> build) {
  OperandExpressions expressions;
  for (Value operand : getDataOperands(user))
    if (!expressions.count(operand))
      expressions[operand] = build(operand);
  return expressions;
}

/// A 16-bit operand in its type: its own form, or its float rounded (exact:
/// it holds a value of that type).
static std::string halfOf(const ElementExpression &operand, Type type) {
  if (!operand.half.empty())
    return operand.half;
  return substitute(getDeviceType(type)->fromFloat, operand.value);
}

/// An op's element (ElementExpression), with its float expression before
/// rounding, and whether the half form computes it in its 16-bit type
/// rather than rounding that float expression.
struct ComputedElement {
  ElementExpression element;
  std::string unrounded;
  bool inOwnType = false;
};

/// `user`'s element from its operands': in its 16-bit type where the
/// hardware rounds exactly as the float expression rounded once would, else
/// the float expression rounded to the result's type.
static ComputedElement computeElement(Operation *user,
                                      const OperandExpressions &operands) {
  Type type = getElementTypeOrSelf(user->getResult(0).getType());
  ComputedElement computed;
  ElementExpression &element = computed.element;
  element.half = halfExpressionOf(user, [&](Value operand) {
    return halfOf(operands.lookup(operand), type);
  });
  computed.inOwnType = !element.half.empty();
  computed.unrounded = expressionOf(
      user, [&](Value operand) { return operands.lookup(operand).value; });
  if (!computed.inOwnType && isHalfFloat(type))
    element.half =
        substitute(getDeviceType(type)->fromFloat, computed.unrounded);
  element.value =
      element.half.empty()
          ? roundedTo(type, computed.unrounded)
          : substitute(getDeviceType(type)->toFloat, "(" + element.half + ")");
  return computed;
}

LogicalResult CudaEmitter::emitElementwise(Operation *op) {
  if (!isElementwise(op))
    return unsupported(op, "no kernel for this op yet");
  Value result = op->getResult(0);
  bool vectorized = getVectorLanes(op) > 1;
  // The values the fused expression reads from memory, each once per place
  // it is read at: the shape of the op reading it, which differs from the
  // result's where the kernel reads through a reshape, or coordinates below
  // an op that moves elements.
  SmallVector<ElementLoad> inputs;
  SmallVector<std::string> fusedNames;
  // An epilogue's outputs computed before the one being built, each read as
  // the element it holds for its store.
  llvm::DenseMap<Value, ElementExpression> storedElements;
  std::function<ElementExpression(Value, const ElementPosition &)>
      valueExpression =
          [&](Value value, const ElementPosition &at) -> ElementExpression {
    if (auto stored = storedElements.find(value);
        stored != storedElements.end()) {
      // prec-plan-kernels gives no epilogue a sibling reading its result
      // at other coordinates, which would load what the launch stores.
      assert(!at.coordinates && "an epilogue's output read through a move");
      return stored->second;
    }
    Operation *def = value.getDefiningOp();
    // An epilogue's convolution: its accumulator.
    if (isa_and_nonnull<tosa::Conv2DOp>(def) && isFusedIntoUser(def))
      return {substitute(typeOf(value).toFloat, "acc"), ""};
    if (def && isFusedIntoUser(def)) {
      Value source = def->getNumOperands() ? def->getOperand(0) : Value();
      if (isBufferAlias(def) && !at.coordinates)
        return valueExpression(source, {shapeOf(source)});
      SmallVector<std::string> coordinates =
          at.coordinates ? *at.coordinates
                         : delinearize(indexSpelling, "i", shapeOf(value));
      if (isBufferAlias(def))
        return valueExpression(
            source,
            {shapeOf(source),
             delinearize(indexSpelling,
                         linearize(indexSpelling, coordinates, shapeOf(value)),
                         shapeOf(source)),
             at.guard});
      std::string fusedName =
          (def->getName().getStringRef() + " " + getLayerName(def)).str();
      if (auto map = dyn_cast<ElementIndexMapOpInterface>(def)) {
        ElementExpression expression =
            readThroughMap(map, coordinates, at.guard, valueExpression);
        // Several ops of the kernel may read through one move.
        if (!llvm::is_contained(fusedNames, fusedName))
          fusedNames.push_back(fusedName);
        return expression;
      }
      ArrayRef<int64_t> shape = shapeOf(value);
      OperandExpressions operands = buildOperands(def, [&](Value operand) {
        if (!at.coordinates)
          return valueExpression(operand, {shape});
        return valueExpression(
            operand,
            {shapeOf(operand),
             broadcastCoordinates(indexSpelling, coordinates, shapeOf(operand)),
             at.guard});
      });
      fusedNames.push_back(fusedName);
      return computeElement(def, operands).element;
    }
    if (std::optional<std::string> literal = getSplatLiteral(value))
      return {*literal, getHalfSplatLiteral(value).value_or("")};
    ElementLoad input{value, at.shape, "", at.guard};
    if (at.coordinates)
      input.offset = linearize(indexSpelling, *at.coordinates, shapeOf(value));
    auto it = llvm::find(inputs, input);
    size_t index = it - inputs.begin();
    if (it == inputs.end())
      inputs.push_back(input);
    // 16-bit inputs are loaded as they are, and widened where read as float.
    bool half = isHalfFloat(getElementTypeOrSelf(value.getType()));
    return {
        "a" + std::to_string(index),
        half ? llvm::formatv(vectorized ? "v{0}[k][l]" : "v{0}[k]", index).str()
             : ""};
  };
  // Build each stored value's expression (with fused producers inlined):
  // an epilogue's in order, the launch's last.
  SmallVector<StoredElement> outputs;
  for (Value output : epilogueOutputs.lookup_or(op, {result})) {
    Operation *root = output.getDefiningOp();
    ComputedElement computed =
        computeElement(root, buildOperands(root, [&](Value operand) {
                         return valueExpression(operand, {shapeOf(output)});
                       }));
    outputs.push_back({output, computed.unrounded,
                       computed.inOwnType ? computed.element.half : ""});
    std::string held = llvm::formatv("w{0}[k]", storedElements.size()).str();
    bool half = isHalfFloat(getElementTypeOrSelf(output.getType()));
    storedElements[output] = {substitute(typeOf(output).toFloat, held),
                              half ? held : ""};
    if (output != result && failed(assignBuffer(output)))
      return failure();
  }
  if (tosa::Conv2DOp conv = epilogueConvs.lookup(op)) {
    printConvEpilogue(conv, outputs, inputs, fusedNames);
    return success();
  }
  printElementwiseKernel(op, inputs, fusedNames, outputs[0].expression,
                         outputs[0].half);
  return success();
}

const char *heldType(const ElementLoad &input) {
  Type type = getElementTypeOrSelf(input.value.getType());
  return isHeldAsStored(type) ? getDeviceType(type)->cType : "float";
}

std::string floatOfHeld(const ElementLoad &input, StringRef held) {
  Type type = getElementTypeOrSelf(input.value.getType());
  return isHeldAsStored(type) && !type.isF32()
             ? substitute(getDeviceType(type)->toFloat, held)
             : held.str();
}

std::string loadElement(const ElementLoad &input, size_t position) {
  Type element = getElementTypeOrSelf(input.value.getType());
  bool asStored = isHeldAsStored(element) && !element.isF32();
  DeviceType type = *getDeviceType(element);
  std::string load =
      input.offset.empty()
          ? llvm::formatv("in{0}[o{0}]", position).str()
          : llvm::formatv("in{0}[{1}]", position, input.offset).str();
  if (!asStored)
    load = substitute(type.toFloat, load);
  // A source of a concatenation is read only where it holds the element.
  if (!input.guard.empty())
    load = "(" + input.guard + ") ? " + load + " : " +
           (asStored ? std::string(type.cType) + "()" : "0.0f");
  return load;
}

/// The kernel of a fused elementwise chain ending at `op`: each thread loads
/// its elements of `inputs`, computes `expression` and stores it converted
/// to `op`'s type, or stores `half` (already of that type) where given.
void CudaEmitter::printElementwiseKernel(Operation *op,
                                         ArrayRef<ElementLoad> inputs,
                                         ArrayRef<std::string> fusedNames,
                                         StringRef expression, StringRef half) {
  Value result = op->getResult(0);
  std::string name = kernelName(op);
  DeviceType out = typeOf(result);
  std::string signature;
  for (auto [index, input] : llvm::enumerate(inputs))
    signature += llvm::formatv("const {0} *__restrict__ in{1}, ",
                               typeOf(input.value).cType, index);
  int64_t count = countOf(result);
  for (const std::string &fused : fusedNames)
    kernels += "// fused: " + fused + "\n";
  kernels += llvm::formatv("// {0} {1}\n__global__ void {2}({3}{4} "
                           "*__restrict__ out{5}) {{\n  prec_kernel_start();\n",
                           op->getName(), getLayerName(op), name, signature,
                           out.cType, countParameter(result));
  auto launchKernel = [&](int64_t elementsPerThread) {
    launch(op, name, count,
           llvm::map_to_vector(
               inputs, [](const ElementLoad &input) { return input.value; }),
           result, elementsPerThread);
  };
  if (int64_t lanes = getVectorLanes(op); lanes > 1) {
    kernels += printVectorElementwiseBody(op, inputs, expression, half);
    launchKernel(elementwiseUnroll * lanes);
    return;
  }
  // Each thread loads its elementwiseUnroll elements (256 apart, so warps
  // stay coalesced) before computing any: one element per thread leaves too
  // few loads in flight to reach the memory bandwidth.
  std::string loads, values;
  for (auto [position, input] : llvm::enumerate(inputs)) {
    loads += llvm::formatv("  {0} v{1}[{2}];\n", heldType(input), position,
                           elementwiseUnroll);
    values += llvm::formatv(
        "    float a{0} = {1};\n", position,
        floatOfHeld(input, llvm::formatv("v{0}[k]", position).str()));
  }
  kernels += loads;
  // The last block overruns the elements unless they fill every block.
  bool overruns = isBatched(result) || count % (256 * elementwiseUnroll) != 0;
  std::string bound = kernelBound(result, count);
  kernels += llvm::formatv(
      "  const {3} base = blockIdx.x * {0} + threadIdx.x;\n"
      "#pragma unroll\n"
      "  for (int k = 0; k < {1}; ++k) {{\n"
      "    {3} i = base + k * {4};\n{2}",
      indexSpelling.literal(256 * elementwiseUnroll), elementwiseUnroll,
      overruns ? llvm::formatv("    if (i >= {0}) break;\n", bound).str()
               : std::string(),
      indexSpelling.type(), indexSpelling.literal(256));
  kernels += readOffsets(inputs, shapeOf(result));
  for (auto [position, input] : llvm::enumerate(inputs))
    kernels += llvm::formatv("    v{0}[k] = {1};\n", position,
                             loadElement(input, position));
  kernels += llvm::formatv("  }\n"
                           "#pragma unroll\n"
                           "  for (int k = 0; k < {0}; ++k) {{\n"
                           "    {2} i = base + k * {3};\n{1}",
                           elementwiseUnroll,
                           overruns ? llvm::formatv("    if (i >= {0}) "
                                                    "return;\n",
                                                    bound)
                                          .str()
                                    : std::string(),
                           indexSpelling.type(), indexSpelling.literal(256));
  kernels += values;
  if (!half.empty()) {
    kernels += "    out[i] = " + half.str() + ";\n  }\n}\n\n";
  } else {
    kernels += "    float r = " + expression.str() + ";\n";
    kernels +=
        "    out[i] = " + storedConversion(result, "r") + ";\n  }\n}\n\n";
  }
  launchKernel(elementwiseUnroll);
}

/// The body of printElementwiseKernel's kernel where each thread takes
/// elementwiseUnroll runs of `lanes` consecutive elements
/// (engine.vector_bytes), 256 runs apart: float inputs read at their
/// reader's index (the result's, or before a reshape) load a run as one
/// vector of their width, the others element by element, and the run is
/// stored as one vector.
std::string
CudaEmitter::printVectorElementwiseBody(Operation *op,
                                        ArrayRef<ElementLoad> inputs,
                                        StringRef expression, StringRef half) {
  Value result = op->getResult(0);
  DeviceType out = typeOf(result);
  int64_t lanes = getVectorLanes(op), count = countOf(result);
  std::string vector = getVectorCType(op), index = indexSpelling.type().str();
  // A float input read at the result's index loads its run as one vector
  // of its own width (at most 16 bytes: the plan sizes runs by the widest).
  auto loadsVector = [&](const ElementLoad &input) {
    Type type = getElementTypeOrSelf(input.value.getType());
    return input.offset.empty() && input.guard.empty() &&
           shapeOf(input.value) == input.readAt &&
           isHeldAsStored(type);
  };
  std::string code, vectorLoads, elementLoads, values;
  for (auto [position, input] : llvm::enumerate(inputs)) {
    code += llvm::formatv("  __align__(16) {0} v{1}[{2}][{3}];\n",
                          heldType(input), position, elementwiseUnroll, lanes);
    values += llvm::formatv(
        "      float a{0} = {1};\n", position,
        floatOfHeld(input, llvm::formatv("v{0}[k][l]", position).str()));
    if (loadsVector(input)) {
      vectorLoads += llvm::formatv(
          "    *reinterpret_cast<{0} *>(v{1}[k]) = "
          "*reinterpret_cast<const {0} *>(in{1} + i0);\n",
          getVectorCTypeOfBytes(lanes * typeOf(input.value).bytes), position);
      continue;
    }
    elementLoads += llvm::formatv("      v{0}[k][l] = {1};\n", position,
                                  loadElement(input, position));
  }
  // Runs never straddle the end: the innermost extent divides by `lanes`.
  bool overruns =
      isBatched(result) || count % (256 * elementwiseUnroll * lanes) != 0;
  std::string bound = kernelBound(result, count);
  auto runStart = [&](StringRef leave) {
    std::string check =
        overruns
            ? llvm::formatv("    if (i0 >= {0}) {1};\n", bound, leave).str()
            : std::string();
    return llvm::formatv("    const {0} i0 = (base + k * {1}) * {2};\n", index,
                         indexSpelling.literal(256),
                         indexSpelling.literal(lanes))
               .str() +
           check;
  };
  code += llvm::formatv("  const {0} base = blockIdx.x * {1} + threadIdx.x;\n"
                        "#pragma unroll\n"
                        "  for (int k = 0; k < {2}; ++k) {{\n",
                        index, indexSpelling.literal(256 * elementwiseUnroll),
                        elementwiseUnroll);
  code += runStart("break") + vectorLoads;
  if (!elementLoads.empty())
    code += llvm::formatv("#pragma unroll\n"
                          "    for (int l = 0; l < {0}; ++l) {{\n"
                          "      const {1} i = i0 + l;\n",
                          lanes, index)
                .str() +
            readOffsets(inputs, shapeOf(result),
                        [&](size_t n) { return !loadsVector(inputs[n]); }) +
            elementLoads + "    }\n";
  code += llvm::formatv("  }\n"
                        "#pragma unroll\n"
                        "  for (int k = 0; k < {0}; ++k) {{\n",
                        elementwiseUnroll);
  code += runStart("return");
  code += llvm::formatv("    __align__(16) {0} w[{1}];\n"
                        "#pragma unroll\n"
                        "    for (int l = 0; l < {1}; ++l) {{\n"
                        "      [[maybe_unused]] const {2} i = i0 + l;\n",
                        out.cType, lanes, index);
  code += values;
  if (!half.empty())
    code += "      w[l] = " + half.str() + ";\n";
  else
    code += "      float r = " + expression.str() +
            ";\n      w[l] = " + storedConversion(result, "r") + ";\n";
  code += llvm::formatv("    }\n"
                        "    *reinterpret_cast<{0} *>(out + i0) = "
                        "*reinterpret_cast<const {0} *>(w);\n  }\n}\n\n",
                        vector);
  return code;
}

} // namespace prec::cuda
