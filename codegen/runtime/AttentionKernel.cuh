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

// Where the attention's inputs and output are, and their extents: query
// [n, sq, d], keys [n, d, sk] (transposed), values [n, sk, dv], output
// [n, sq, dv]; the mask, if any, broadcast over [n / heads, heads, sq, sk]
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
};

// One warp per query row, 4 rows a block. The lanes split a chunk of 32 keys
// for the scores (each a dot product in f32 over the row, staged in shared
// memory) and the output's columns for P.V, COLUMNS per lane. `Scores` turns
// a dot product and its mask value into the logit, rounding as the program
// did; probabilities round to V before P.V. ZERO_NAN_ROWS: a row without a
// finite logit gives 0, where the program's guard made its NaNs 0.
template <int COLUMNS, bool ZERO_NAN_ROWS, typename Scores, typename Q,
          typename V, typename M, typename O, typename I>
__global__ void __launch_bounds__(128)
    prec_attention(prec_attention_args<Q, V, M, O, I> a, Scores scores) {
  extern __shared__ float prec_attention_rows[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const I row = (I)blockIdx.x * 4 + warp, head = blockIdx.y;
  if (row >= a.sq)
    return;
  float *q = prec_attention_rows + warp * a.d;
  for (I i = lane; i < a.d; i += 32)
    q[i] = prec_to_float(a.query[(head * a.sq + row) * a.d + i]);
  __syncwarp();
  const Q *keys = a.keys + head * a.d * a.sk;
  const V *values = a.values + head * a.sk * a.dv;
  const M *mask = a.mask ? a.mask + (head / a.heads) * a.mask_stride[0] +
                               (head % a.heads) * a.mask_stride[1] +
                               row * a.mask_stride[2]
                         : nullptr;
  float running_max = -INFINITY, sum = 0.0f, acc[COLUMNS];
  for (int c = 0; c < COLUMNS; ++c)
    acc[c] = 0.0f;
  for (I first = 0; first < a.sk; first += 32) {
    const I key = first + lane;
    float logit = -INFINITY;
    if (key < a.sk) {
      float dot = 0.0f;
      for (I i = 0; i < a.d; ++i)
        dot = fmaf(q[i], prec_to_float(keys[i * a.sk + key]), dot);
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
      const V *value_row = values + (first + k) * a.dv;
      for (int c = 0; c < COLUMNS; ++c) {
        const I column = lane + 32 * c;
        if (column < a.dv)
          acc[c] = fmaf(pk, prec_to_float(value_row[column]), acc[c]);
      }
    }
  }
  O *out = a.out + (head * a.sq + row) * a.dv;
  for (int c = 0; c < COLUMNS; ++c) {
    const I column = lane + 32 * c;
    if (column < a.dv)
      out[column] = prec_from_float<O>(
          sum == 0.0f ? (ZERO_NAN_ROWS ? 0.0f : NAN) : acc[c] / sum);
  }
}

// The same attention on tensor cores, for f16 or bf16 query, keys and values
// with head sizes D and DV that are multiples of 16 up to 128
// (FlashAttention-2's layout): a block of 4 warps takes 64 query rows, each
// warp 16 of them; the block stages 64 keys and their values at a time in
// shared memory; mma.sync m16n8k16 computes Q.K^T and P.V into f32.
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

// Shared-memory addresses, async copies and fragment loads for the kernel
// below (sm_80 and up).
__device__ inline uint32_t prec_shared_address(const void *p) {
  return (uint32_t)__cvta_generic_to_shared(p);
}
// Copies 16 bytes, or zeros where `bytes` is 0 (a row past the end).
__device__ inline void prec_copy16_async(void *to, const void *from,
                                         int bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
                   prec_shared_address(to)),
               "l"(from), "r"(bytes));
}
__device__ inline void prec_commit_copies() {
  asm volatile("cp.async.commit_group;\n" ::);
}
// Waits until all but the latest group of copies have landed.
__device__ inline void prec_wait_copies_but_one() {
  asm volatile("cp.async.wait_group 1;\n" ::);
}
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

// Loads a ROWS x COLUMNS tile of `source` (rows `row_stride` apart) into
// `tile` (rows COLUMNS + 8 apart) with the block's 128 threads, zeros from
// row `rows` and column `columns` on: by 16-byte async copies with `copy`
// (aligned rows, `columns` a multiple of 8), else element by element.
template <int ROWS, int COLUMNS, typename T, typename I>
__device__ inline void prec_load_tile(T *tile, const T *source, I row_stride,
                                      I rows, I columns, bool copy) {
  constexpr int STRIDE = COLUMNS + 8;
  if (copy) {
    for (int i = threadIdx.x; i < ROWS * COLUMNS / 8; i += 128) {
      const int r = i / (COLUMNS / 8), c = i % (COLUMNS / 8) * 8;
      const bool in = r < rows && c < columns;
      prec_copy16_async(tile + r * STRIDE + c,
                        in ? source + r * row_stride + c : source, in ? 16 : 0);
    }
  } else {
    for (int i = threadIdx.x; i < ROWS * COLUMNS; i += 128) {
      const int r = i / COLUMNS, c = i % COLUMNS;
      tile[r * STRIDE + c] = r < rows && c < columns
                                 ? source[r * row_stride + c]
                                 : prec_from_float<T>(0.0f);
    }
  }
}

template <int D, int DV, bool ZERO_NAN_ROWS, typename Scores, typename T,
          typename M, typename O, typename I>
__global__ void __launch_bounds__(128)
    prec_attention_mma(prec_attention_args<T, T, M, O, I> a, Scores scores) {
  // Rows padded by 16 bytes: the 8 row addresses of an ldmatrix fall in
  // distinct banks.
  constexpr int KEYS = 64, KEY_STRIDE = KEYS + 8, VALUE_STRIDE = DV + 8;
  // exp(x) as exp2(x log2 e): one multiply-add and the hardware's exp2.
  constexpr float LOG2E = 1.4426950408889634f;
  __shared__ __align__(16) T keys_tile[D][KEY_STRIDE];
  __shared__ __align__(16) T values_tile[KEYS][VALUE_STRIDE];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int g = lane >> 2, t = lane & 3;
  const I head = blockIdx.y;
  const I row0 = (I)blockIdx.x * 64 + warp * 16 + g, row1 = row0 + 8;
  const T *query = a.query + head * a.sq * D;
  // Q's fragments, rows past the end as zeros.
  uint32_t q[D / 16][4];
  auto pair = [&](I row, int c) {
    return row < a.sq ? *reinterpret_cast<const uint32_t *>(query + row * D + c)
                      : 0u;
  };
  for (int k = 0; k < D / 16; ++k) {
    const int c = k * 16 + 2 * t;
    q[k][0] = pair(row0, c);
    q[k][1] = pair(row1, c);
    q[k][2] = pair(row0, c + 8);
    q[k][3] = pair(row1, c + 8);
  }
  const T *keys = a.keys + head * D * a.sk;
  const T *values = a.values + head * a.sk * DV;
  const M *mask = a.mask ? a.mask + (head / a.heads) * a.mask_stride[0] +
                               (head % a.heads) * a.mask_stride[1]
                         : nullptr;
  // Tiles load by 16-byte copies where rows are 16-byte aligned: Kᵀ rows
  // are a.sk keys apart.
  const bool copy_keys =
      a.sk % 8 == 0 && reinterpret_cast<uintptr_t>(a.keys) % 16 == 0;
  const bool copy_values = reinterpret_cast<uintptr_t>(a.values) % 16 == 0;
  auto load_keys = [&](I first) {
    prec_load_tile<D, KEYS>(&keys_tile[0][0], keys + first, a.sk, (I)D,
                            a.sk - first, copy_keys);
  };
  auto load_values = [&](I first) {
    prec_load_tile<KEYS, DV>(&values_tile[0][0], values + first * DV, (I)DV,
                             a.sk - first, (I)DV, copy_values);
  };
  float out[DV / 8][4] = {};
  float running_max[2] = {-INFINITY, -INFINITY}, sum[2] = {0.0f, 0.0f};
  // A tile's values load while its scores are computed, the next tile's
  // keys while its P.V is.
  load_keys(0);
  prec_commit_copies();
  for (I first = 0; first < a.sk; first += KEYS) {
    load_values(first);
    prec_commit_copies();
    prec_wait_copies_but_one();
    __syncthreads();
    // S = Q.K^T for this warp's 16 rows and 64 keys: 8 tiles of 16 x 8.
    float s[KEYS / 8][4] = {};
    for (int k = 0; k < D / 16; ++k)
      for (int j = 0; j < KEYS / 8; j += 2) {
        uint32_t b[4];
        prec_load_b_fragments<T, KEY_STRIDE>(b, &keys_tile[0][0], k * 16, j * 8,
                                             lane);
        prec_mma<T>::mma(s[j], q[k], b);
        prec_mma<T>::mma(s[j + 1], q[k], b + 2);
      }
    __syncthreads();
    if (first + KEYS < a.sk)
      load_keys(first + KEYS);
    prec_commit_copies();
    // Logits, the tile's maximum per row (a row's 64 keys are spread over
    // the 4 threads of a quad).
    float tile_max[2] = {-INFINITY, -INFINITY};
    for (int j = 0; j < KEYS / 8; ++j)
      for (int e = 0; e < 4; ++e) {
        const I key = first + j * 8 + 2 * t + (e & 1);
        const I row = e < 2 ? row0 : row1;
        float logit = -INFINITY;
        if (key < a.sk) {
          float m = 0.0f;
          if (mask && row < a.sq)
            m = prec_to_float(
                mask[row * a.mask_stride[2] + key * a.mask_stride[3]]);
          logit = scores(s[j][e], m);
        }
        s[j][e] = logit;
        tile_max[e >> 1] = fmaxf(tile_max[e >> 1], logit);
      }
    float rescale[2], base[2];
    for (int r = 0; r < 2; ++r) {
      tile_max[r] =
          fmaxf(tile_max[r], __shfl_xor_sync(0xffffffffu, tile_max[r], 1));
      tile_max[r] =
          fmaxf(tile_max[r], __shfl_xor_sync(0xffffffffu, tile_max[r], 2));
      const float new_max = fmaxf(running_max[r], tile_max[r]);
      base[r] = new_max == -INFINITY ? 0.0f : new_max;
      rescale[r] = exp2f((running_max[r] - base[r]) * LOG2E);
      base[r] *= LOG2E;
      running_max[r] = new_max;
      sum[r] *= rescale[r];
    }
    for (int j = 0; j < DV / 8; ++j)
      for (int e = 0; e < 4; ++e)
        out[j][e] *= rescale[e >> 1];
    // P = exp(logit - max), summed in f32, rounded to T for P.V.
    for (int j = 0; j < KEYS / 8; ++j)
      for (int e = 0; e < 4; ++e) {
        s[j][e] = exp2f(fmaf(s[j][e], LOG2E, -base[e >> 1]));
        sum[e >> 1] += s[j][e];
      }
    prec_wait_copies_but_one();
    __syncthreads();
    for (int k = 0; k < KEYS / 16; ++k) {
      const uint32_t p[4] = {
          prec_mma<T>::pack(s[2 * k][0], s[2 * k][1]),
          prec_mma<T>::pack(s[2 * k][2], s[2 * k][3]),
          prec_mma<T>::pack(s[2 * k + 1][0], s[2 * k + 1][1]),
          prec_mma<T>::pack(s[2 * k + 1][2], s[2 * k + 1][3])};
      for (int j = 0; j < DV / 8; j += 2) {
        uint32_t b[4];
        prec_load_b_fragments<T, VALUE_STRIDE>(b, &values_tile[0][0], k * 16,
                                               j * 8, lane);
        prec_mma<T>::mma(out[j], p, b);
        prec_mma<T>::mma(out[j + 1], p, b + 2);
      }
    }
    __syncthreads();
  }
  for (int r = 0; r < 2; ++r) {
    sum[r] += __shfl_xor_sync(0xffffffffu, sum[r], 1);
    sum[r] += __shfl_xor_sync(0xffffffffu, sum[r], 2);
  }
  for (int j = 0; j < DV / 8; ++j)
    for (int e = 0; e < 4; ++e) {
      const I row = e < 2 ? row0 : row1;
      const float total = sum[e >> 1];
      if (row < a.sq)
        a.out[(head * a.sq + row) * DV + j * 8 + 2 * t + (e & 1)] =
            prec_from_float<O>(total == 0.0f ? (ZERO_NAN_ROWS ? 0.0f : NAN)
                                             : out[j][e] / total);
    }
}
