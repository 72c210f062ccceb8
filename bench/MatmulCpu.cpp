//===- MatmulCpu.cpp - the CPU path's matmul against its peers ------------===//
//
// JIT-compiles a 1024x1024x1024 f32 tosa.matmul through prec-lower-to-cpu,
// which hands it to OpenBLAS on every core (prec-blas-contractions), and
// times it next to a naive C++ triple loop and OpenBLAS sgemm called
// directly on every core and on one, all in this run, on the same inputs.
// Prints GFLOP/s and the ratios.
//
//===----------------------------------------------------------------------===//

#include "registration/InitAll.h"
#include "runtime/JitRunner.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

using namespace mlir;

constexpr int64_t kSize = 1024;

/// Best-of-`repeats` seconds of `fn`.
template <typename Fn> static double bestSeconds(int repeats, Fn fn) {
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    auto start = std::chrono::steady_clock::now();
    fn();
    best = std::min(best, std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count());
  }
  return best;
}

static double gflops(double seconds) {
  return 2.0 * kSize * kSize * kSize / seconds / 1e9;
}

int main() {
  DialectRegistry registry;
  prec::registerAllDialects(registry);
  prec::registerAllPasses();
  MLIRContext context(registry);

  std::string source =
      "func.func @main(%a: tensor<1x1024x1024xf32>, %b: "
      "tensor<1x1024x1024xf32>)"
      " -> tensor<1x1024x1024xf32> {\n"
      "  %zp = \"tosa.const\"() <{values = dense<0.0> : tensor<1xf32>}> : () "
      "-> "
      "tensor<1xf32>\n"
      "  %c = tosa.matmul %a, %b, %zp, %zp : (tensor<1x1024x1024xf32>, "
      "tensor<1x1024x1024xf32>, tensor<1xf32>, tensor<1xf32>) -> "
      "tensor<1x1024x1024xf32>\n"
      "  return %c : tensor<1x1024x1024xf32>\n}\n";
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&context));
  llvm::Expected<std::unique_ptr<prec::CompiledFunction>> compiled =
      prec::CompiledFunction::compile(std::move(module), "main");
  if (!compiled) {
    llvm::errs() << llvm::toString(compiled.takeError()) << "\n";
    return 1;
  }

  std::mt19937 generator(1);
  std::uniform_real_distribution<float> uniform(-1, 1);
  prec::HostTensor a(prec::ElementKind::F32, {1, kSize, kSize});
  prec::HostTensor b(prec::ElementKind::F32, {1, kSize, kSize});
  auto *aData = reinterpret_cast<float *>(a.data.data());
  auto *bData = reinterpret_cast<float *>(b.data.data());
  for (int64_t i = 0; i < kSize * kSize; ++i) {
    aData[i] = uniform(generator);
    bData[i] = uniform(generator);
  }

  std::vector<prec::HostTensor> jitResult;
  double jitSeconds = bestSeconds(10, [&] {
    llvm::Expected<std::vector<prec::HostTensor>> result =
        (*compiled)->run({a, b});
    if (!result) {
      llvm::errs() << llvm::toString(result.takeError()) << "\n";
      std::exit(1);
    }
    jitResult = std::move(*result);
  });

  std::vector<float> naive(kSize * kSize);
  double naiveSeconds = bestSeconds(1, [&] {
    for (int64_t i = 0; i < kSize; ++i)
      for (int64_t j = 0; j < kSize; ++j) {
        float sum = 0;
        for (int64_t k = 0; k < kSize; ++k)
          sum += aData[i * kSize + k] * bData[k * kSize + j];
        naive[i * kSize + j] = sum;
      }
  });

  std::vector<float> blas(kSize * kSize);
  auto sgemm = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kSize, kSize, kSize,
                1.0f, aData, kSize, bData, kSize, 0.0f, blas.data(), kSize);
  };
  int cores = openblas_get_num_threads();
  double blasSeconds = bestSeconds(10, sgemm);
  openblas_set_num_threads(1);
  double blasOneSeconds = bestSeconds(10, sgemm);
  openblas_set_num_threads(cores);

  // The three agree up to summation order.
  auto *jitData = reinterpret_cast<const float *>(jitResult[0].data.data());
  double worst = 0;
  for (int64_t i = 0; i < kSize * kSize; ++i)
    worst = std::max({worst, double(std::fabs(jitData[i] - blas[i])),
                      double(std::fabs(naive[i] - blas[i]))});

  std::printf("1024x1024x1024 f32 matmul, %d cores (%s)\n", cores,
              openblas_get_config());
  std::printf("%-34s %10s %10s\n", "", "ms", "GFLOP/s");
  auto row = [](const char *name, double seconds) {
    std::printf("%-34s %10.2f %10.2f\n", name, seconds * 1e3, gflops(seconds));
  };
  row("prec JIT (prec-lower-to-cpu)", jitSeconds);
  row("naive C++ triple loop, one thread", naiveSeconds);
  row("OpenBLAS sgemm, every core", blasSeconds);
  row("OpenBLAS sgemm, one thread", blasOneSeconds);
  std::printf("prec speed / OpenBLAS every core: %.3f   / OpenBLAS one "
              "thread: %.3f   / naive: %.2f   max |difference|: %.3g\n",
              blasSeconds / jitSeconds, blasOneSeconds / jitSeconds,
              naiveSeconds / jitSeconds, worst);
  return 0;
}
