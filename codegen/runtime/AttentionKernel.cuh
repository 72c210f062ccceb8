// Scaled dot-product attention in one kernel (engine.attention), copied into
// the engines that have one. FlashAttention's recurrence: each query row
// walks the keys a chunk at a time with a running maximum and sum, so the
// S x S scores never reach memory.

__device__ inline float prec_to_float(float x) { return x; }
__device__ inline float prec_to_float(__half x) { return __half2float(x); }
__device__ inline float prec_to_float(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
template <typename T> __device__ inline T prec_from_float(float x);
template <> __device__ inline float prec_from_float<float>(float x) {
  return x;
}
template <> __device__ inline __half prec_from_float<__half>(float x) {
  return __float2half_rn(x);
}
template <>
__device__ inline __nv_bfloat16 prec_from_float<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}

// How a kernel turns its f32 outputs into O: rounded, as here, or through
// a functor the engine emits for a quantized result (engine.attention's
// result_scale), which writes one output at a time (PAIRS false).
template <typename O> struct prec_result {
  static constexpr bool PAIRS = true;
  __device__ O operator()(float x) const { return prec_from_float<O>(x); }
};

// Where the attention's inputs and output are, and their extents: query
// [n, sq, d], keys [n, d, sk] (transposed), values [n, sk, dv], output
// [n, sq, dv], each matrix stored by the strides of its (batch, head, row,
// column) (engine.attention's layouts: columns are contiguous, but keys'
// rows may be instead); keys and values of head h are those of head
// h / kv_group. The mask, if any, broadcast over [n / heads, heads, sq, sk]
// by the strides `mask_stride` (0 where it broadcasts).
template <typename Q, typename V, typename M, typename O, typename I>
struct prec_attention_args {
  const Q *query;
  const Q *keys;
  const V *values;
  const M *mask;
  O *out;
  I n, sq, sk, d, dv, heads;
  I mask_stride[4];
  I query_stride[4], key_stride[4], value_stride[4], out_stride[4];
  I kv_group;

  // The first element of matrix `matrix` of each.
  __device__ const Q *query_matrix(I matrix) const {
    return query + (matrix / heads) * query_stride[0] +
           (matrix % heads) * query_stride[1];
  }
  __device__ const Q *key_matrix(I matrix) const {
    return keys + (matrix / heads) * key_stride[0] +
           (matrix % heads / kv_group) * key_stride[1];
  }
  __device__ const V *value_matrix(I matrix) const {
    return values + (matrix / heads) * value_stride[0] +
           (matrix % heads / kv_group) * value_stride[1];
  }
  __device__ O *out_matrix(I matrix) const {
    return out + (matrix / heads) * out_stride[0] +
           (matrix % heads) * out_stride[1];
  }
  // Element (i, key) of a matrix of Kᵀ.
  __device__ I key_offset(I i, I key) const {
    return i * key_stride[2] + key * key_stride[3];
  }

  // The mask's first element for matrix `head`; null without a mask.
  __device__ const M *mask_matrix(I head) const {
    return mask ? mask + (head / heads) * mask_stride[0] +
                      (head % heads) * mask_stride[1]
                : nullptr;
  }
  // Row `row` of a matrix of the mask (its first row past the end, which no
  // logit reads); null without a mask.
  __device__ const M *mask_row(const M *matrix, I row) const {
    return matrix ? matrix + (row < sq ? row : 0) * mask_stride[2] : nullptr;
  }
};

// One warp per query row, 4 rows a block. The lanes split a chunk of 32 keys
// for the scores (each a dot product in f32 over the row, staged in shared
// memory) and the output's columns for P.V, COLUMNS per lane. `Scores` turns
// a dot product and its mask value into the logit, rounding as the program
// did; probabilities round to V before P.V. ZERO_NAN_ROWS: a row without a
// finite logit gives 0, where the program's guard made its NaNs 0.
template <int COLUMNS, bool ZERO_NAN_ROWS, typename Scores, typename Q,
          typename V, typename M, typename O, typename I,
          typename Result = prec_result<O>>
__global__ void __launch_bounds__(128)
    prec_attention(prec_attention_args<Q, V, M, O, I> a, Scores scores) {
  prec_kernel_start();
  extern __shared__ float prec_attention_rows[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const I row = (I)blockIdx.x * 4 + warp, head = blockIdx.y;
  if (row >= a.sq)
    return;
  float *q = prec_attention_rows + warp * a.d;
  for (I i = lane; i < a.d; i += 32)
    q[i] = prec_to_float(a.query_matrix(head)[row * a.query_stride[2] + i]);
  __syncwarp();
  const Q *keys = a.key_matrix(head);
  const V *values = a.value_matrix(head);
  const M *mask = a.mask_row(a.mask_matrix(head), row);
  float running_max = -INFINITY, sum = 0.0f, acc[COLUMNS];
  for (int c = 0; c < COLUMNS; ++c)
    acc[c] = 0.0f;
  for (I first = 0; first < a.sk; first += 32) {
    const I key = first + lane;
    float logit = -INFINITY;
    if (key < a.sk) {
      float dot = 0.0f;
      for (I i = 0; i < a.d; ++i)
        dot = fmaf(q[i], prec_to_float(keys[a.key_offset(i, key)]), dot);
      logit = scores(dot,
                     mask ? prec_to_float(mask[key * a.mask_stride[3]]) : 0.0f);
    }
    float chunk_max = logit;
    for (int offset = 16; offset > 0; offset >>= 1)
      chunk_max =
          fmaxf(chunk_max, __shfl_xor_sync(0xffffffffu, chunk_max, offset));
    const float new_max = fmaxf(running_max, chunk_max);
    // Until a finite logit arrives, exponents are taken from 0 so that
    // -inf logits give 0, not NaN.
    const float base = new_max == -INFINITY ? 0.0f : new_max;
    const float rescale = expf(running_max - base);
    const float p = expf(logit - base);
    float chunk_sum = p;
    for (int offset = 16; offset > 0; offset >>= 1)
      chunk_sum += __shfl_xor_sync(0xffffffffu, chunk_sum, offset);
    sum = sum * rescale + chunk_sum;
    running_max = new_max;
    const float rounded = prec_to_float(prec_from_float<V>(p));
    for (int c = 0; c < COLUMNS; ++c)
      acc[c] *= rescale;
    const int keys_here = (int)min((I)32, a.sk - first);
    for (int k = 0; k < keys_here; ++k) {
      const float pk = __shfl_sync(0xffffffffu, rounded, k);
      const V *value_row = values + (first + k) * a.value_stride[2];
      for (int c = 0; c < COLUMNS; ++c) {
        const I column = lane + 32 * c;
        if (column < a.dv)
          acc[c] = fmaf(pk, prec_to_float(value_row[column]), acc[c]);
      }
    }
  }
  O *out = a.out_matrix(head) + row * a.out_stride[2];
  for (int c = 0; c < COLUMNS; ++c) {
    const I column = lane + 32 * c;
    if (column < a.dv)
      out[column] =
          Result()(sum == 0.0f ? (ZERO_NAN_ROWS ? 0.0f : NAN) : acc[c] / sum);
  }
}

// The same attention on the CUDA cores, tiled for f32 (and any query, key
// and value types the tensor cores do not take), for head sizes D up to 128
// and DV a multiple of 16 up to 128: a block of 256 threads takes 64 query
// rows over tiles of 64 keys, staging queries, keys, values and
// probabilities in shared memory as f32. Thread (ty, tx) of a 16 x 16 grid
// computes the scores of rows 4ty..4ty+3 and keys 4tx..4tx+3 (each dot
// product in f32, in the order of the kernel above) and DV / 16 output
// columns of those rows; a row's statistics are reduced over the 16 threads
// of a half warp. Launched with prec_attention_cuda_tiles' BYTES of dynamic
// shared memory.
template <int D, int DV> struct prec_attention_cuda_tiles {
  static constexpr int ROWS = 64, KEYS = 64;
  // Probability rows padded so that a thread's four stores spread over banks.
  static constexpr int PROB_STRIDE = ROWS + 4;
  static constexpr int BYTES =
      (D * ROWS + D * KEYS + KEYS * DV + KEYS * PROB_STRIDE) * sizeof(float);
};

// DV / 16 columns of a value row for thread tx: 4tx.. of each 64 where DV is
// a multiple of 64 (one 16-byte load each), else tx + 16c.
template <int DV>
__device__ inline void prec_value_columns(const float *row, int tx,
                                          float (&v)[DV / 16]) {
  if constexpr (DV % 64 == 0) {
#pragma unroll
    for (int g = 0; g < DV / 64; ++g) {
      const float4 four =
          *reinterpret_cast<const float4 *>(row + g * 64 + 4 * tx);
      v[4 * g] = four.x, v[4 * g + 1] = four.y, v[4 * g + 2] = four.z,
            v[4 * g + 3] = four.w;
    }
  } else {
#pragma unroll
    for (int c = 0; c < DV / 16; ++c)
      v[c] = row[tx + 16 * c];
  }
}

template <int DV> __device__ inline int prec_value_column(int tx, int c) {
  if constexpr (DV % 64 == 0)
    return (c / 4) * 64 + 4 * tx + c % 4;
  else
    return tx + 16 * c;
}

template <int D, int DV, bool ZERO_NAN_ROWS, typename Scores, typename Q,
          typename V, typename M, typename O, typename I,
          typename Result = prec_result<O>>
__global__ void __launch_bounds__(256)
    prec_attention_cuda_cores(prec_attention_args<Q, V, M, O, I> a,
                              Scores scores) {
  prec_kernel_start();
  using Tiles = prec_attention_cuda_tiles<D, DV>;
  constexpr int ROWS = Tiles::ROWS, KEYS = Tiles::KEYS;
  constexpr int PROB_STRIDE = Tiles::PROB_STRIDE, COLUMNS = DV / 16;
  constexpr float LOG2E = 1.4426950408889634f;
  extern __shared__ __align__(16) float prec_attention_cuda_shared[];
  float *queries_tile = prec_attention_cuda_shared; // [D][ROWS]: transposed
  float *keys_tile = queries_tile + D * ROWS;       // [D][KEYS]
  float *values_tile = keys_tile + D * KEYS;        // [KEYS][DV]
  float *probs_tile = values_tile + KEYS * DV;      // [KEYS][PROB_STRIDE]
  const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  const I head = blockIdx.y, block_row = (I)blockIdx.x * ROWS;
  const Q *queries = a.query_matrix(head);
  const Q *keys = a.key_matrix(head);
  const V *values = a.value_matrix(head);
  for (int e = threadIdx.x; e < ROWS * D; e += 256) {
    const int r = e / D, i = e % D;
    queries_tile[i * ROWS + r] =
        block_row + r < a.sq
            ? prec_to_float(queries[(block_row + r) * a.query_stride[2] + i])
            : 0.0f;
  }
  const M *mask_rows[4];
  float running_max[4], sum[4], acc[4][COLUMNS];
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    mask_rows[r] = a.mask_row(a.mask_matrix(head), block_row + 4 * ty + r);
    running_max[r] = -INFINITY;
    sum[r] = 0.0f;
#pragma unroll
    for (int c = 0; c < COLUMNS; ++c)
      acc[r][c] = 0.0f;
  }
  for (I first = 0; first < a.sk; first += KEYS) {
    // Keys and values past the end are zeros: their probabilities are 0.
    for (int e = threadIdx.x; e < D * KEYS; e += 256) {
      const int i = e / KEYS, k = e % KEYS;
      keys_tile[e] = first + k < a.sk
                         ? prec_to_float(keys[a.key_offset(i, first + k)])
                         : 0.0f;
    }
    for (int e = threadIdx.x; e < KEYS * DV; e += 256) {
      const int k = e / DV, column = e % DV;
      values_tile[e] =
          first + k < a.sk
              ? prec_to_float(values[(first + k) * a.value_stride[2] + column])
              : 0.0f;
    }
    __syncthreads();
    float s[4][4] = {};
#pragma unroll 8
    for (int i = 0; i < D; ++i) {
      const float4 q =
          *reinterpret_cast<const float4 *>(queries_tile + i * ROWS + 4 * ty);
      const float4 k =
          *reinterpret_cast<const float4 *>(keys_tile + i * KEYS + 4 * tx);
      const float qs[4] = {q.x, q.y, q.z, q.w}, ks[4] = {k.x, k.y, k.z, k.w};
#pragma unroll
      for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int j = 0; j < 4; ++j)
          s[r][j] = fmaf(qs[r], ks[j], s[r][j]);
    }
    float rescale[4], p[4][4];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const bool row_here = block_row + 4 * ty + r < a.sq;
      float tile_max = -INFINITY;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const I key = first + 4 * tx + j;
        s[r][j] = row_here && key < a.sk
                      ? scores(s[r][j],
                               mask_rows[r]
                                   ? prec_to_float(
                                         mask_rows[r][key * a.mask_stride[3]])
                                   : 0.0f)
                      : -INFINITY;
        tile_max = fmaxf(tile_max, s[r][j]);
      }
#pragma unroll
      for (int offset = 8; offset > 0; offset >>= 1)
        tile_max =
            fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, offset));
      const float new_max = fmaxf(running_max[r], tile_max);
      // Until a finite logit arrives, exponents are taken from 0 so that
      // -inf logits give 0, not NaN.
      const float from = new_max == -INFINITY ? 0.0f : new_max;
      rescale[r] = exp2f((running_max[r] - from) * LOG2E);
      float tile_sum = 0.0f;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const float e = exp2f(fmaf(s[r][j], LOG2E, -from * LOG2E));
        tile_sum += e;
        p[r][j] = prec_to_float(prec_from_float<V>(e));
      }
#pragma unroll
      for (int offset = 8; offset > 0; offset >>= 1)
        tile_sum += __shfl_xor_sync(0xffffffffu, tile_sum, offset);
      sum[r] = sum[r] * rescale[r] + tile_sum;
      running_max[r] = new_max;
    }
    // Each key's probabilities for this thread's 4 rows, as one store.
#pragma unroll
    for (int j = 0; j < 4; ++j)
      *reinterpret_cast<float4 *>(probs_tile + (4 * tx + j) * PROB_STRIDE +
                                  4 * ty) =
          make_float4(p[0][j], p[1][j], p[2][j], p[3][j]);
    __syncthreads();
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int c = 0; c < COLUMNS; ++c)
        acc[r][c] *= rescale[r];
#pragma unroll 4
    for (int k = 0; k < KEYS; ++k) {
      const float4 pk = *reinterpret_cast<const float4 *>(
          probs_tile + k * PROB_STRIDE + 4 * ty);
      const float ps[4] = {pk.x, pk.y, pk.z, pk.w};
      float v[COLUMNS];
      prec_value_columns<DV>(values_tile + k * DV, tx, v);
#pragma unroll
      for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int c = 0; c < COLUMNS; ++c)
          acc[r][c] = fmaf(ps[r], v[c], acc[r][c]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    const I row = block_row + 4 * ty + r;
    if (row >= a.sq)
      continue;
    O *out = a.out_matrix(head) + row * a.out_stride[2];
#pragma unroll
    for (int c = 0; c < COLUMNS; ++c)
      out[prec_value_column<DV>(tx, c)] = Result()(
          sum[r] == 0.0f ? (ZERO_NAN_ROWS ? 0.0f : NAN) : acc[r][c] / sum[r]);
  }
}

// The same attention on tensor cores, for f16 or bf16 query, keys and values
// with head sizes D and DV that are multiples of 16 up to 128
// (FlashAttention-2's layout): a block of 4 warps takes 64 or 128 query
// rows, each warp 16 or 32 of them; the block stages its queries, and 64
// keys and their values at a time, in shared memory; mma.sync m16n8k16
// computes Q.K^T and P.V into f32.
template <typename T> struct prec_mma;
template <> struct prec_mma<__half> {
  static __device__ inline uint32_t pack(float lo, float hi) {
    __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<uint32_t *>(&h);
  }
  static __device__ inline void mma(float *c, const uint32_t *a,
                                    const uint32_t *b) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                   "r"(b[1]));
  }
};
template <> struct prec_mma<__nv_bfloat16> {
  static __device__ inline uint32_t pack(float lo, float hi) {
    __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<uint32_t *>(&h);
  }
  static __device__ inline void mma(float *c, const uint32_t *a,
                                    const uint32_t *b) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                   "r"(b[1]));
  }
};

// Fragment loads for the kernel below (sm_80 and up).
// Four 8x8 tiles of a [K][N] row-major (N contiguous) shared array as mma's
// B fragments: rows k..k+15 of columns n..n+7 in b[0], b[1] and of columns
// n+8..n+15 in b[2], b[3].
template <typename T, int STRIDE>
__device__ inline void prec_load_b_fragments(uint32_t b[4], const T *tile,
                                             int k, int n, int lane) {
  const int matrix = lane >> 3, row = lane & 7;
  const T *p =
      tile + (k + row + (matrix & 1) * 8) * STRIDE + n + (matrix >> 1) * 8;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 "
               "{%0,%1,%2,%3}, [%4];\n"
               : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3])
               : "r"(prec_shared_address(p)));
}

// The same fragments from a [N][K] row-major (K contiguous) shared array:
// K's rows where B is Kᵀ.
template <typename T, int STRIDE>
__device__ inline void prec_load_b_fragments_by_rows(uint32_t b[4],
                                                     const T *tile, int k,
                                                     int n, int lane) {
  const int matrix = lane >> 3, row = lane & 7;
  const T *p =
      tile + (n + row + (matrix >> 1) * 8) * STRIDE + k + (matrix & 1) * 8;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3])
               : "r"(prec_shared_address(p)));
}

// Four 8x8 tiles of a [M][K] row-major shared array as mma's A fragments:
// rows m..m+15 of columns k..k+15.
template <typename T, int STRIDE>
__device__ inline void prec_load_a_fragments(uint32_t a[4], const T *tile,
                                             int m, int k, int lane) {
  const T *p = tile + (m + (lane & 15)) * STRIDE + k + (lane >> 4) * 8;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
               : "r"(prec_shared_address(p)));
}

// Two adjacent elements of T as one value, the way the tensor-core kernel
// reads the mask and rounds a pair of logits: packed 16-bit arithmetic
// where T is f16 or bf16.
template <typename T> struct prec_pair;
template <> struct prec_pair<float> {
  using type = float2;
  static __device__ inline type make(float a, float b) {
    return make_float2(a, b);
  }
  static __device__ inline type round(float2 x) { return x; }
};
template <> struct prec_pair<__half> {
  using type = __half2;
  static __device__ inline type make(__half a, __half b) {
    return __halves2half2(a, b);
  }
  static __device__ inline type round(float2 x) { return __float22half2_rn(x); }
  static __device__ inline type splat(float x) { return __float2half2_rn(x); }
  static __device__ inline float2 to_float(type x) { return __half22float2(x); }
};
template <> struct prec_pair<__nv_bfloat16> {
  using type = __nv_bfloat162;
  static __device__ inline type make(__nv_bfloat16 a, __nv_bfloat16 b) {
    return __halves2bfloat162(a, b);
  }
  static __device__ inline type round(float2 x) {
    return __float22bfloat162_rn(x);
  }
  static __device__ inline type splat(float x) {
    return __float2bfloat162_rn(x);
  }
  static __device__ inline float2 to_float(type x) {
    return __bfloat1622float2(x);
  }
};

// A compile-time choice passed to a generic lambda.
template <int VALUE> struct prec_int { static constexpr int value = VALUE; };

// Calls f(row, column) for each 16-byte chunk of a ROWS x COLUMNS tile
// that this thread of a block of 128 loads: chunk threadIdx.x + 128 k, in
// row-major order of the tile's chunks of 8 elements.
template <int ROWS, int COLUMNS, typename F>
__device__ inline void prec_for_own_chunks(F f) {
  constexpr int CHUNKS = COLUMNS / 8;
  static_assert(ROWS * CHUNKS % 128 == 0, "whole chunks per thread");
#pragma unroll
  for (int k = 0; k < ROWS * CHUNKS / 128; ++k) {
    const unsigned i = threadIdx.x + k * 128;
    f(i / CHUNKS, i % CHUNKS * 8);
  }
}

// Loads a ROWS x COLUMNS tile of `source` (rows `row_stride` apart) into
// `tile` (rows COLUMNS + 8 apart) with the block's 128 threads, zeros from
// row `rows` and column `columns` on: by 16-byte async copies of each
// thread's own chunks with `copy` (aligned rows, `columns` a multiple of
// 8), else element by element: with OWN_CHUNKS each warp its threads'
// chunks, else the threads side by side over the whole tile, which
// measured faster where nothing transforms the tile (ViT-base's 197 keys:
// 0.09 against 0.11 ms). A whole tile skips the bounds checks.
template <int ROWS, int COLUMNS, bool OWN_CHUNKS, typename T, typename I>
__device__ inline void prec_load_tile(T *tile, const T *source, I row_stride,
                                      I rows, I columns, bool copy) {
  constexpr int STRIDE = COLUMNS + 8;
  if (copy && rows >= ROWS && columns >= COLUMNS) {
    prec_for_own_chunks<ROWS, COLUMNS>([&](unsigned r, unsigned c) {
      prec_copy16_async(tile + r * STRIDE + c, source + r * row_stride + c, 16);
    });
  } else if (copy) {
    prec_for_own_chunks<ROWS, COLUMNS>([&](unsigned r, unsigned c) {
      const bool in = r < rows && c < columns;
      prec_copy16_async(tile + r * STRIDE + c,
                        in ? source + r * row_stride + c : source, in ? 16 : 0);
    });
  } else if (!OWN_CHUNKS) {
    for (int i = threadIdx.x; i < ROWS * COLUMNS; i += 128) {
      const int r = i / COLUMNS, c = i % COLUMNS;
      tile[r * STRIDE + c] = r < rows && c < columns
                                 ? source[r * row_stride + c]
                                 : prec_from_float<T>(0.0f);
    }
  } else {
    // Each warp loads the 32 chunks its threads own at a step, element by
    // element with its lanes side by side, so that reads coalesce; the
    // transforms of own chunks begin with __syncwarp(). A loop left
    // rolled, so that the fallback's code and registers stay small.
    constexpr int CHUNKS = COLUMNS / 8;
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll 1
    for (unsigned first = warp * 32; first < ROWS * CHUNKS; first += 128)
#pragma unroll
      for (unsigned e = lane; e < 256; e += 32) {
        const unsigned chunk = first + e / 8;
        const unsigned r = chunk / CHUNKS, c = chunk % CHUNKS * 8 + e % 8;
        tile[r * STRIDE + c] = r < rows && c < columns
                                   ? source[r * row_stride + c]
                                   : prec_from_float<T>(0.0f);
      }
  }
}

// Replaces each chunk of 8 elements this thread owns in a ROWS x COLUMNS
// tile by transform(chunk): once its copies have landed, the thread sees
// its own chunks (its warp's, after element-wise loads), and the barrier
// that shows the tile to the block shows them transformed.
template <int ROWS, int COLUMNS, typename T, typename Transform>
__device__ inline void prec_transform_own_chunks(T *tile, Transform transform) {
  // The element-wise load's lanes stored each other's chunks.
  __syncwarp();
  prec_for_own_chunks<ROWS, COLUMNS>([&](unsigned r, unsigned c) {
    uint4 *chunk = reinterpret_cast<uint4 *>(tile + r * (COLUMNS + 8) + c);
    *chunk = transform(*chunk);
  });
}

// Each pair of T in a chunk of 8 replaced by f(pair).
template <typename T, typename F>
__device__ inline uint4 prec_map_pairs(uint4 chunk, F f) {
  using Pair = typename prec_pair<T>::type;
  for (uint32_t *bits : {&chunk.x, &chunk.y, &chunk.z, &chunk.w}) {
    const Pair result = f(*reinterpret_cast<const Pair *>(bits));
    *bits = *reinterpret_cast<const uint32_t *>(&result);
  }
  return chunk;
}

// How the tensor-core kernel stages Q, K and V in shared memory: as loaded
// (here), multiplied by factors (prec_attention_scaled) or quantized
// (prec_attention_f8, prec_attention_i8). A staging policy with STAGED
// transforms the chunks each thread loaded (query_chunk, keys_chunk and, with
// VALUES, which implies STAGED, values_chunk) before the barrier that shows a
// tile to the block, and one with QUANTIZED also quantizes the probabilities
// and scales the result.
struct prec_attention_unquantized {
  static constexpr bool STAGED = false, VALUES = false, QUANTIZED = false,
                        NORMALIZED = false;
};

// Q and K multiplied by `query` and `keys` in their type T, as the
// program's multiplies by constants ahead of Q.K^T (exporters' split of the
// softmax scale over Q and K) rounded them.
template <typename T> struct prec_attention_scaled {
  static constexpr bool STAGED = true, VALUES = false, QUANTIZED = false,
                        NORMALIZED = false;
  T query, keys;

  __device__ uint4 query_chunk(uint4 chunk) const {
    return scaled(chunk, query);
  }
  __device__ uint4 keys_chunk(uint4 chunk) const { return scaled(chunk, keys); }
  static __device__ uint4 scaled(uint4 chunk, T factor) {
    using Pair = typename prec_pair<T>::type;
    const Pair factors = prec_pair<T>::make(factor, factor);
    return prec_map_pairs<T>(chunk,
                             [&](Pair x) { return __hmul2_rn(x, factors); });
  }
};

// An f8 type's pair, converted from two floats at once.
template <typename F8> struct prec_f8_pair;
template <> struct prec_f8_pair<__nv_fp8_e4m3> {
  using type = __nv_fp8x2_e4m3;
  static constexpr __nv_fp8_interpretation_t KIND = __NV_E4M3;
};
template <> struct prec_f8_pair<__nv_fp8_e5m2> {
  using type = __nv_fp8x2_e5m2;
  static constexpr __nv_fp8_interpretation_t KIND = __NV_E5M2;
};

// Q, K, V and the probabilities of tiles of T quantized per tensor by
// Quantizer::pair (two floats times a factor, quantized, as mma's pair of
// T, which holds every quantized value exactly), for T's tensor-core
// instructions. The result is multiplied by `result`; the scores' factor is
// the logit functor's. NORMALIZED (engine.attention_quantization's
// `normalized`): the kernel quantizes the probabilities as the program did,
// after their division by the row sum, which it finds in a first sweep over
// the keys; else before it, in one.
template <typename Quantizer, typename T, bool NORMALIZED_>
struct prec_attention_quantized {
  static constexpr bool STAGED = true, VALUES = true, QUANTIZED = true,
                        NORMALIZED = NORMALIZED_;
  float query, keys, values, probabilities, result;

  __device__ static uint32_t quantize_pair(float x, float y, float factor) {
    return Quantizer::pair(x, y, factor);
  }
  __device__ static uint4 quantized(uint4 chunk, float factor) {
    using Pair = typename prec_pair<T>::type;
    return prec_map_pairs<T>(chunk, [&](Pair x) {
      const float2 f = prec_pair<T>::to_float(x);
      const uint32_t bits = quantize_pair(f.x, f.y, factor);
      return *reinterpret_cast<const Pair *>(&bits);
    });
  }
  __device__ uint4 query_chunk(uint4 c) const { return quantized(c, query); }
  __device__ uint4 keys_chunk(uint4 c) const { return quantized(c, keys); }
  __device__ uint4 values_chunk(uint4 c) const { return quantized(c, values); }
};

// To F8 (__nv_fp8_e4m3 or __nv_fp8_e5m2), with saturation.
template <typename F8, typename T> struct prec_f8_quantizer {
  __device__ static uint32_t pair(float x, float y, float factor) {
    const typename prec_f8_pair<F8>::type q(
        make_float2(x * factor, y * factor));
    const __half2 h(__nv_cvt_fp8x2_to_halfraw2(q.__x, prec_f8_pair<F8>::KIND));
    if constexpr (std::is_same_v<T, __half>)
      return *reinterpret_cast<const uint32_t *>(&h);
    const float2 f = __half22float2(h);
    return prec_mma<T>::pack(f.x, f.y);
  }
};
template <typename F8, typename T, bool NORMALIZED = false>
using prec_attention_f8 =
    prec_attention_quantized<prec_f8_quantizer<F8, T>, T, NORMALIZED>;

// To i8 as prec-quantize writes it: the product clamped to [-127, 127] and
// rounded half to even (the program's cast), an integer that f16 and bf16
// hold exactly and their tensor cores multiply exactly. 127 even steps
// resolve a probability only relative to the program's factor, so they
// always quantize after the division by the row sum, as the program's did.
template <typename T> struct prec_i8_quantizer {
  __device__ static float one(float x, float factor) {
    return rintf(fminf(fmaxf(__fmul_rn(x, factor), -127.0f), 127.0f));
  }
  __device__ static uint32_t pair(float x, float y, float factor) {
    return prec_mma<T>::pack(one(x, factor), one(y, factor));
  }
};
template <typename T>
using prec_attention_i8 =
    prec_attention_quantized<prec_i8_quantizer<T>, T, true>;

// The dynamic shared memory of prec_attention_mma<MT, D, DV, ...>: the
// block's query rows, and two tiles of keys (as K's rows with KEY_ROWS, else
// as Kᵀ's) and two of values, so that the next tile loads into one while
// the block computes on the other; each row padded by 16 bytes so that the
// 8 row addresses of an ldmatrix fall in distinct banks.
template <int MT, int D, int DV, typename T, bool KEY_ROWS>
struct prec_attention_tiles {
  static constexpr int QUERIES = 64 * MT, KEYS = 64;
  static constexpr int QUERY_STRIDE = D + 8,
                       KEY_STRIDE = KEY_ROWS ? D + 8 : KEYS + 8,
                       VALUE_STRIDE = DV + 8;
  static constexpr int KEY_ELEMENTS = (KEY_ROWS ? KEYS : D) * KEY_STRIDE,
                       VALUE_ELEMENTS = KEYS * VALUE_STRIDE;
  static constexpr int BYTES =
      (QUERIES * QUERY_STRIDE + 2 * KEY_ELEMENTS + 2 * VALUE_ELEMENTS) *
      sizeof(T);
};

// 2^x by the hardware's ex2 alone. Results below 2^-126 are 0, where exp2f
// spends three more instructions on subnormal results: the tensor-core
// kernel's probabilities are exp(x - max) of a row whose largest is 1, and
// a subnormal one is below what its sum resolves.
__device__ inline float prec_exp2_flushed(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// What the mask leaves of each tile of KEYS keys to a block of ROWS query
// rows: kept[(slice * blocks + block) * tiles + tile], over the grid (tiles,
// blocks of rows, the mask's own batch x heads slices). Run once per mask,
// ahead of the attention kernel, so that its heads do not each read what
// is masked, nor a mask that adds +0 throughout a tile.
enum : unsigned char {
  PREC_TILE_MASKED = 0, // every value at most -65504
  PREC_TILE_KEPT = 1,   // a key left, the mask to read
  PREC_TILE_ZERO = 2,   // every value +0: as without a mask, bit for bit
};
template <int ROWS, int KEYS, typename M, typename I>
__global__ void __launch_bounds__(128)
    prec_attention_kept_tiles(const M *mask, I sq, I sk, I batch_stride,
                              I head_stride, I row_stride, I key_stride,
                              I mask_heads, unsigned char *kept) {
  prec_kernel_start();
  const I tile = blockIdx.x, block = blockIdx.y, slice = blockIdx.z;
  const M *first_row = mask + slice / mask_heads * batch_stride +
                       slice % mask_heads * head_stride;
  bool any = false, zero = true;
  for (int e = threadIdx.x; e < ROWS * KEYS; e += blockDim.x) {
    const I row = block * ROWS + e / KEYS, key = tile * KEYS + e % KEYS;
    if (row < sq && key < sk) {
      const M value = first_row[row * row_stride + key * key_stride];
      any |= prec_to_float(value) > -65504.0f;
      const unsigned char *bytes =
          reinterpret_cast<const unsigned char *>(&value);
      for (unsigned b = 0; b < sizeof(M); ++b)
        zero &= bytes[b] == 0;
    }
  }
  any = __syncthreads_or(any);
  zero = __syncthreads_and(zero);
  if (threadIdx.x == 0)
    kept[((I)slice * gridDim.y + block) * gridDim.x + tile] =
        zero  ? PREC_TILE_ZERO
        : any ? PREC_TILE_KEPT
              : PREC_TILE_MASKED;
}

// The states prec_attention_kept_tiles recorded for the tiles of keys of the
// block of ROWS queries from `block_row` of matrix `head`.
template <int ROWS, int KEYS, typename Q, typename V, typename M, typename O,
          typename I>
__device__ const unsigned char *
prec_attention_block_tiles(const prec_attention_args<Q, V, M, O, I> &a,
                           const unsigned char *kept, I head, I block_row) {
  const I tiles = (a.sk + KEYS - 1) / KEYS, blocks = (a.sq + ROWS - 1) / ROWS;
  const I mask_heads = a.mask_stride[1] ? a.heads : 1;
  const I slice = (a.mask_stride[0] ? head / a.heads : 0) * mask_heads +
                  (a.mask_stride[1] ? head % a.heads : 0);
  return kept + (slice * blocks + block_row / ROWS) * tiles;
}

// The end of the keys a block computes, from the states of its tiles
// (`row`, by prec_attention_block_tiles): the end of the last tile the mask
// leaves a key to, or all keys where it leaves none.
template <int KEYS, typename I>
__device__ I prec_attention_key_end(const unsigned char *row, I sk) {
  __shared__ int last_kept;
  const I tiles = (sk + KEYS - 1) / KEYS;
  if (threadIdx.x == 0)
    last_kept = -1;
  __syncthreads();
  int last = -1;
  for (I t = threadIdx.x; t < tiles; t += blockDim.x)
    if (row[t] != PREC_TILE_MASKED)
      last = (int)t;
  if (last >= 0)
    atomicMax(&last_kept, last);
  __syncthreads();
  if (last_kept < 0)
    return sk;
  const I end = ((I)last_kept + 1) * KEYS;
  return end < sk ? end : sk;
}

// Whether every row of the block (those `exists` says are rows of the
// matrix) has a running maximum of at least `floor`. Block-wide: every
// thread calls it.
template <int MT, typename Exists>
__device__ inline bool prec_rows_reach(const float (&running_max)[MT][2],
                                       float floor, Exists exists) {
  bool reached = true;
#pragma unroll
  for (int m = 0; m < MT; ++m)
#pragma unroll
    for (int r = 0; r < 2; ++r)
      reached &= !exists(m, r) || running_max[m][r] >= floor;
  return __syncthreads_and(reached) != 0;
}

// How the tensor-core kernel reads its mask: not at all, a pair of keys as
// one value (adjacent keys, pairs aligned), the same from the one row every
// query shares (a padding mask: one load for all of a thread's rows), or
// element by element. The engine chooses it at launch, so that the kernel
// holds the code and registers of one.
enum prec_mask_read : int {
  PREC_NO_MASK,
  PREC_MASK_PAIRS,
  PREC_MASK_ROW_PAIRS,
  PREC_MASK_ELEMENTS,
};

// The tensor-core kernel's sweeps over the keys: the only one, or, where it
// quantizes normalized probabilities, the first (each row's maximum and
// sum: no values, no P.V, one barrier a tile) and the second (P.V of the
// normalized probabilities, Q already staged).
enum prec_attention_sweep : int {
  PREC_ONLY_SWEEP,
  PREC_STATISTICS_SWEEP,
  PREC_NORMALIZING_SWEEP,
};

// `Logits` turns a pair of adjacent dot products and their mask values
// (prec_pair<M>) into logits, rounding as the program did. Each warp takes
// MT tiles of 16 query rows; launched with prec_attention_tiles' BYTES of
// dynamic shared memory. SKIP_MASKED_KEYS: engine.attention's
// skip_masked_keys, with `kept_tiles` from prec_attention_kept_tiles (null
// without). KEY_ROWS: the keys are stored as K's rows (key_stride[2] is 1),
// else as Kᵀ's. Staging: how Q, K and V are staged (prec_attention_unquantized,
// prec_attention_scaled, prec_attention_f8 or prec_attention_i8, with its
// factors in `staging`). MASK_READ: a prec_mask_read.
template <int MT, int D, int DV, bool ZERO_NAN_ROWS, bool SKIP_MASKED_KEYS,
          bool KEY_ROWS, int MASK_READ, typename Logits, typename T, typename M,
          typename O, typename I, typename Result = prec_result<O>,
          typename Staging = prec_attention_unquantized>
__global__ void __launch_bounds__(128)
    prec_attention_mma(prec_attention_args<T, T, M, O, I> a, Logits logits,
                       const unsigned char *kept_tiles, Staging staging) {
  prec_kernel_start();
  using Tiles = prec_attention_tiles<MT, D, DV, T, KEY_ROWS>;
  using MaskPair = typename prec_pair<M>::type;
  constexpr int QUERIES = Tiles::QUERIES, KEYS = Tiles::KEYS;
  constexpr int QUERY_STRIDE = Tiles::QUERY_STRIDE,
                KEY_STRIDE = Tiles::KEY_STRIDE,
                VALUE_STRIDE = Tiles::VALUE_STRIDE;
  // exp(x) as exp2(x log2 e): one multiply-add and the hardware's exp2.
  constexpr float LOG2E = 1.4426950408889634f;
  extern __shared__ __align__(16) unsigned char prec_attention_shared[];
  T *queries_tile = reinterpret_cast<T *>(prec_attention_shared);
  T *const keys_tiles = queries_tile + QUERIES * QUERY_STRIDE;
  T *const values_tiles = keys_tiles + 2 * Tiles::KEY_ELEMENTS;
  // The tiles of keys and values from key `first` on: even tiles in the
  // first of each pair, odd ones in the second.
  auto keys_tile = [&](I first) {
    return keys_tiles + (first / KEYS & 1) * Tiles::KEY_ELEMENTS;
  };
  auto values_tile = [&](I first) {
    return values_tiles + (first / KEYS & 1) * Tiles::VALUE_ELEMENTS;
  };
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int g = lane >> 2, t = lane & 3;
  // The grid is (matrices, blocks of rows), so that blocks start in the
  // order of their rows across all matrices, the last rows first: under a
  // causal mask they see the most keys, and the grid's tail then holds the
  // shortest of every matrix.
  const I head = blockIdx.x,
          block_row = (I)(gridDim.y - 1 - blockIdx.y) * QUERIES;
  // This thread's rows: m-th tile of the warp, r-th half of the tile.
  auto row_of = [&](int m, int r) {
    return block_row + warp * 16 * MT + m * 16 + r * 8 + g;
  };
  const T *queries = a.query_matrix(head);
  const T *keys = a.key_matrix(head);
  const T *values = a.value_matrix(head);
  const I query_rows = a.query_stride[2], value_rows = a.value_stride[2],
          key_rows = KEY_ROWS ? a.key_stride[3] : a.key_stride[2];
  // Each thread's mask rows (rows past the end read row 0), found where
  // they are read rather than kept in registers across the loop; only the
  // matrix's first element is kept, so that no tile divides by the heads.
  const M *const mask_matrix = a.mask_matrix(head);
  auto mask_row_of = [&](int m, int r) {
    return a.mask_row(mask_matrix, row_of(m, r));
  };
  // Tiles load by 16-byte copies where rows are 16-byte aligned.
  auto aligned_rows = [](const T *matrix, I row_stride) {
    return row_stride % 8 == 0 && reinterpret_cast<uintptr_t>(matrix) % 16 == 0;
  };
  // Kᵀ's rows end at a.sk keys: whole chunks of 8 only where it divides.
  const bool copy_keys =
      aligned_rows(keys, key_rows) && (KEY_ROWS || a.sk % 8 == 0);
  const bool copy_values = aligned_rows(values, value_rows);
  const bool copy_queries = aligned_rows(queries, query_rows);
  auto load_keys = [&](I first) {
    if (KEY_ROWS)
      prec_load_tile<KEYS, D, Staging::STAGED>(
          keys_tile(first), keys + first * key_rows, key_rows, a.sk - first,
          (I)D, copy_keys);
    else
      prec_load_tile<D, KEYS, Staging::STAGED>(keys_tile(first), keys + first,
                                               key_rows, (I)D, a.sk - first,
                                               copy_keys);
  };
  auto load_values = [&](I first) {
    prec_load_tile<KEYS, DV, Staging::VALUES>(
        values_tile(first), values + first * value_rows, value_rows,
        a.sk - first, (I)DV, copy_values);
  };
  // The mask values of keys `key` and `key` + 1 in row (m, r).
  auto mask_pair = [&](auto mode, int m, int r, I key) {
    if (decltype(mode)::value == PREC_NO_MASK)
      return prec_pair<M>::make(M(), M());
    if (decltype(mode)::value == PREC_MASK_ROW_PAIRS)
      return *reinterpret_cast<const MaskPair *>(mask_matrix + key);
    const M *row = mask_row_of(m, r);
    if (decltype(mode)::value == PREC_MASK_PAIRS)
      return *reinterpret_cast<const MaskPair *>(row + key);
    const I stride = a.mask_stride[3];
    return prec_pair<M>::make(row[key * stride],
                              key + 1 < a.sk ? row[(key + 1) * stride] : M());
  };
  float out[MT][DV / 8][4] = {};
  float running_max[MT][2], sum[MT][2];
#pragma unroll
  for (int m = 0; m < MT; ++m)
    for (int r = 0; r < 2; ++r) {
      running_max[m][r] = -INFINITY;
      sum[m][r] = 0.0f;
    }
  float s[MT][KEYS / 8][4];
  // The logits of the tile's scores in s, and each row's maximum in
  // tile_max (a row's keys are spread over the 4 threads of a quad). In a
  // partial tile, keys from a.sk on are -inf.
  auto take_logits = [&](I first, float tile_max[MT][2], auto partial,
                         auto mask_read) {
#pragma unroll
    for (int m = 0; m < MT; ++m)
#pragma unroll
      for (int j = 0; j < KEYS / 8; ++j)
#pragma unroll
        for (int r = 0; r < 2; ++r) {
          const I key = first + j * 8 + 2 * t;
          float2 logit = make_float2(-INFINITY, -INFINITY);
          if (!decltype(partial)::value || key < a.sk) {
            logit = logits(make_float2(s[m][j][2 * r], s[m][j][2 * r + 1]),
                           mask_pair(mask_read, m, r, key));
            if (decltype(partial)::value && key + 1 >= a.sk)
              logit.y = -INFINITY;
          }
          s[m][j][2 * r] = logit.x;
          s[m][j][2 * r + 1] = logit.y;
          tile_max[m][r] = fmaxf(tile_max[m][r], fmaxf(logit.x, logit.y));
        }
  };
  // The keys this block computes: all of them, or with SKIP_MASKED_KEYS
  // those up to the last tile where the mask leaves a key to one of its rows
  // (past it, every mask value of the block's rows is at most -65504). Rows
  // without a logit of at least -16384 by then see the rest too, so that
  // what is skipped has probability 0 (engine.attention's skip_masked_keys).
  I limit = a.sk;
  const unsigned char *tile_states = nullptr;
  if (SKIP_MASKED_KEYS) {
    tile_states = prec_attention_block_tiles<QUERIES, KEYS>(a, kept_tiles, head,
                                                            block_row);
    limit = prec_attention_key_end<KEYS>(tile_states, a.sk);
  }
  // The block's queries and first keys arrive together; a tile's values
  // load while its scores are computed, the next tile's keys while its P.V
  // is.
  prec_load_tile<QUERIES, D, Staging::STAGED>(
      queries_tile, queries + block_row * query_rows, query_rows,
      a.sq - block_row, (I)D, copy_queries);
  load_keys(0);
  prec_commit_copies();
  // Two barriers a tile: one before Q.K^T, once the tile's keys have
  // landed, and one before P.V, once its values have. A tile loads into the
  // buffers of the tile before last, which every warp finished with before
  // the later of the two barriers it passed (keys: the first).
  // With Staging::NORMALIZED, a statistics sweep over the keys finds each
  // row's maximum and sum, and a normalizing one quantizes
  // exp(x - max) / sum, as the program did.
  float inverse_sum[MT][2];
  // Row (m, r)'s sum over the 4 threads of its quad.
  auto row_sum = [&](int m, int r) {
    const float total = sum[m][r] + __shfl_xor_sync(0xffffffffu, sum[m][r], 1);
    return total + __shfl_xor_sync(0xffffffffu, total, 2);
  };
  auto sweep = [&](auto kind) {
    constexpr bool STATISTICS = decltype(kind)::value == PREC_STATISTICS_SWEEP;
    for (I first = 0; first < limit; first += KEYS) {
      T *const keys_here = keys_tile(first), *const values_here =
                                                 values_tile(first);
      if constexpr (!STATISTICS)
        load_values(first);
      prec_commit_copies();
      prec_wait_copies<1>();
      if constexpr (Staging::STAGED) {
        auto query_chunk = [&](uint4 c) { return staging.query_chunk(c); };
        auto keys_chunk = [&](uint4 c) { return staging.keys_chunk(c); };
        if (first == 0 && decltype(kind)::value != PREC_NORMALIZING_SWEEP)
          prec_transform_own_chunks<QUERIES, D>(queries_tile, query_chunk);
        if (KEY_ROWS)
          prec_transform_own_chunks<KEYS, D>(keys_here, keys_chunk);
        else
          prec_transform_own_chunks<D, KEYS>(keys_here, keys_chunk);
      }
      __syncthreads();
      // S = Q.K^T for this warp's rows and 64 keys: tiles of 16 x 8.
#pragma unroll
      for (int m = 0; m < MT; ++m)
#pragma unroll
        for (int j = 0; j < KEYS / 8; ++j)
          s[m][j][0] = s[m][j][1] = s[m][j][2] = s[m][j][3] = 0.0f;
#pragma unroll
      for (int k = 0; k < D / 16; ++k) {
        uint32_t q[MT][4];
#pragma unroll
        for (int m = 0; m < MT; ++m)
          prec_load_a_fragments<T, QUERY_STRIDE>(
              q[m], queries_tile, warp * 16 * MT + m * 16, k * 16, lane);
#pragma unroll
        for (int j = 0; j < KEYS / 8; j += 2) {
          uint32_t b[4];
          if (KEY_ROWS)
            prec_load_b_fragments_by_rows<T, KEY_STRIDE>(b, keys_here, k * 16,
                                                         j * 8, lane);
          else
            prec_load_b_fragments<T, KEY_STRIDE>(b, keys_here, k * 16, j * 8,
                                                 lane);
#pragma unroll
          for (int m = 0; m < MT; ++m) {
            prec_mma<T>::mma(s[m][j], q[m], b);
            prec_mma<T>::mma(s[m][j + 1], q[m], b + 2);
          }
        }
      }
      if (first + KEYS < limit)
        load_keys(first + KEYS);
      prec_commit_copies();
      float tile_max[MT][2];
#pragma unroll
      for (int m = 0; m < MT; ++m)
        tile_max[m][0] = tile_max[m][1] = -INFINITY;
      // A tile where the mask adds +0 throughout reads none of it. A mask
      // row every query shares costs one load a pair of keys: reading it
      // measured faster than looking the tile up.
      const bool zero_mask =
          SKIP_MASKED_KEYS &&
          (MASK_READ == PREC_MASK_PAIRS || MASK_READ == PREC_MASK_ELEMENTS) &&
          tile_states[first / KEYS] == PREC_TILE_ZERO;
      auto for_mask_mode = [&](auto partial) {
        if (zero_mask)
          take_logits(first, tile_max, partial, prec_int<PREC_NO_MASK>());
        else
          take_logits(first, tile_max, partial, prec_int<MASK_READ>());
      };
      if (a.sk - first < KEYS)
        for_mask_mode(prec_int<1>());
      else
        for_mask_mode(prec_int<0>());
      float base[MT][2];
#pragma unroll
      for (int m = 0; m < MT; ++m)
#pragma unroll
        for (int r = 0; r < 2; ++r) {
          float &tile = tile_max[m][r];
          tile = fmaxf(tile, __shfl_xor_sync(0xffffffffu, tile, 1));
          tile = fmaxf(tile, __shfl_xor_sync(0xffffffffu, tile, 2));
          const float new_max = fmaxf(running_max[m][r], tile);
          // Until a finite logit arrives, exponents are taken from 0 so that
          // -inf logits give 0, not NaN.
          const float from = new_max == -INFINITY ? 0.0f : new_max;
          const float rescale =
              prec_exp2_flushed((running_max[m][r] - from) * LOG2E);
          base[m][r] = from * LOG2E;
          running_max[m][r] = new_max;
          sum[m][r] *= rescale;
          if constexpr (!STATISTICS) {
#pragma unroll
            for (int j = 0; j < DV / 8; ++j) {
              out[m][j][2 * r] *= rescale;
              out[m][j][2 * r + 1] *= rescale;
            }
          }
        }
        // P = exp(logit - max), summed in f32, rounded to T for P.V.
#pragma unroll
      for (int m = 0; m < MT; ++m)
#pragma unroll
        for (int j = 0; j < KEYS / 8; ++j)
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            s[m][j][e] =
                prec_exp2_flushed(fmaf(s[m][j][e], LOG2E, -base[m][e >> 1]));
            sum[m][e >> 1] += s[m][j][e];
          }
      if constexpr (!STATISTICS) {
        prec_wait_copies<1>();
        if constexpr (Staging::VALUES)
          prec_transform_own_chunks<KEYS, DV>(
              values_here, [&](uint4 c) { return staging.values_chunk(c); });
        __syncthreads();
        // A pair of probabilities of row (m, r) as P.V's operand: rounded to
        // T, or quantized (after their division by the row sum where the
        // kernel normalizes, which only its second sweep gets to, else
        // before it).
        auto pack = [&](int m, int r, float x, float y) {
          if constexpr (Staging::NORMALIZED)
            return Staging::quantize_pair(__fmul_rn(x, inverse_sum[m][r]),
                                          __fmul_rn(y, inverse_sum[m][r]),
                                          staging.probabilities);
          else if constexpr (Staging::QUANTIZED)
            return Staging::quantize_pair(x, y, staging.probabilities);
          else
            return prec_mma<T>::pack(x, y);
        };
#pragma unroll
        for (int k = 0; k < KEYS / 16; ++k) {
          uint32_t p[MT][4];
#pragma unroll
          for (int m = 0; m < MT; ++m) {
            p[m][0] = pack(m, 0, s[m][2 * k][0], s[m][2 * k][1]);
            p[m][1] = pack(m, 1, s[m][2 * k][2], s[m][2 * k][3]);
            p[m][2] = pack(m, 0, s[m][2 * k + 1][0], s[m][2 * k + 1][1]);
            p[m][3] = pack(m, 1, s[m][2 * k + 1][2], s[m][2 * k + 1][3]);
          }
#pragma unroll
          for (int j = 0; j < DV / 8; j += 2) {
            uint32_t b[4];
            prec_load_b_fragments<T, VALUE_STRIDE>(b, values_here, k * 16,
                                                   j * 8, lane);
#pragma unroll
            for (int m = 0; m < MT; ++m) {
              prec_mma<T>::mma(out[m][j], p[m], b);
              prec_mma<T>::mma(out[m][j + 1], p[m], b + 2);
            }
          }
        }
      }
      if (SKIP_MASKED_KEYS && first + KEYS >= limit && limit < a.sk &&
          !prec_rows_reach<MT>(running_max, -16384.0f, [&](int m, int r) {
            return row_of(m, r) < a.sq;
          })) {
        limit = a.sk;
        load_keys(first + KEYS);
        prec_commit_copies();
      }
    }
  };
  if constexpr (Staging::NORMALIZED) {
    sweep(prec_int<PREC_STATISTICS_SWEEP>());
#pragma unroll
    for (int m = 0; m < MT; ++m)
#pragma unroll
      for (int r = 0; r < 2; ++r) {
        // A row with no finite logit quantizes zeros; its output is made
        // 0 or NaN at the end.
        const float total = row_sum(m, r);
        inverse_sum[m][r] = total == 0.0f ? 0.0f : 1.0f / total;
        sum[m][r] = 0.0f;
      }
    // Every warp is done with the last tile of keys before the first
    // reloads.
    __syncthreads();
    load_keys(0);
    prec_commit_copies();
    sweep(prec_int<PREC_NORMALIZING_SWEEP>());
  } else {
    sweep(prec_int<PREC_ONLY_SWEEP>());
  }
  // Output pairs store as one value where the output's rows are aligned for
  // them (DV is even) and outputs are only rounded.
  O *out_rows = a.out_matrix(head);
  bool pair_stores = false;
  if constexpr (Result::PAIRS)
    pair_stores = reinterpret_cast<uintptr_t>(out_rows) %
                          sizeof(typename prec_pair<O>::type) ==
                      0 &&
                  a.out_stride[2] % 2 == 0;
#pragma unroll
  for (int m = 0; m < MT; ++m)
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      const float total = row_sum(m, r);
      const I row = row_of(m, r);
      if (row >= a.sq)
        continue;
      // One reciprocal per row: the output is within an f32 rounding of
      // the quotient before its own rounding. Normalized probabilities
      // need no division.
      float inverse = total == 0.0f         ? (ZERO_NAN_ROWS ? 0.0f : NAN)
                      : Staging::NORMALIZED ? 1.0f
                                            : 1.0f / total;
      if constexpr (Staging::QUANTIZED)
        inverse *= staging.result;
      O *out_row = out_rows + row * a.out_stride[2];
#pragma unroll
      for (int j = 0; j < DV / 8; ++j) {
        const float2 pair = make_float2(out[m][j][2 * r] * inverse,
                                        out[m][j][2 * r + 1] * inverse);
        O *to = out_row + j * 8 + 2 * t;
        if constexpr (Result::PAIRS) {
          if (pair_stores) {
            *reinterpret_cast<typename prec_pair<O>::type *>(to) =
                prec_pair<O>::round(pair);
            continue;
          }
        }
        to[0] = Result()(pair.x);
        to[1] = Result()(pair.y);
      }
    }
}
