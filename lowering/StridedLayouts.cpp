//===- StridedLayouts.cpp - indices through reshapes, transposes, tiles ---===//

#include "lowering/StridedLayouts.h"

#include "dialects/Utils/Shapes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace prec {

namespace {

using Strides = SmallVector<std::optional<int64_t>>;

/// The strides of a row-major tensor of shape `shape`.
Strides getContiguousStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides = computeStrides(shape);
  return Strides(strides.begin(), strides.end());
}

/// One part re-expressed as mapIndex does, outermost first.
std::optional<StridedIndex> mapPart(StridedPart part, ArrayRef<int64_t> from,
                                    ArrayRef<std::optional<int64_t>> to) {
  if (part.size == 1)
    return StridedIndex{{1, 0}};
  if (part.stride == 0)
    return StridedIndex{part};
  SmallVector<int64_t> strides = computeStrides(from);
  StridedIndex innerFirst;
  int64_t size = part.size, stride = part.stride;
  while (true) {
    // The dimension the part's first step lands in.
    int64_t d = 0;
    while (d < int64_t(from.size()) && (from[d] == 1 || stride < strides[d] ||
                                        stride >= strides[d] * from[d]))
      ++d;
    if (d == int64_t(from.size()) || stride % strides[d] != 0 || !to[d])
      return std::nullopt;
    int64_t step = stride / strides[d];
    if (size * step <= from[d]) {
      innerFirst.push_back({size, *to[d] * step});
      break;
    }
    // The part carries into the dimensions outside d: split it there.
    int64_t inside = from[d] / step;
    if (from[d] % step != 0 || size % inside != 0)
      return std::nullopt;
    innerFirst.push_back({inside, *to[d] * step});
    size /= inside;
    stride = strides[d] * from[d];
  }
  return StridedIndex(llvm::reverse(innerFirst));
}

} // namespace

std::optional<StridedIndex> mapIndex(const StridedIndex &index,
                                     ArrayRef<int64_t> from,
                                     ArrayRef<std::optional<int64_t>> to) {
  StridedIndex mapped;
  for (StridedPart part : index) {
    std::optional<StridedIndex> parts = mapPart(part, from, to);
    if (!parts)
      return std::nullopt;
    llvm::append_range(mapped, *parts);
  }
  return mapped;
}

StridedIndex simplify(const StridedIndex &index) {
  StridedIndex simple;
  for (StridedPart part : index) {
    if (part.size == 1)
      continue;
    if (!simple.empty() && simple.back().stride == part.stride * part.size) {
      simple.back() = {simple.back().size * part.size, part.stride};
      continue;
    }
    simple.push_back(part);
  }
  return simple;
}

std::optional<Strides> getInputStrides(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<Strides>>(op)
      .Case<tosa::ReshapeOp, tosa::IdentityOp>([](Operation *alias) {
        // One flat order: the result's index moves as it does in itself.
        return getContiguousStrides(shapeOf(alias->getResult(0)));
      })
      .Case<tosa::TransposeOp>([](tosa::TransposeOp transpose) {
        SmallVector<int64_t> input =
            computeStrides(shapeOf(transpose.getInput1()));
        Strides strides;
        for (int32_t perm : transpose.getPerms())
          strides.push_back(input[perm]);
        return strides;
      })
      .Case<tosa::TileOp>([](tosa::TileOp tile) {
        ArrayRef<int64_t> input = shapeOf(tile.getInput1()),
                          result = shapeOf(tile.getResult());
        SmallVector<int64_t> inputStrides = computeStrides(input);
        Strides strides;
        for (auto [d, size] : llvm::enumerate(input))
          strides.push_back(size == 1 ? std::optional<int64_t>(0)
                            : size == result[d]
                                ? std::optional<int64_t>(inputStrides[d])
                                : std::nullopt);
        return strides;
      })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<Strides> getResultStrides(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<Strides>>(op)
      .Case<tosa::ReshapeOp, tosa::IdentityOp>([](Operation *alias) {
        return getContiguousStrides(shapeOf(alias->getOperand(0)));
      })
      .Case<tosa::TransposeOp>([](tosa::TransposeOp transpose) {
        SmallVector<int64_t> result =
            computeStrides(shapeOf(transpose.getResult()));
        Strides strides(result.size());
        for (auto [d, perm] : llvm::enumerate(transpose.getPerms()))
          strides[perm] = result[d];
        return strides;
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace prec
