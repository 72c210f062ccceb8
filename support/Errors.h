//===- Errors.h - errors for the user ---------------------------*- C++ -*-===//

#ifndef PREC_SUPPORT_ERRORS_H
#define PREC_SUPPORT_ERRORS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace prec {

/// An error carrying `message` for the user.
inline llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

} // namespace prec

#endif // PREC_SUPPORT_ERRORS_H
