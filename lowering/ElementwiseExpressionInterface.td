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
  ];
}

#endif // PREC_LOWERING_ELEMENTWISE_EXPRESSION_INTERFACE_TD
