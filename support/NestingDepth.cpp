//===- NestingDepth.cpp - a bound on nested brackets in input text --------===//

#include "support/NestingDepth.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "llvm/Support/MemoryBufferRef.h"

namespace prec {

llvm::Error checkNestingDepth(llvm::StringRef text, llvm::StringRef name) {
  // Bytecode has no brackets: its bytes are counts and indices.
  if (mlir::isBytecode(llvm::MemoryBufferRef(text, name)))
    return llvm::Error::success();
  unsigned depth = 0, line = 1;
  size_t lineStart = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    char next = i + 1 < e ? text[i + 1] : '\0';
    switch (c) {
    case '\n':
      ++line;
      lineStart = i + 1;
      break;
    case '"': // a string literal, with backslash escapes
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/': // a comment to the end of the line
      if (next == '/')
        while (i + 1 < e && text[i + 1] != '\n')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (c == '<' && next == '=')
        break;
      if (++depth > kMaxNestingDepth)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            (name.empty() ? "line " + llvm::Twine(line) + ", column "
                          : name + ":" + llvm::Twine(line) + ":") +
                llvm::Twine(i - lineStart + 1) + ": brackets nest more than " +
                llvm::Twine(kMaxNestingDepth) + " deep");
      break;
    case ')':
    case ']':
    case '}':
    case '>':
      if (c == '>' && ((i > 0 && text[i - 1] == '-') || next == '='))
        break;
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return llvm::Error::success();
}

} // namespace prec
