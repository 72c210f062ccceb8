//===- ElementwiseExpressionInterface.td - CUDA expressions -*- tablegen -*-===//

#ifndef PREC_LOWERING_ELEMENTWISE_EXPRESSION_INTERFACE_TD
#define PREC_LOWERING_ELEMENTWISE_EXPRESSION_INTERFACE_TD

include "mlir/IR/OpBase.td"

def ElementwiseExpressionOpInterface
    : OpInterface<"ElementwiseExpressionOpInterface"> {
  let cppNamespace = "::prec";
  let description = [{
    An op the CUDA emitter computes element by element, as a float
    expression it can fuse with its producers' and users'. The expression
    names the op's data operands (PrecisionOpInterface::getDataOperands) as
    `$0`, `$1`, ... and rounds as the CPU execution does. The TOSA, arith and
    math ops that have one get it as external models
    (lowering/ElementwiseExpressionModels.cpp).
  }];
  let methods = [
    InterfaceMethod<
      [{The CUDA float expression of one element, e.g. `__fadd_rn($0, $1)`.}],
      "std::string", "getElementwiseExpression">,
    InterfaceMethod<
      [{The same element computed in its 16-bit float type (f16, bf16) on
        operands of that type, e.g. `__hadd_rn($0, $1)`, where the hardware's
        operation rounds exactly as the float expression rounded once to
        that type does: IEEE addition, subtraction, multiplication and
        negation, for which f32's 24 bits make rounding twice innocuous;
        and a clamp, whose bounds are exact in the type. Empty where there
        is none.}],
      "std::string", "getHalfExpression", (ins), [{}],
      [{ return std::string(); }]>,
  ];
}

#endif // PREC_LOWERING_ELEMENTWISE_EXPRESSION_INTERFACE_TD
