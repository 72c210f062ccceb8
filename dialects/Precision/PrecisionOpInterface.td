//===- PrecisionOpInterface.td - what prec knows of an op --*- tablegen -*-===//

#ifndef PREC_PRECISION_OP_INTERFACE_TD
#define PREC_PRECISION_OP_INTERFACE_TD

include "mlir/IR/OpBase.td"

def Precision_PrecisionOpInterface : OpInterface<"PrecisionOpInterface"> {
  let cppNamespace = "::prec::precision";
  let description = [{
    Everything prec's precision passes know about an op, in one place: its
    op class (which the built-in rules, plans and reports speak of), whether
    it accumulates and where its TOSA form holds the accumulate type, whether
    it can be quantized, which operands carry data, and how it transforms
    value ranges. TOSA, arith and math ops get it as external models
    (dialects/ExternalModels); an op without it is of class `other`, has
    unknown result ranges and assigns no precision.
  }];
  let methods = [
    InterfaceMethod<
      "The class precision rules, plans and reports speak of.",
      "::prec::OpClass", "getOpClass">,
    InterfaceMethod<
      [{Whether the op sums many products or values, so that its accumulate
        type matters: contractions and summing reductions.}],
      "bool", "accumulates", (ins), "", "return false;">,
    InterfaceMethod<
      [{Whether the op can run in i8 or f8 on per-tensor scaled operands
        (prec-quantize): its first operand is the activation calibration
        observes, its second the constant weights.}],
      "bool", "isQuantizable", (ins), "", "return false;">,
    InterfaceMethod<
      [{Where the op's TOSA form holds the type it accumulates in: nowhere,
        its result, its operand or an `acc_type` attribute.}],
      "::prec::AccumulatorForm", "getAccumulatorForm", (ins), "",
      "return ::prec::AccumulatorForm::None;">,
    InterfaceMethod<
      [{The operands that carry the tensor data the op computes on, in the
        order its elementwise expression numbers them; not attributes passed
        as operands (a multiply's shift, a negate's zero points).}],
      "::llvm::SmallVector<::mlir::Value>", "getDataOperands", (ins), "",
      "return ::prec::getTensorOperands($_op);">,
    InterfaceMethod<
      [{A bound of every element of the op's results, given a bound of each
        operand's elements (`operandRanges`, one per operand) and the values
        of constant operands (`constants`).}],
      "::prec::Interval", "inferResultRange",
      (ins "::llvm::ArrayRef<::prec::Interval>":$operandRanges,
           "::prec::ConstantValues &":$constants),
      "", "return ::prec::Interval::unknown();">,
  ];
}

#endif // PREC_PRECISION_OP_INTERFACE_TD
