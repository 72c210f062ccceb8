//===- Folding.h - ONNX nodes evaluated at import time ----------*- C++ -*-===//
//
// Input shapes are static, so exporters' shape computations (Shape, Gather,
// Concat, Reshape ...), masks built from shapes alone (causal masks: Range,
// Less, Where ...) and arithmetic on initializers are values the importer
// can compute. This evaluator is the one place that computes them, as
// onnx-mlir keeps its constant propagation: the importer asks it first, and
// only what it cannot fold becomes IR.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_IMPORT_FOLDING_H
#define PREC_IMPORT_FOLDING_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <onnx/onnx_pb.h>

#include <optional>
#include <vector>

namespace prec {

/// A tensor known at import time: an initializer, a Constant's value, a
/// folded node. Values are held as doubles (exact for every type prec
/// imports, except int64 beyond 2^53), rounded to `dataType`.
struct KnownTensor {
  std::vector<int64_t> shape;
  std::vector<double> values;
  int dataType = onnx::TensorProto::FLOAT;
};

/// The number of elements of `shape`, saturated at INT64_MAX: a malformed
/// model's dimensions must not overflow it (size checks then refuse it).
int64_t product(llvm::ArrayRef<int64_t> shape);

/// `value` rounded toward zero to an integer of `width` bits, saturated at
/// the type's bounds (NaN gives 0): casting an out-of-range double, such as
/// an int64 initializer's INT64_MAX after its trip through double, is
/// undefined.
llvm::APSInt toInteger(double value, unsigned width, bool isUnsigned);

/// `value` as an int64, saturated: INT64_MAX, which exporters write for "to
/// the end", rounds to 2^63 as a double.
int64_t toInt64(double value);

/// Numpy broadcasting of two shapes; failure if incompatible.
mlir::FailureOr<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// One axis of an ONNX Slice: the first index taken and how many, after
/// ONNX's clamping (negative indices count from the end; a negative step
/// starts at most at the last element and ends at least before the first).
/// A count of 0 is an empty slice; `stride` is |step|, or 1 when at most
/// one element is taken (a step may be far larger than the axis).
struct SliceAxis {
  int64_t begin = 0, count = 0, stride = 1;
};
SliceAxis resolveSliceAxis(int64_t start, int64_t end, int64_t step,
                           int64_t dim);

/// The most elements a folded result may have: larger ones stay IR.
inline constexpr int64_t kMaxFoldedElements = int64_t(1) << 22;

/// What the evaluator may read of the graph: the data of known tensors, and
/// the static shape of any value (Shape and Size need nothing more).
struct FoldEnvironment {
  llvm::function_ref<const KnownTensor *(llvm::StringRef)> known;
  llvm::function_ref<std::optional<llvm::SmallVector<int64_t>>(llvm::StringRef)>
      shape;
};

/// Whether the evaluator knows `opType`.
bool isFoldable(llvm::StringRef opType);

/// Evaluates `node` (of a foldable op type, at `opset`) when every input it
/// reads is known. Returns its outputs; none when it cannot be folded (an
/// input only known at run time, a result over kMaxFoldedElements); an
/// error saying what is wrong with a malformed node.
llvm::Expected<std::vector<KnownTensor>>
foldNode(const onnx::NodeProto &node, int64_t opset,
         const FoldEnvironment &environment);

} // namespace prec

#endif // PREC_IMPORT_FOLDING_H
