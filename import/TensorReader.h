//===- TensorReader.h - ONNX TensorProtos to attributes ---------*- C++ -*-===//
//
// Reads an initializer or a Constant's tensor, its data inline or in an
// external file beside the model, straight into the ElementsAttr the
// importer keeps: the bytes are copied once and never pass through doubles.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_IMPORT_TENSORREADER_H
#define PREC_IMPORT_TENSORREADER_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/Location.h"

#include <onnx/onnx_pb.h>

namespace prec::onnx_import {

/// The most elements one tensor may have: bounds the memory an initializer
/// takes and keeps the sizes derived from shapes far from overflowing.
inline constexpr int64_t maxElements = int64_t(1) << 34;

/// `tensor`'s data as an attribute (DOUBLE as f64), or an error at
/// `location` naming the tensor. External data must lie in the folder of
/// `modelPath`.
mlir::FailureOr<mlir::ElementsAttr> readTensor(const onnx::TensorProto &tensor,
                                               llvm::StringRef modelPath,
                                               mlir::Location location);

} // namespace prec::onnx_import

#endif // PREC_IMPORT_TENSORREADER_H
