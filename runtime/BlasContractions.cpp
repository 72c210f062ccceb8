//===- BlasContractions.cpp - BLAS for JIT-compiled contractions ----------===//
//
// C += A B for each batch, on memref descriptors as the C interface passes
// them. f16 and bf16 operands are widened to f32, exactly, before sgemm;
// operands whose rows are not contiguous are copied first.
//
//===----------------------------------------------------------------------===//

#include "runtime/BlasContractions.h"

#include "lowering/BlasContractions.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <cblas.h>

#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace prec {

namespace {

template <typename T> using Matrices = StridedMemRefType<T, 3>;

/// IEEE half and bfloat16 bits, as uint16_t memref elements.
struct HalfBits {
  uint16_t bits;
};
struct BFloatBits {
  uint16_t bits;
};

float widen(float value) { return value; }

float widen(HalfBits half) {
  uint32_t sign = uint32_t(half.bits & 0x8000) << 16;
  uint32_t exponent = (half.bits >> 10) & 0x1f, mantissa = half.bits & 0x3ff;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in f32.
    float magnitude = std::ldexp(float(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  uint32_t bits = exponent == 0x1f
                      ? sign | 0x7f800000u | (mantissa << 13)
                      : sign | ((exponent + 112) << 23) | (mantissa << 13);
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

float widen(BFloatBits bfloat) {
  uint32_t bits = uint32_t(bfloat.bits) << 16;
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// Batch `n` of `m` as a row-major f32 matrix and its leading dimension:
/// the memref's own memory when it is f32 with contiguous rows, else a
/// widened copy in `scratch`.
template <typename T>
const float *getRows(const Matrices<T> &m, int64_t n,
                     std::vector<float> &scratch, int64_t &leading) {
  int64_t rows = m.sizes[1], columns = m.sizes[2];
  const T *base = m.data + m.offset + n * m.strides[0];
  if constexpr (std::is_same_v<T, float>) {
    if (m.strides[2] == 1 && m.strides[1] >= std::max<int64_t>(columns, 1)) {
      leading = m.strides[1];
      return base;
    }
  }
  scratch.resize(rows * columns);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < columns; ++c)
      scratch[r * columns + c] =
          widen(base[r * m.strides[1] + c * m.strides[2]]);
  leading = std::max<int64_t>(columns, 1);
  return scratch.data();
}

template <typename T>
void batchMatmul(Matrices<T> *a, Matrices<T> *b, Matrices<float> *c) {
  int64_t rows = c->sizes[1], columns = c->sizes[2], depth = a->sizes[2];
  if (rows == 0 || columns == 0)
    return;
  std::vector<float> aScratch, bScratch, cScratch;
  for (int64_t n = 0; n < c->sizes[0]; ++n) {
    int64_t lda, ldb, ldc;
    const float *aRows = getRows(*a, n, aScratch, lda);
    const float *bRows = getRows(*b, n, bScratch, ldb);
    float *cRows = const_cast<float *>(getRows(*c, n, cScratch, ldc));
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, columns, depth,
                1.0f, aRows, lda, bRows, ldb, 1.0f, cRows, ldc);
    if (cRows != cScratch.data())
      continue;
    // C's rows were not contiguous: write the copy back.
    float *base = c->data + c->offset + n * c->strides[0];
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t col = 0; col < columns; ++col)
        base[r * c->strides[1] + col * c->strides[2]] =
            cScratch[r * columns + col];
  }
}

void batchMatmulF32(Matrices<float> *a, Matrices<float> *b,
                    Matrices<float> *c) {
  batchMatmul(a, b, c);
}
void batchMatmulF16(Matrices<HalfBits> *a, Matrices<HalfBits> *b,
                    Matrices<float> *c) {
  batchMatmul(a, b, c);
}
void batchMatmulBF16(Matrices<BFloatBits> *a, Matrices<BFloatBits> *b,
                     Matrices<float> *c) {
  batchMatmul(a, b, c);
}

} // namespace

llvm::orc::SymbolMap
getBlasContractionSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols;
  auto add = [&](llvm::StringRef name, auto *function) {
    symbols[interner(("_mlir_ciface_" + name).str())] = {
        llvm::orc::ExecutorAddr::fromPtr(function),
        llvm::JITSymbolFlags::Exported};
  };
  add(kBlasBatchMatmulF32, &batchMatmulF32);
  add(kBlasBatchMatmulF16, &batchMatmulF16);
  add(kBlasBatchMatmulBF16, &batchMatmulBF16);
  return symbols;
}

} // namespace prec
