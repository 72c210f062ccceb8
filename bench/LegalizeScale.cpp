//===- LegalizeScale.cpp - how prec-legalize scales with graph size -------===//
//
// Generates chains of 1k, 10k, 100k and 300k TOSA ops (matmuls with constant
// weights, adds, muls, tanh, ReLU clamps, each named), runs the whole
// prec-legalize pipeline on each (best of three) as the tools run it, with
// one verification at the end, and prints ops per second and the time ratios
// 100k / 10k (10 is linear) and 300k / 100k (3 is linear; past 100k ops the
// IR no longer fits in cache either way). Beside it: the time when the IR is
// verified after every pass, as prec-opt does by default, and MLIR's
// verifier alone on the same chain, whose ratios show what the machine's
// caches cost any linear walk over IR of that size.
//
// `prec-bench-legalize --timing N` instead runs the pipeline once on N ops
// and prints each pass's time (the pass manager's timing report), with the
// final verification timed beside the passes.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "registration/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

using namespace mlir;

/// A chain of `numOps` ops on a 1x16x16 activation.
static std::string generateChain(int numOps) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const char *type = "tensor<1x16x16xf32>";
  os << "func.func @chain(%x: " << type << " loc(\"x\")) -> " << type << " {\n";
  os << "  %w = \"tosa.const\"() <{values = dense<0.0625> : " << type
     << "}> : () -> " << type << "\n";
  os << "  %c = \"tosa.const\"() <{values = dense<0.5> : " << type
     << "}> : () -> " << type << "\n";
  os << "  %zp = \"tosa.const\"() <{values = dense<0.0> : tensor<1xf32>}> : "
        "() -> tensor<1xf32>\n";
  os << "  %shift = \"tosa.const\"() <{values = dense<0> : tensor<1xi8>}> : "
        "() -> tensor<1xi8>\n";
  std::string previous = "%x";
  for (int i = 0; i < numOps; ++i) {
    std::string value = "%v" + std::to_string(i);
    os << "  " << value << " = ";
    switch (i % 5) {
    case 0:
      os << "tosa.matmul " << previous << ", %w, %zp, %zp : (" << type << ", "
         << type << ", tensor<1xf32>, tensor<1xf32>) -> " << type;
      break;
    case 1:
      os << "tosa.add " << previous << ", %c : (" << type << ", " << type
         << ") -> " << type;
      break;
    case 2:
      os << "tosa.mul " << previous << ", %c, %shift : (" << type << ", "
         << type << ", tensor<1xi8>) -> " << type;
      break;
    case 3:
      os << "tosa.tanh " << previous << " : (" << type << ") -> " << type;
      break;
    case 4:
      os << "tosa.clamp " << previous
         << " {max_val = 3.40282347e+38 : f32, min_val = 0.0 : f32} : (" << type
         << ") -> " << type;
      break;
    }
    os << " loc(\"op" << i << "\")\n";
    previous = value;
  }
  os << "  return " << previous << " : " << type << "\n}\n";
  return text;
}

/// A fresh context with `numOps` ops parsed into `module`, so that no run
/// pays for what an earlier one uniqued. Diagnostics (range remarks) are not
/// what is measured.
static OwningOpRef<ModuleOp> parseChain(MLIRContext &context, int numOps) {
  context.loadAllAvailableDialects();
  context.getDiagEngine().registerHandler(
      [](Diagnostic &) { return success(); });
  std::string source = generateChain(numOps);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&context));
  if (!module) {
    llvm::errs() << "failed to parse the generated chain\n";
    std::exit(1);
  }
  return module;
}

/// The options every run uses.
static std::unique_ptr<prec::LegalizePipelineOptions> benchOptions() {
  std::unique_ptr<prec::LegalizePipelineOptions> options =
      prec::LegalizePipelineOptions::createFromString(
          "enabled=f16 val-range=x:[-1,1] layer-precisions=op1*:f32 "
          "target=sm_90");
  if (!options) {
    llvm::errs() << "bad pipeline options\n";
    std::exit(1);
  }
  return options;
}

/// What is timed: the pipeline as the tools run it (runLegalizePipeline: one
/// verification at the end), the pipeline verifying after every pass
/// (prec-opt), or MLIR's verifier alone on the parsed chain: a walk that
/// does some work on every op and allocates nothing, so its growth from 10k
/// to 100k ops is what this machine's caches alone cost a linear pass.
enum class Run { Pipeline, VerifyingEveryPass, VerifierAlone };

/// Seconds `run` takes on a chain of `numOps` ops, in a fresh context so
/// that no run pays for what an earlier one uniqued.
static double timeRun(const DialectRegistry &registry, int numOps, Run run) {
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  OwningOpRef<ModuleOp> module = parseChain(context, numOps);
  std::unique_ptr<prec::LegalizePipelineOptions> options = benchOptions();
  // The pass manager that verifies after every pass is built before the
  // clock starts, as runLegalizePipeline builds its own inside.
  PassManager everyPass(&context);
  if (run == Run::VerifyingEveryPass)
    prec::buildLegalizePipeline(everyPass, *options);
  auto start = std::chrono::steady_clock::now();
  LogicalResult result =
      run == Run::Pipeline ? prec::runLegalizePipeline(*module, *options)
      : run == Run::VerifyingEveryPass ? everyPass.run(*module)
                                       : verify(*module);
  auto end = std::chrono::steady_clock::now();
  if (failed(result)) {
    llvm::errs() << "the run failed on " << numOps << " ops\n";
    std::exit(1);
  }
  return std::chrono::duration<double>(end - start).count();
}

/// Runs the pipeline once on `numOps` ops as runLegalizePipeline does, and
/// prints each pass's time and the final verification's.
static int printPassTimes(const DialectRegistry &registry, int numOps) {
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  OwningOpRef<ModuleOp> module = parseChain(context, numOps);
  DefaultTimingManager timing;
  timing.setEnabled(true);
  timing.setOutput(createOutputStrategy(
      DefaultTimingManager::OutputFormat::Text, llvm::outs()));
  TimingScope root = timing.getRootScope();
  PassManager pm(&context);
  pm.enableVerifier(false);
  TimingScope passes = root.nest("Passes");
  pm.enableTiming(passes);
  prec::buildLegalizePipeline(pm, *benchOptions());
  if (failed(pm.run(*module))) {
    llvm::errs() << "prec-legalize failed on " << numOps << " ops\n";
    return 1;
  }
  passes.stop();
  TimingScope verification = root.nest("Verification");
  if (failed(verify(*module))) {
    llvm::errs() << "the legalized chain of " << numOps
                 << " ops does not verify\n";
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  DialectRegistry registry;
  prec::registerAllDialects(registry);
  prec::registerAllPasses();
  if (argc == 3 && std::string(argv[1]) == "--timing") {
    char *end = nullptr;
    long numOps = std::strtol(argv[2], &end, 10);
    if (*end == '\0' && numOps > 0 && numOps <= 10000000)
      return printPassTimes(registry, static_cast<int>(numOps));
    llvm::errs() << "--timing takes a number of ops from 1 to 10000000, not '"
                 << argv[2] << "'\n";
    return 1;
  }
  if (argc != 1) {
    llvm::errs() << "usage: prec-bench-legalize [--timing OPS]\n";
    return 1;
  }

  std::printf("%10s %12s %14s %22s %16s\n", "ops", "seconds", "ops/second",
              "verifying every pass", "verifier alone");
  std::map<int, double> seconds, verifier;
  for (int numOps : {1000, 10000, 100000, 300000}) {
    double best = 1e30, everyPass = 1e30, verifierAlone = 1e30;
    for (int r = 0; r < 3; ++r) {
      best = std::min(best, timeRun(registry, numOps, Run::Pipeline));
      everyPass = std::min(everyPass,
                           timeRun(registry, numOps, Run::VerifyingEveryPass));
      verifierAlone = std::min(verifierAlone,
                               timeRun(registry, numOps, Run::VerifierAlone));
    }
    std::printf("%10d %12.4f %14.0f %20.4f s %14.4f s\n", numOps, best,
                numOps / best, everyPass, verifierAlone);
    seconds[numOps] = best;
    verifier[numOps] = verifierAlone;
  }
  std::printf("time ratio 100k / 10k: %.2f (10 is linear; the verifier "
              "alone: %.2f)\n",
              seconds[100000] / seconds[10000],
              verifier[100000] / verifier[10000]);
  std::printf("time ratio 300k / 100k: %.2f (3 is linear; the verifier "
              "alone: %.2f)\n",
              seconds[300000] / seconds[100000],
              verifier[300000] / verifier[100000]);
  return 0;
}
