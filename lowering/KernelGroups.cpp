//===- KernelGroups.cpp - the kernels an engine plan records --------------===//

#include "lowering/KernelGroups.h"

using namespace mlir;

namespace prec {

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
