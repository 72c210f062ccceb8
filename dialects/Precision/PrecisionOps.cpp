//===- PrecisionOps.cpp - precision dialect ops ---------------------------===//

#include "dialects/Precision/PrecisionOps.h"

#include "dialects/Precision/PrecisionTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace prec::precision;

//===----------------------------------------------------------------------===//
// RegionOp
//===----------------------------------------------------------------------===//

void RegionOp::build(OpBuilder &builder, OperationState &state,
                     TypeRange resultTypes, ValueRange inputs, Type precision) {
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  state.addAttribute(getPrecisionAttrName(state.name),
                     TypeAttr::get(precision));
  auto *block = new Block();
  for (Value input : inputs)
    block->addArgument(input.getType(), input.getLoc());
  state.addRegion()->push_back(block);
}

YieldOp RegionOp::getYield() {
  return cast<YieldOp>(getBodyBlock().getTerminator());
}

void RegionOp::getSuccessorRegions(RegionBranchPoint point,
                                   SmallVectorImpl<RegionSuccessor> &regions) {
  if (point.isParent())
    regions.emplace_back(&getBody(), getBodyBlock().getArguments());
  else
    regions.emplace_back(getOperation(), getResults());
}

OperandRange RegionOp::getEntrySuccessorOperands(RegionSuccessor) {
  return getInputs();
}

/// Parses `[lo, hi]` into the two attributes named `minName` and `maxName`.
static ParseResult parseRange(OpAsmParser &parser, OperationState &state,
                              StringAttr minName, StringAttr maxName) {
  double lo = 0, hi = 0;
  if (parser.parseLSquare() || parser.parseFloat(lo) || parser.parseComma() ||
      parser.parseFloat(hi) || parser.parseRSquare())
    return failure();
  Builder &builder = parser.getBuilder();
  state.addAttribute(minName, builder.getF64FloatAttr(lo));
  state.addAttribute(maxName, builder.getF64FloatAttr(hi));
  return success();
}

ParseResult RegionOp::parse(OpAsmParser &parser, OperationState &state) {
  OperationName name = state.name;
  Type precision;
  if (parser.parseType(precision))
    return failure();
  state.addAttribute(getPrecisionAttrName(name), TypeAttr::get(precision));

  SMLoc modeLoc = parser.getCurrentLocation();
  StringRef modeKeyword;
  if (succeeded(parser.parseOptionalKeyword(&modeKeyword,
                                            {"obey", "prefer", "none"}))) {
    std::optional<ConstraintMode> mode = symbolizeConstraintMode(modeKeyword);
    if (!mode)
      return parser.emitError(modeLoc, "unknown constraint mode");
    state.addAttribute(getModeAttrName(name),
                       ConstraintModeAttr::get(parser.getContext(), *mode));
  }
  for (auto [keyword, attrName] :
       {std::pair{"accumulate", getAccumulateAttrName(name)},
        std::pair{"output", getOutputAttrName(name)}}) {
    if (failed(parser.parseOptionalKeyword(keyword)))
      continue;
    Type type;
    if (parser.parseType(type))
      return failure();
    state.addAttribute(attrName, TypeAttr::get(type));
  }
  if (succeeded(parser.parseOptionalKeyword("input_range")) &&
      parseRange(parser, state, getInputMinAttrName(name),
                 getInputMaxAttrName(name)))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("output_range")) &&
      parseRange(parser, state, getOutputMinAttrName(name),
                 getOutputMaxAttrName(name)))
    return failure();

  SmallVector<OpAsmParser::Argument> bodyArguments;
  SmallVector<OpAsmParser::UnresolvedOperand> inputs;
  SmallVector<Type> inputTypes;
  SMLoc inputsLoc = parser.getCurrentLocation();
  auto parseBinding = [&]() -> ParseResult {
    OpAsmParser::Argument &argument = bodyArguments.emplace_back();
    if (parser.parseArgument(argument) || parser.parseEqual() ||
        parser.parseOperand(inputs.emplace_back()) ||
        parser.parseColonType(argument.type))
      return failure();
    inputTypes.push_back(argument.type);
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                     parseBinding) ||
      parser.resolveOperands(inputs, inputTypes, inputsLoc, state.operands) ||
      parser.parseOptionalArrowTypeList(state.types))
    return failure();

  Region *body = state.addRegion();
  if (parser.parseRegion(*body, bodyArguments) ||
      parser.parseOptionalAttrDictWithKeyword(state.attributes))
    return failure();
  return success();
}

void RegionOp::print(OpAsmPrinter &printer) {
  SmallVector<StringRef> printedAttrs = {
      getPrecisionAttrName(), getModeAttrName(), getAccumulateAttrName(),
      getOutputAttrName()};
  printer << ' ' << getPrecision();
  if (std::optional<ConstraintMode> mode = getMode())
    printer << ' ' << stringifyConstraintMode(*mode);
  if (std::optional<Type> accumulate = getAccumulate())
    printer << " accumulate " << *accumulate;
  if (std::optional<Type> output = getOutput())
    printer << " output " << *output;
  auto printRange = [&](StringRef keyword, FloatAttr lo, FloatAttr hi,
                        StringRef loName, StringRef hiName) {
    if (!lo || !hi)
      return;
    printer << ' ' << keyword << " [";
    printer.printFloat(lo.getValue());
    printer << ", ";
    printer.printFloat(hi.getValue());
    printer << ']';
    printedAttrs.append({loName, hiName});
  };
  printRange("input_range", getInputMinAttr(), getInputMaxAttr(),
             getInputMinAttrName(), getInputMaxAttrName());
  printRange("output_range", getOutputMinAttr(), getOutputMaxAttr(),
             getOutputMinAttrName(), getOutputMaxAttrName());

  printer << " (";
  llvm::interleaveComma(llvm::zip(getBodyBlock().getArguments(), getInputs()),
                        printer, [&](auto binding) {
                          auto [argument, input] = binding;
                          printer << argument << " = " << input << " : "
                                  << input.getType();
                        });
  printer << ')';
  printer.printOptionalArrowTypeList(getResultTypes());
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs(), printedAttrs);
}

/// Prints a range end the way users write it (6, -0.125, inf, nan).
static std::string formatRangeEnd(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%g", value);
  return text;
}

/// Checks one dynamic range: both ends given, finite, ordered.
static LogicalResult verifyRange(RegionOp op, StringRef name, FloatAttr lo,
                                 FloatAttr hi) {
  if (!lo && !hi)
    return success();
  if (!lo || !hi)
    return op.emitOpError() << name << " needs both a minimum and a maximum";
  double low = lo.getValueAsDouble(), high = hi.getValueAsDouble();
  if (!std::isfinite(low) || !std::isfinite(high))
    return op.emitOpError() << name << " [" << formatRangeEnd(low) << ", "
                            << formatRangeEnd(high) << "] is not finite";
  if (low > high)
    return op.emitOpError()
           << name << " minimum " << formatRangeEnd(low)
           << " is greater than its maximum " << formatRangeEnd(high);
  return success();
}

LogicalResult RegionOp::verify() {
  Type precision = getPrecision();
  if (!isPrecisionType(precision))
    return emitOpError() << "precision " << precision << " is not one of "
                         << getPrecisionTypeSpellings();

  if (std::optional<Type> accumulate = getAccumulate()) {
    if (!isa<FloatType>(precision))
      return emitOpError() << "accumulate type " << *accumulate
                           << " given for non-float precision " << precision
                           << " (i8 always accumulates in i32)";
    if (!isa<FloatType>(*accumulate) || !isPrecisionType(*accumulate))
      return emitOpError() << "accumulate type " << *accumulate
                           << " is not a float precision type";
    if (!canRepresentAllValues(*accumulate, precision))
      return emitOpError() << "accumulate type " << *accumulate
                           << " is narrower than precision " << precision
                           << ": it cannot hold every " << precision
                           << " value";
  }
  if (std::optional<Type> output = getOutput();
      output && !isPrecisionType(*output))
    return emitOpError() << "output type " << *output << " is not one of "
                         << getPrecisionTypeSpellings();

  bool hasAnyRange = getInputMinAttr() || getInputMaxAttr() ||
                     getOutputMinAttr() || getOutputMaxAttr();
  if (hasAnyRange && !isQuantizedPrecision(precision))
    return emitOpError() << "dynamic ranges apply only to i8 and f8 "
                            "precisions, not to "
                         << precision;
  if (failed(verifyRange(*this, "input_range", getInputMinAttr(),
                         getInputMaxAttr())) ||
      failed(verifyRange(*this, "output_range", getOutputMinAttr(),
                         getOutputMaxAttr())))
    return failure();

  Block &body = getBodyBlock();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError() << "body has " << body.getNumArguments()
                         << " arguments but the region has "
                         << getInputs().size() << " operands";
  for (auto [index, argument, input] :
       llvm::enumerate(body.getArguments(), getInputs())) {
    if (argument.getType() != input.getType())
      return emitOpError() << "body argument #" << index << " has type "
                           << argument.getType() << " but operand #" << index
                           << " has type " << input.getType();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  auto region = cast<RegionOp>((*this)->getParentOp());
  TypeRange resultTypes = region.getResultTypes();
  if (getValues().size() != resultTypes.size())
    return emitOpError() << "yields " << getValues().size()
                         << " values but the enclosing precision.region has "
                         << resultTypes.size() << " results";
  for (auto [index, value, resultType] :
       llvm::enumerate(getValues(), resultTypes)) {
    if (value.getType() != resultType)
      return emitOpError() << "yielded value #" << index << " has type "
                           << value.getType() << " but region result #" << index
                           << " has type " << resultType;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

LogicalResult CastOp::verify() {
  auto inputType = cast<RankedTensorType>(getInput().getType());
  auto resultType = cast<RankedTensorType>(getResult().getType());
  for (auto [role, type] :
       {std::pair{"input", inputType}, std::pair{"result", resultType}}) {
    if (!isa<FloatType, IntegerType>(type.getElementType()))
      return emitOpError() << role << " element type " << type.getElementType()
                           << " is neither a float nor an integer";
  }
  if (inputType.getShape() != resultType.getShape())
    return emitOpError() << "input type " << inputType << " and result type "
                         << resultType << " differ in shape";
  return success();
}

prec::OpClass CastOp::getOpClass() { return prec::OpClass::Cast; }

prec::Interval CastOp::inferResultRange(ArrayRef<prec::Interval> operandRanges,
                                        prec::ConstantValues &) {
  return operandRanges[0];
}

#define GET_OP_CLASSES
#include "dialects/Precision/PrecisionOps.cpp.inc"
