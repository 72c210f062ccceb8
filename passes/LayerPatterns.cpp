//===- LayerPatterns.cpp - <pattern>:<type> option entries ----------------===//

#include "passes/LayerPatterns.h"

#include "dialects/Precision/PrecisionTypes.h"

#include "llvm/Support/Error.h"

using namespace mlir;

namespace prec {

FailureOr<NamePattern>
compileGlob(StringRef pattern, StringRef what,
            function_ref<InFlightDiagnostic()> emitError) {
  if (pattern.empty()) {
    emitError() << what << " has an empty pattern";
    return failure();
  }
  llvm::Expected<NamePattern> glob = NamePattern::create(pattern);
  if (!glob) {
    emitError() << what << " has a malformed pattern '" << pattern
                << "': " << llvm::toString(glob.takeError());
    return failure();
  }
  return std::move(*glob);
}

FailureOr<std::vector<LayerPattern>>
parseLayerPatterns(ArrayRef<std::string> entries, StringRef optionName,
                   MLIRContext *context,
                   function_ref<InFlightDiagnostic()> emitError) {
  std::vector<LayerPattern> patterns;
  for (StringRef entry : entries) {
    // Names may contain ':' (ONNX names often do): the type follows the last.
    size_t colon = entry.rfind(':');
    if (colon == StringRef::npos) {
      emitError() << optionName << " entry '" << entry
                  << "' is not <pattern>:<type>";
      return failure();
    }
    StringRef pattern = entry.take_front(colon);
    StringRef typeName = entry.drop_front(colon + 1);
    Type type = precision::parsePrecisionType(context, typeName);
    if (!type) {
      emitError() << optionName << " entry '" << entry
                  << "' names unknown precision '" << typeName << "'; expected "
                  << precision::getPrecisionTypeSpellings();
      return failure();
    }
    std::string what = (optionName + " entry '" + entry + "'").str();
    FailureOr<NamePattern> glob = compileGlob(pattern, what, emitError);
    if (failed(glob))
      return failure();
    patterns.push_back({std::move(*glob), type});
  }
  return patterns;
}

} // namespace prec
