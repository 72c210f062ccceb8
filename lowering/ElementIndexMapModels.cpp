//===- ElementIndexMapModels.cpp - how TOSA's copies map elements ---------===//
//
// For each op that only moves elements: where an element of its result comes
// from, as C index expressions of the result element's coordinates.
//
//===----------------------------------------------------------------------===//

#include "lowering/ElementIndexMapInterface.h"

#include "dialects/Utils/Shapes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

#include "lowering/ElementIndexMapInterface.cpp.inc"

namespace prec {
namespace {

std::string plus(const std::string &coordinate, int64_t offset) {
  if (offset == 0)
    return coordinate;
  return "(" + coordinate + (offset > 0 ? " + " : " - ") +
         std::to_string(std::abs(offset)) + ")";
}

/// Result dimension d is the input's dimension perms[d].
struct TransposeMap
    : ElementIndexMapOpInterface::ExternalModel<TransposeMap,
                                                tosa::TransposeOp> {
  SmallVector<Value> getElementSources(Operation *op) const {
    return {cast<tosa::TransposeOp>(op).getInput1()};
  }
  std::string getSourceCoordinates(Operation *op, unsigned,
                                   ArrayRef<std::string> coordinates,
                                   SmallVectorImpl<std::string> &source) const {
    ArrayRef<int32_t> perms = cast<tosa::TransposeOp>(op).getPerms();
    source.assign(coordinates.size(), "");
    for (auto [d, perm] : llvm::enumerate(perms))
      source[perm] = coordinates[d];
    return "";
  }
};

/// The result's element at c is the input's at c + start.
struct SliceMap
    : ElementIndexMapOpInterface::ExternalModel<SliceMap, tosa::SliceOp> {
  static std::optional<SmallVector<int64_t>> getStart(Operation *op) {
    SmallVector<int64_t> start;
    if (!tosa::getConstShapeValues(
            cast<tosa::SliceOp>(op).getStart().getDefiningOp(), start))
      return std::nullopt;
    return start;
  }
  SmallVector<Value> getElementSources(Operation *op) const {
    if (!getStart(op))
      return {};
    return {cast<tosa::SliceOp>(op).getInput1()};
  }
  std::string getSourceCoordinates(Operation *op, unsigned,
                                   ArrayRef<std::string> coordinates,
                                   SmallVectorImpl<std::string> &source) const {
    SmallVector<int64_t> start = *getStart(op);
    source.clear();
    for (auto [d, coordinate] : llvm::enumerate(coordinates))
      source.push_back(plus(coordinate, start[d]));
    return "";
  }
};

/// Input n holds the result's elements along the axis from the sum of the
/// earlier inputs' extents, up to its own end.
struct ConcatMap
    : ElementIndexMapOpInterface::ExternalModel<ConcatMap, tosa::ConcatOp> {
  SmallVector<Value> getElementSources(Operation *op) const {
    return llvm::to_vector(cast<tosa::ConcatOp>(op).getInput1());
  }
  std::string
  getSourceCoordinates(Operation *op, unsigned source,
                       ArrayRef<std::string> coordinates,
                       SmallVectorImpl<std::string> &sourceCoords) const {
    auto concat = cast<tosa::ConcatOp>(op);
    int64_t axis = concat.getAxis(), begin = 0;
    for (Value input : concat.getInput1().take_front(source))
      begin += shapeOf(input)[axis];
    int64_t end = begin + shapeOf(concat.getInput1()[source])[axis];
    sourceCoords.assign(coordinates.begin(), coordinates.end());
    sourceCoords[axis] = plus(coordinates[axis], -begin);
    if (source + 1 == concat.getInput1().size())
      return "";
    return coordinates[axis] + " < " + std::to_string(end);
  }
};

/// The result repeats the input along each dimension: c modulo its extent.
struct TileMap
    : ElementIndexMapOpInterface::ExternalModel<TileMap, tosa::TileOp> {
  SmallVector<Value> getElementSources(Operation *op) const {
    return {cast<tosa::TileOp>(op).getInput1()};
  }
  std::string getSourceCoordinates(Operation *op, unsigned,
                                   ArrayRef<std::string> coordinates,
                                   SmallVectorImpl<std::string> &source) const {
    auto tile = cast<tosa::TileOp>(op);
    ArrayRef<int64_t> in = shapeOf(tile.getInput1()), out = shapeOf(tile);
    source.clear();
    for (auto [d, coordinate] : llvm::enumerate(coordinates))
      source.push_back(in[d] == out[d] ? coordinate
                                       : "(" + coordinate + " % " +
                                             std::to_string(in[d]) + ")");
    return "";
  }
};

/// Along the axis, the result's c is the input's extent - 1 - c.
struct ReverseMap
    : ElementIndexMapOpInterface::ExternalModel<ReverseMap, tosa::ReverseOp> {
  SmallVector<Value> getElementSources(Operation *op) const {
    return {cast<tosa::ReverseOp>(op).getInput1()};
  }
  std::string getSourceCoordinates(Operation *op, unsigned,
                                   ArrayRef<std::string> coordinates,
                                   SmallVectorImpl<std::string> &source) const {
    auto reverse = cast<tosa::ReverseOp>(op);
    int64_t axis = reverse.getAxis();
    source.assign(coordinates.begin(), coordinates.end());
    source[axis] = "(" + std::to_string(shapeOf(reverse)[axis] - 1) + " - " +
                   coordinates[axis] + ")";
    return "";
  }
};

} // namespace

void registerElementIndexMapModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tosa::TosaDialect *) {
    tosa::TransposeOp::attachInterface<TransposeMap>(*context);
    tosa::SliceOp::attachInterface<SliceMap>(*context);
    tosa::ConcatOp::attachInterface<ConcatMap>(*context);
    tosa::TileOp::attachInterface<TileMap>(*context);
    tosa::ReverseOp::attachInterface<ReverseMap>(*context);
  });
}

} // namespace prec
