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

std::optional<SmallVector<std::optional<int64_t>>>
getInputStrides(Operation *op) {
  using Strides = SmallVector<std::optional<int64_t>>;
  return llvm::TypeSwitch<Operation *, std::optional<Strides>>(op)
      .Case<tosa::ReshapeOp, tosa::IdentityOp>([](Operation *alias) -> Strides {
        // One flat order: the result's index moves as it does in itself.
        SmallVector<int64_t> strides =
            computeStrides(shapeOf(alias->getResult(0)));
        return Strides(strides.begin(), strides.end());
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

std::optional<SmallVector<std::optional<int64_t>>>
getResultStrides(Operation *op) {
  using Strides = SmallVector<std::optional<int64_t>>;
  return llvm::TypeSwitch<Operation *, std::optional<Strides>>(op)
      .Case<tosa::ReshapeOp, tosa::IdentityOp>([](Operation *alias) -> Strides {
        SmallVector<int64_t> strides =
            computeStrides(shapeOf(alias->getOperand(0)));
        return Strides(strides.begin(), strides.end());
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
