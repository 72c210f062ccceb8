//===- ElementIndexMapInterface.td - ops that only move elements -*- tablegen -*-===//

#ifndef PREC_LOWERING_ELEMENT_INDEX_MAP_INTERFACE_TD
#define PREC_LOWERING_ELEMENT_INDEX_MAP_INTERFACE_TD

include "mlir/IR/OpBase.td"

def ElementIndexMapOpInterface : OpInterface<"ElementIndexMapOpInterface"> {
  let cppNamespace = "::prec";
  let description = [{
    An op that computes nothing: each element of its result is an element of
    one of its sources, at coordinates given by the result element's. A
    fused elementwise kernel reads through it instead of a kernel copying
    the elements. The coordinates are C index expressions. The TOSA ops that
    have one get it as external models (lowering/ElementIndexMapModels.cpp).
  }];
  let methods = [
    InterfaceMethod<
      [{The tensors the result's elements come from, in the order their
        conditions are tried; none when the map is not known at compile
        time (a slice whose start is not a constant shape).}],
      "::llvm::SmallVector<::mlir::Value>", "getElementSources">,
    InterfaceMethod<
      [{Sets `sourceCoordinates` to the coordinates, in source `source`, of
        the result element at `coordinates`. Returns the condition (a C
        expression) under which that element comes from this source; empty
        where it does whenever no earlier source's condition holds.}],
      "std::string", "getSourceCoordinates",
      (ins "unsigned":$source,
           "::llvm::ArrayRef<std::string>":$coordinates,
           "::llvm::SmallVectorImpl<std::string> &":$sourceCoordinates)>,
  ];
}

#endif // PREC_LOWERING_ELEMENT_INDEX_MAP_INTERFACE_TD
