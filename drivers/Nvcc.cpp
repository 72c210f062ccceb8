//===- Nvcc.cpp - compiling emitted engines with nvcc ---------------------===//

#include "drivers/Nvcc.h"

#include "support/Errors.h"

#include "dialects/Precision/PrecisionAttrs.h"
#include "dialects/Precision/PrecisionDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

namespace prec {

std::optional<std::string> findNvcc(llvm::StringRef requested) {
  if (!requested.empty()) {
    if (requested.contains('/'))
      return llvm::sys::fs::can_execute(requested)
                 ? std::optional<std::string>(requested.str())
                 : std::nullopt;
    if (llvm::ErrorOr<std::string> found =
            llvm::sys::findProgramByName(requested))
      return *found;
    return std::nullopt;
  }
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("nvcc"))
    return *found;
  if (llvm::ErrorOr<std::string> found =
          llvm::sys::findProgramByName("nvcc", {"/usr/local/cuda/bin"}))
    return *found;
  return std::nullopt;
}

llvm::Expected<std::string> requireNvcc(llvm::StringRef requested) {
  if (std::optional<std::string> nvcc = findNvcc(requested))
    return *nvcc;
  return makeError(requested.empty()
                       ? "nvcc is not on PATH nor in /usr/local/cuda/bin: "
                         "name it with --nvcc"
                       : "nvcc not found at '" + requested + "'");
}

std::string getNvccArch(mlir::ModuleOp module) {
  std::string target = "sm_90";
  if (auto policy = module->getAttrOfType<precision::PolicyAttr>(
          precision::PrecisionDialect::getPolicyAttrName()))
    target = policy.getTarget().str();
  return target == "sm_90" ? "sm_90a" : target;
}

llvm::Expected<std::vector<std::string>>
readManifestLibraries(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getFile(path);
  if (!text)
    return makeError("cannot read '" + path + "'");
  llvm::Expected<llvm::json::Value> manifest =
      llvm::json::parse((*text)->getBuffer());
  if (!manifest)
    return manifest.takeError();
  std::vector<std::string> libraries;
  llvm::json::Path::Root root;
  llvm::json::ObjectMapper mapper(*manifest, root);
  if (!mapper || !mapper.map("libraries", libraries))
    return makeError("'" + path + "' has no list of libraries");
  return libraries;
}

std::vector<std::string> nvccCommand(llvm::StringRef nvcc, llvm::StringRef arch,
                                     llvm::ArrayRef<std::string> arguments,
                                     llvm::ArrayRef<std::string> libraries) {
  std::vector<std::string> command = {nvcc.str(), "-O3", "-std=c++17",
                                      "-arch=" + arch.str()};
  command.insert(command.end(), arguments.begin(), arguments.end());
  for (const std::string &library : libraries)
    command.push_back("-l" + library);
  return command;
}

std::string quoteCommand(llvm::ArrayRef<std::string> command) {
  std::string line;
  for (const std::string &word : command) {
    if (!line.empty())
      line += ' ';
    bool plain = llvm::all_of(word, [](char c) {
      return llvm::isAlnum(c) || llvm::StringRef("-_=./,:+").contains(c);
    });
    if (plain) {
      line += word;
      continue;
    }
    line += '\'';
    for (char c : word)
      line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

llvm::Error execute(llvm::ArrayRef<std::string> command, llvm::StringRef log) {
  llvm::SmallVector<llvm::StringRef> arguments(command.begin(), command.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log, log};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(
      command.front(), arguments, std::nullopt, redirects, 0, 0, &message);
  if (status == 0)
    return llvm::Error::success();
  std::string output;
  if (auto text = llvm::MemoryBuffer::getFile(log))
    output = (*text)->getBuffer().take_back(4000).str();
  return makeError(
      quoteCommand(command) + " failed" +
      (message.empty() ? "" : " (" + message + ")") +
      (status > 0 ? " with exit code " + std::to_string(status) : "") +
      (output.empty() ? "" : ":\n" + output));
}

} // namespace prec
