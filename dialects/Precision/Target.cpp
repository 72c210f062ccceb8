//===- Target.cpp - names of the targets prec compiles for ----------------===//

#include "dialects/Precision/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"

namespace prec::precision {

// Compute capabilities of shipped NVIDIA GPUs from Maxwell's sm_53 (the
// first with f16 arithmetic) on.
static constexpr unsigned kKnownComputeCapabilities[] = {
    53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 120, 121};

std::optional<Target> parseTarget(llvm::StringRef name) {
  if (name == "cpu")
    return Target{};
  if (!name.consume_front("sm_"))
    return std::nullopt;
  name.consume_back("a");
  unsigned capability = 0;
  if (name.getAsInteger(10, capability) ||
      !llvm::is_contained(kKnownComputeCapabilities, capability))
    return std::nullopt;
  return Target{capability};
}

llvm::StringRef getTargetSpellings() {
  return "cpu, sm_53, sm_60, sm_61, sm_62, sm_70, sm_72, sm_75, sm_80, "
         "sm_86, sm_87, sm_89, sm_90, sm_100, sm_101, sm_103, sm_120, sm_121 "
         "(an 'a' suffix is accepted)";
}

} // namespace prec::precision
