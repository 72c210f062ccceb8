//===- BlasContractions.cpp - BLAS for JIT-compiled contractions ----------===//
//
// C += A B for each batch, and Y += X (*) W through im2col, on memref
// descriptors as the C interface passes them. f16 and bf16 operands are
// widened to f32, exactly, before sgemm; operands whose rows are not
// contiguous are copied first.
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
template <typename T> using Images = StridedMemRefType<T, 4>;

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

/// Calls `gemm(data, leading)`, which adds into a row-major f32 [rows,
/// columns] matrix whose element (r, c) is `at(r, c)`: on `inPlace`, with
/// leading dimension `leading`, when the matrix's rows are contiguous there;
/// else (null `inPlace`) on a copy in `scratch`, written back after.
template <typename At, typename Gemm>
void addIntoRows(int64_t rows, int64_t columns, float *inPlace, int64_t leading,
                 At at, std::vector<float> &scratch, Gemm gemm) {
  if (inPlace) {
    gemm(inPlace, leading);
    return;
  }
  scratch.resize(rows * columns);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < columns; ++c)
      scratch[r * columns + c] = at(r, c);
  gemm(scratch.data(), std::max<int64_t>(columns, 1));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < columns; ++c)
      at(r, c) = scratch[r * columns + c];
}

template <typename T>
void batchMatmul(Matrices<T> *a, Matrices<T> *b, Matrices<float> *c) {
  int64_t rows = c->sizes[1], columns = c->sizes[2], depth = a->sizes[2];
  if (rows == 0 || columns == 0)
    return;
  bool contiguous =
      c->strides[2] == 1 && c->strides[1] >= std::max<int64_t>(columns, 1);
  std::vector<float> aScratch, bScratch, cScratch;
  for (int64_t n = 0; n < c->sizes[0]; ++n) {
    int64_t lda, ldb;
    const float *aRows = getRows(*a, n, aScratch, lda);
    const float *bRows = getRows(*b, n, bScratch, ldb);
    float *base = c->data + c->offset + n * c->strides[0];
    auto at = [&](int64_t r, int64_t col) -> float & {
      return base[r * c->strides[1] + col * c->strides[2]];
    };
    addIntoRows(rows, columns, contiguous ? base : nullptr, c->strides[1], at,
                cScratch, [&](float *cRows, int64_t ldc) {
                  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows,
                              columns, depth, 1.0f, aRows, lda, bRows, ldb,
                              1.0f, cRows, ldc);
                });
  }
}

/// The window geometry of an NHWC convolution with FHWC filters.
struct Window {
  int64_t strideH, strideW, dilationH, dilationW;
};

/// The FHWC filter as a row-major f32 [f, kh * kw * c] matrix.
template <typename T> std::vector<float> getFilterRows(const Images<T> &w) {
  int64_t kh = w.sizes[1], kw = w.sizes[2], channels = w.sizes[3];
  std::vector<float> rows(w.sizes[0] * kh * kw * channels);
  float *out = rows.data();
  for (int64_t f = 0; f < w.sizes[0]; ++f)
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j)
        for (int64_t c = 0; c < channels; ++c)
          *out++ = widen(w.data[w.offset + f * w.strides[0] + i * w.strides[1] +
                                j * w.strides[2] + c * w.strides[3]]);
  return rows;
}

/// Image n of x laid out as im2col rows: each output position's receptive
/// field, in the filter's (kh, kw, c) order.
template <typename T>
void getColumns(const Images<T> &x, int64_t n, const Images<float> &y,
                int64_t kh, int64_t kw, Window window,
                std::vector<float> &columns) {
  int64_t channels = x.sizes[3];
  const T *image = x.data + x.offset + n * x.strides[0];
  float *row = columns.data();
  for (int64_t oh = 0; oh < y.sizes[1]; ++oh)
    for (int64_t ow = 0; ow < y.sizes[2]; ++ow)
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = 0; j < kw; ++j) {
          const T *pixel =
              image +
              (oh * window.strideH + i * window.dilationH) * x.strides[1] +
              (ow * window.strideW + j * window.dilationW) * x.strides[2];
          for (int64_t c = 0; c < channels; ++c)
            *row++ = widen(pixel[c * x.strides[3]]);
        }
}

/// y[n] += columns(x[n]) w^T for each image n: the filter as
/// [f, kh * kw * c] is B transposed, and the output image a [positions, f]
/// matrix.
template <typename T>
void conv2d(Images<T> *x, Images<T> *w, Images<float> *y, Window window) {
  int64_t outW = y->sizes[2], filters = y->sizes[3];
  int64_t positions = y->sizes[1] * outW;
  int64_t depth = w->sizes[1] * w->sizes[2] * w->sizes[3];
  int64_t leading = std::max<int64_t>(depth, 1);
  if (positions == 0 || filters == 0)
    return;
  std::vector<float> filter = getFilterRows(*w), columns(positions * depth),
                     copy;
  bool contiguous = y->strides[3] == 1 && y->strides[2] == filters &&
                    y->strides[1] == outW * filters;
  for (int64_t n = 0; n < y->sizes[0]; ++n) {
    getColumns(*x, n, *y, w->sizes[1], w->sizes[2], window, columns);
    float *image = y->data + y->offset + n * y->strides[0];
    auto at = [&](int64_t p, int64_t f) -> float & {
      return image[(p / outW) * y->strides[1] + (p % outW) * y->strides[2] +
                   f * y->strides[3]];
    };
    addIntoRows(positions, filters, contiguous ? image : nullptr, filters, at,
                copy, [&](float *out, int64_t ldc) {
                  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans,
                              positions, filters, depth, 1.0f, columns.data(),
                              leading, filter.data(), leading, 1.0f, out, ldc);
                });
  }
}

template <typename T>
void batchMatmulEntry(Matrices<T> *a, Matrices<T> *b, Matrices<float> *c) {
  batchMatmul(a, b, c);
}

template <typename T>
void conv2dEntry(Images<T> *x, Images<T> *w, Images<float> *y, int64_t strideH,
                 int64_t strideW, int64_t dilationH, int64_t dilationW) {
  conv2d(x, w, y, Window{strideH, strideW, dilationH, dilationW});
}

} // namespace

llvm::orc::SymbolMap
getBlasContractionSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols;
  auto add = [&](llvm::StringRef family, llvm::StringRef type, void *function) {
    symbols[interner(("_mlir_ciface_" + family + "_" + type).str())] = {
        llvm::orc::ExecutorAddr::fromPtr(function),
        llvm::JITSymbolFlags::Exported};
  };
  auto addType = [&](llvm::StringRef type, auto element) {
    using T = decltype(element);
    add(kBlasBatchMatmul, type, reinterpret_cast<void *>(&batchMatmulEntry<T>));
    add(kBlasConv2d, type, reinterpret_cast<void *>(&conv2dEntry<T>));
  };
  addType("f32", float());
  addType("f16", HalfBits());
  addType("bf16", BFloatBits());
  return symbols;
}

} // namespace prec
