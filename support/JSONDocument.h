//===- JSONDocument.h - JSON text read safely -------------------*- C++ -*-===//

#ifndef PREC_SUPPORT_JSONDOCUMENT_H
#define PREC_SUPPORT_JSONDOCUMENT_H

#include "support/Errors.h"
#include "support/NestingDepth.h"

#include "llvm/Support/JSON.h"

namespace prec {

/// `text` parsed as JSON. Its nesting is checked first, since llvm::json's
/// parser recurses once per level; errors are "line L, column C: brackets
/// nest more than 256 deep" or "not valid JSON: ...".
inline llvm::Expected<llvm::json::Value>
parseJSONDocument(llvm::StringRef text) {
  if (llvm::Error error = checkNestingDepth(text, ""))
    return error;
  llvm::Expected<llvm::json::Value> document = llvm::json::parse(text);
  if (!document)
    return makeError("not valid JSON: " + llvm::toString(document.takeError()));
  return document;
}

} // namespace prec

#endif // PREC_SUPPORT_JSONDOCUMENT_H
