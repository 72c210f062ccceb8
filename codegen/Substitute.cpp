//===- Substitute.cpp - a device type's pattern applied to a value --------===//

#include "codegen/CudaEmitterImpl.h"

namespace prec::cuda {

std::string substitute(llvm::StringRef pattern, llvm::StringRef value) {
  std::string result = pattern.str();
  size_t at = result.find('x');
  // Patterns hold one `x` standing for the operand.
  while (at != std::string::npos) {
    bool standalone = (at == 0 || !isalnum(result[at - 1])) &&
                      (at + 1 == result.size() || !isalnum(result[at + 1]));
    if (standalone) {
      result.replace(at, 1, value.str());
      at = result.find('x', at + value.size());
    } else {
      at = result.find('x', at + 1);
    }
  }
  return result;
}

} // namespace prec::cuda
