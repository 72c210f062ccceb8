//===- Elements.h - tensors known at import, held as attributes -*- C++ -*-===//
//
// The importer holds every tensor it knows (initializers, Constant values,
// folded results) once, as the ElementsAttr its tosa.const will carry: large
// float tensors as resource blobs, the rest as dense attributes. Reshapes
// share the data; transposes and slices of weights write new attributes.
// The folding evaluator works on doubles, so a tensor it reads is decoded
// for that node only.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_IMPORT_ELEMENTS_H
#define PREC_IMPORT_ELEMENTS_H

#include "import/Folding.h"

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APSInt.h"

namespace prec::onnx_import {

/// The element type of an ONNX TensorProto data type, or null for types
/// prec does not import.
mlir::Type getElementType(mlir::MLIRContext *context, int dataType);

/// getElementType, and f64 for DOUBLE: a known tensor keeps its doubles
/// until it becomes a constant, which is f32.
mlir::Type getKnownElementType(mlir::MLIRContext *context, int dataType);

/// The ONNX data type of an element type getKnownElementType returns.
int getDataType(mlir::Type element);

/// Float tensors with more elements than this become resource blobs: quick
/// to import, not uniqued, not printed.
inline constexpr int64_t kBlobThreshold = 1024;

/// The attribute of `type` holding `bytes`, laid out as in memory (little
/// endian, one byte per boolean).
mlir::ElementsAttr elementsFromBytes(mlir::RankedTensorType type,
                                     llvm::ArrayRef<char> bytes);

/// The attribute of `type` holding `values`, each rounded to the element
/// type (floats to nearest even, integers toward zero and saturated).
mlir::ElementsAttr elementsFromDoubles(mlir::RankedTensorType type,
                                       llvm::ArrayRef<double> values);

/// `elements` decoded for the folding evaluator.
KnownTensor toKnownTensor(mlir::ElementsAttr elements);

/// `elements` as `tensor`'s attribute: of its data type, or of `element`
/// when given (how ONNX's DOUBLE tensors become f32 constants).
mlir::ElementsAttr toElements(const KnownTensor &tensor,
                              mlir::MLIRContext *context,
                              mlir::Type element = {});

/// The data a constant holds for `elements`: DOUBLE's become f32, the rest
/// stay as held.
mlir::ElementsAttr asConstantData(mlir::ElementsAttr elements);

/// The same data seen with `shape` (as many elements): no copy.
mlir::ElementsAttr reshapeElements(mlir::ElementsAttr elements,
                                   llvm::ArrayRef<int64_t> shape);

/// A new attribute of `shape` whose element i is element `sourceIndex(i)`
/// of `elements` (asked for each i in increasing order): transposes and
/// slices.
mlir::ElementsAttr
rearrangeElements(mlir::ElementsAttr elements, llvm::ArrayRef<int64_t> shape,
                  llvm::function_ref<int64_t(int64_t)> sourceIndex);

/// rearrangeElements for a transpose: result axis d is axis
/// `permutation[d]` of `elements`.
mlir::ElementsAttr transposeElements(mlir::ElementsAttr elements,
                                     llvm::ArrayRef<int32_t> permutation);

/// Rows `first` to `first + count` of `elements` along its first axis.
mlir::ElementsAttr leadingSlice(mlir::ElementsAttr elements, int64_t first,
                                int64_t count);

} // namespace prec::onnx_import

#endif // PREC_IMPORT_ELEMENTS_H
