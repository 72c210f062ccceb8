//===- ConstantValues.h - constant tensors read as doubles ------*- C++ -*-===//
//
// Range transfers bound contractions from their constant weights. A weight
// shared by many ops is read once per analysis, through one ConstantValues.
//
//===----------------------------------------------------------------------===//

#ifndef PREC_DIALECTS_PRECISION_CONSTANTVALUES_H
#define PREC_DIALECTS_PRECISION_CONSTANTVALUES_H

#include "mlir/IR/Value.h"

#include <optional>
#include <unordered_map>
#include <vector>

namespace prec {

class ConstantValues {
public:
  /// The elements of `value` as doubles when it is a constant prec can read
  /// (a dense or f32 resource tosa.const or arith.constant, through casts);
  /// null otherwise. The vector lives as long as this object.
  const std::vector<double> *lookup(mlir::Value value);

private:
  // Node-based: pointers handed out stay valid as entries are added.
  std::unordered_map<const void *, std::optional<std::vector<double>>> read;
};

} // namespace prec

#endif // PREC_DIALECTS_PRECISION_CONSTANTVALUES_H
