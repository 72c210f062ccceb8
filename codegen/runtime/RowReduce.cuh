// The reduction of a row kernel (LayerNorm, softmax), copied into the engines
// that have one: a shuffle tree in each warp, then the Warps warps' partials
// in order, so that every thread of the row gets the same result. A row of
// one warp needs no barrier, so such rows can share a block.

template <bool IsMax, int Warps>
__device__ __forceinline__ float prec_row_reduce(float v, float *partial) {
  for (int offset = 16; offset > 0; offset /= 2) {
    float w = __shfl_xor_sync(0xffffffffu, v, offset);
    v = IsMax ? fmaxf(v, w) : __fadd_rn(v, w);
  }
  if (Warps == 1)
    return v;
  __syncthreads(); // the previous reduction has read its partials
  if ((threadIdx.x & 31) == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  v = partial[0];
  for (int w = 1; w < Warps; ++w)
    v = IsMax ? fmaxf(v, partial[w]) : __fadd_rn(v, partial[w]);
  return v;
}
