//===- ops/Indexing.cpp - Gather, GatherElements, GatherND --------------===//

#include "import/ImporterImpl.h"

namespace prec::onnx_import {

LogicalResult Importer::importGather() {
  FailureOr<Value> data = input(0);
  if (failed(data))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*data);
  int64_t rank = shape.size();
  int64_t axis = intAttribute("axis", 0);
  if (failed(normalizeAxis(axis, rank)))
    return failure();
  if (!getKnown(1))
    return importRuntimeGather(*data, axis);
  FailureOr<std::vector<int64_t>> indices = getKnownInts(1, "indices");
  if (failed(indices))
    return failure();
  std::optional<KnownTensor> indexTensor = getKnown(1);
  // tosa.gather works on [N, K, C] values and [N, W] indices: fold the
  // dimensions before the axis into N and those after into C.
  int64_t outer = product(shape.take_front(axis));
  int64_t inner = product(shape.drop_front(axis + 1));
  std::vector<double> wrapped;
  for (int64_t index : *indices) {
    if (index < -shape[axis] || index >= shape[axis])
      return fail() << "index " << index << " is out of range for dimension "
                    << shape[axis];
    wrapped.push_back(index < 0 ? index + shape[axis] : index);
  }
  int64_t count = wrapped.size();
  // The indices are repeated for each of the outer rows: bound the constant.
  constexpr int64_t maxTiledIndices = int64_t(1) << 24;
  if (outer > maxTiledIndices / std::max<int64_t>(count, 1))
    return fail() << "gathering " << count << " indices from " << outer
                  << " rows needs more than " << maxTiledIndices << " indices";
  std::vector<double> tiledIndices;
  for (int64_t n = 0; n < outer; ++n)
    tiledIndices.insert(tiledIndices.end(), wrapped.begin(), wrapped.end());
  Value values = reshape(*data, {outer, shape[axis], inner});
  Value gathered = build<tosa::GatherOp>(
      tensorOf({outer, count, inner}, elementOf(*data)), values,
      constant({outer, count}, builder.getI32Type(), tiledIndices));
  SmallVector<int64_t> resultShape(shape.take_front(axis));
  resultShape.append(indexTensor->shape.begin(), indexTensor->shape.end());
  resultShape.append(shape.begin() + axis + 1, shape.end());
  setOutput(0, reshape(gathered, resultShape));
  return success();
}

/// Gather with indices known at run time (embeddings of `input_ids`): the
/// indices wrap when negative and are clamped into the dimension, so that no
/// index reads outside the data.
LogicalResult Importer::importRuntimeGather(Value data, int64_t axis) {
  FailureOr<Value> indices = input(1);
  if (failed(indices))
    return failure();
  Type indexType = elementOf(*indices);
  if (!indexType.isInteger(64) && !indexType.isInteger(32))
    return fail() << "indices (input #1) must be int64 or int32, not "
                  << indices->getType();
  ArrayRef<int64_t> shape = shapeOf(data);
  int64_t outer = product(shape.take_front(axis));
  int64_t inner = product(shape.drop_front(axis + 1));
  int64_t extent = shape[axis];
  int64_t count = product(shapeOf(*indices));
  Value positions = wrapIndices(reshape(*indices, {1, count}), extent);
  if (outer > 1)
    positions =
        build<tosa::TileOp>(tensorOf({outer, count}, builder.getI32Type()),
                            positions, constShape({outer, 1}));
  Value gathered =
      build<tosa::GatherOp>(tensorOf({outer, count, inner}, elementOf(data)),
                            reshape(data, {outer, extent, inner}), positions);
  SmallVector<int64_t> resultShape(shape.take_front(axis));
  llvm::append_range(resultShape, shapeOf(*indices));
  resultShape.append(shape.begin() + axis + 1, shape.end());
  setOutput(0, reshape(gathered, resultShape));
  return success();
}

/// Run-time indices into a dimension of `extent` as i32, wrapped when
/// negative and clamped into the dimension, so that none reads outside it.
Value Importer::wrapIndices(Value indices, int64_t extent) {
  Type i32 = builder.getI32Type();
  ArrayRef<int64_t> shape = shapeOf(indices);
  int64_t rank = shape.size();
  if (!elementOf(indices).isInteger(32))
    indices = build<tosa::CastOp>(tensorOf(shape, i32), indices);
  Value negative = build<tosa::GreaterOp>(tensorOf(shape, builder.getI1Type()),
                                          scalar(i32, 0, rank), indices);
  Value shifted = binary<tosa::AddOp>(indices, scalar(i32, extent, rank), i32);
  Value wrapped =
      build<tosa::SelectOp>(indices.getType(), negative, shifted, indices);
  return clampValue(wrapped, 0, extent - 1);
}

/// Rows of `data` viewed as [1, rows, inner], picked by `positions` (i32,
/// [1, count]) and shaped `shape`: the one tosa.gather the gathers share.
Value Importer::gatherRows(Value data, int64_t rows, int64_t inner,
                           Value positions, ArrayRef<int64_t> shape) {
  int64_t count = shapeOf(positions)[1];
  Value gathered =
      build<tosa::GatherOp>(tensorOf({1, count, inner}, elementOf(data)),
                            reshape(data, {1, rows, inner}), positions);
  return reshape(gathered, shape);
}

/// GatherElements: out[p] = data[p with p[axis] = indices[p]], as a gather
/// of single elements at flat offsets computed from the indices.
LogicalResult Importer::importGatherElements() {
  FailureOr<Value> data = input(0), indices = input(1);
  if (failed(data) || failed(indices))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*data), indexShape = shapeOf(*indices);
  int64_t rank = shape.size();
  int64_t axis = intAttribute("axis", 0);
  if (failed(normalizeAxis(axis, rank)))
    return failure();
  if (int64_t(indexShape.size()) != rank)
    return fail() << "indices " << indices->getType()
                  << " must have the rank of the data " << data->getType();
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && indexShape[d] > shape[d])
      return fail() << "indices " << indices->getType() << " exceed the data "
                    << data->getType() << " outside the axis";
  if (product(shape) > std::numeric_limits<int32_t>::max())
    return fail() << "the data has more elements than i32 offsets reach";
  SmallVector<int64_t> strides = computeStrides(shape);
  int64_t count = product(indexShape), extent = shape[axis];
  // Each element's offset without its axis coordinate.
  std::vector<double> base(count);
  SmallVector<int64_t> index(rank, 0);
  for (int64_t flat = 0; flat < count; ++flat) {
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        base[flat] += double(index[d] * strides[d]);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < indexShape[d])
        break;
      index[d] = 0;
    }
  }
  Type i32 = builder.getI32Type();
  Value offsets;
  if (std::optional<KnownTensor> known = getKnown(1)) {
    std::vector<double> flat = base;
    for (int64_t i = 0; i < count; ++i) {
      double position = known->values[i];
      if (position < -extent || position >= extent)
        return fail() << "index " << position
                      << " is out of range for dimension " << extent;
      flat[i] += (position < 0 ? position + extent : position) * strides[axis];
    }
    offsets = constant({1, count}, i32, flat);
  } else {
    Value positions = wrapIndices(reshape(*indices, {1, count}), extent);
    Value scaled = mul(positions, scalar(i32, strides[axis], 2));
    offsets = binary<tosa::AddOp>(scaled, constant({1, count}, i32, base), i32);
  }
  setOutput(0, gatherRows(*data, product(shape), 1, offsets, indexShape));
  return success();
}

/// GatherND: each index tuple (after the batch dimensions) picks a row of
/// the trailing dimensions, at an offset computed at import when the
/// indices are known (checked there) and at run time otherwise (wrapped
/// and clamped, as Gather's).
LogicalResult Importer::importGatherND() {
  FailureOr<Value> data = input(0);
  if (failed(data))
    return failure();
  std::optional<KnownTensor> known = getKnown(1);
  FailureOr<Value> indices = known ? FailureOr<Value>(Value()) : input(1);
  if (failed(indices))
    return failure();
  ArrayRef<int64_t> shape = shapeOf(*data);
  ArrayRef<int64_t> indexShape =
      known ? ArrayRef<int64_t>(known->shape) : shapeOf(*indices);
  int64_t batch = intAttribute("batch_dims", 0);
  if (indexShape.empty() || batch < 0 || batch >= int64_t(indexShape.size()) ||
      indexShape.back() < 1 ||
      batch + indexShape.back() > int64_t(shape.size()) ||
      shape.take_front(batch) != indexShape.take_front(batch))
    return fail() << "indices with batch_dims " << batch
                  << " do not fit the data " << data->getType();
  int64_t depth = indexShape.back();
  int64_t rows = product(shape.take_front(batch + depth));
  if (rows > std::numeric_limits<int32_t>::max())
    return fail() << "the data has more rows than i32 offsets reach";
  ArrayRef<int64_t> indexed = shape.slice(batch, depth);
  int64_t tuples = product(indexShape.drop_back());
  // The first row of each tuple's batch.
  std::vector<double> batchRows(tuples);
  int64_t tuplesPerBatch = product(indexShape.drop_back().drop_front(batch));
  for (int64_t t = 0; t < tuples; ++t)
    batchRows[t] = double((t / tuplesPerBatch) * product(indexed));
  FailureOr<Value> offsets =
      known ? knownRowOffsets(*known, indexed, batchRows)
            : runtimeRowOffsets(*indices, indexed, batchRows);
  if (failed(offsets))
    return failure();
  SmallVector<int64_t> resultShape(indexShape.drop_back());
  llvm::append_range(resultShape, shape.drop_front(batch + depth));
  setOutput(0, gatherRows(*data, rows, product(shape.drop_front(batch + depth)),
                          *offsets, resultShape));
  return success();
}

/// GatherND's row offsets ([1, tuples], i32) from indices known at import.
FailureOr<Value> Importer::knownRowOffsets(const KnownTensor &indices,
                                           ArrayRef<int64_t> indexed,
                                           std::vector<double> rows) {
  SmallVector<int64_t> strides = computeStrides(indexed);
  int64_t depth = indexed.size();
  for (size_t t = 0; t < rows.size(); ++t) {
    for (int64_t k = 0; k < depth; ++k) {
      double position = indices.values[t * depth + k];
      if (position < -indexed[k] || position >= indexed[k]) {
        fail() << "index " << position << " is out of range for dimension "
               << indexed[k];
        return failure();
      }
      rows[t] += (position < 0 ? position + indexed[k] : position) *
                 double(strides[k]);
    }
  }
  return constant({1, int64_t(rows.size())}, builder.getI32Type(), rows);
}

/// GatherND's row offsets ([1, tuples], i32) computed at run time: the
/// batch's first row plus each index component, wrapped, times its stride.
FailureOr<Value> Importer::runtimeRowOffsets(Value indices,
                                             ArrayRef<int64_t> indexed,
                                             ArrayRef<double> batchRows) {
  Type indexType = elementOf(indices);
  if (!indexType.isInteger(64) && !indexType.isInteger(32)) {
    fail() << "indices (input #1) must be int64 or int32, not "
           << indices.getType();
    return failure();
  }
  Type i32 = builder.getI32Type();
  int64_t tuples = batchRows.size(), depth = indexed.size();
  SmallVector<int64_t> strides = computeStrides(indexed);
  Value components = reshape(indices, {tuples, depth});
  Value rows = constant({tuples, 1}, i32, batchRows);
  for (int64_t k = 0; k < depth; ++k) {
    Value position = wrapIndices(sliceAxis(components, 1, k, 1), indexed[k]);
    rows = binary<tosa::AddOp>(
        rows, mul(position, scalar(i32, double(strides[k]), 2)), i32);
  }
  return reshape(rows, {1, tuples});
}

} // namespace prec::onnx_import
