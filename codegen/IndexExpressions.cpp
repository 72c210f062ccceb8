//===- IndexExpressions.cpp - C index arithmetic of coordinates -----------===//

#include "codegen/CudaEmitterImpl.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace prec::cuda {

SmallVector<std::string> delinearize(const IndexSpelling &spelling,
                                     StringRef flat, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides = computeStrides(shape);
  const int64_t *outermost =
      llvm::find_if(shape, [](int64_t d) { return d != 1; });
  SmallVector<std::string> coordinates;
  for (auto [d, extent] : llvm::enumerate(shape)) {
    if (extent == 1) {
      coordinates.push_back(spelling.literal(0));
      continue;
    }
    std::string coordinate = flat.str();
    if (strides[d] != 1)
      coordinate =
          "(" + coordinate + " / " + spelling.literal(strides[d]) + ")";
    if (&shape[d] != outermost)
      coordinate = "(" + coordinate + " % " + spelling.literal(extent) + ")";
    coordinates.push_back(coordinate);
  }
  return coordinates;
}

std::string linearize(const IndexSpelling &spelling,
                      ArrayRef<std::string> coordinates,
                      ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides = computeStrides(shape);
  std::string flat;
  for (auto [d, extent] : llvm::enumerate(shape)) {
    if (extent == 1)
      continue;
    if (!flat.empty())
      flat += " + ";
    flat += strides[d] == 1
                ? coordinates[d]
                : coordinates[d] + " * " + spelling.literal(strides[d]);
  }
  return flat.empty() ? spelling.literal(0) : "(" + flat + ")";
}

} // namespace prec::cuda
