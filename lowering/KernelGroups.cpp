//===- KernelGroups.cpp - the kernels an engine plan records --------------===//

#include "lowering/KernelGroups.h"

#include "lowering/RowGroups.h"

using namespace mlir;

namespace prec {

SmallVector<Value> KernelGroup::getOutputs() const {
  if (kind == engine::KernelKind::Rows)
    return getRowGroupOutputs(ops);
  Value launched =
      getLaunch()->getNumResults() == 1 ? getLaunch()->getResult(0) : Value();
  if (kind != engine::KernelKind::Epilogue)
    return launched ? SmallVector<Value>{launched} : SmallVector<Value>{};
  SmallVector<Value> outputs = getRowGroupOutputs(ops);
  if (!llvm::is_contained(outputs, launched))
    outputs.push_back(launched);
  return outputs;
}

llvm::MapVector<int64_t, KernelGroup> getKernelGroups(Block &body) {
  llvm::MapVector<int64_t, KernelGroup> groups;
  if (body.empty())
    return groups;
  auto kernelAttr = engine::EngineDialect::get(body.front().getContext())
                        .getKernelAttrHelper();
  for (Operation &op : body)
    if (engine::KernelAttr kernel = kernelAttr.getAttr(&op)) {
      KernelGroup &group = groups[kernel.getIndex()];
      group.kind = kernel.getKind();
      group.ops.push_back(&op);
    }
  return groups;
}

} // namespace prec
