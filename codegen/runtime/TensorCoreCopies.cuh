// Shared-memory addresses and asynchronous copies (sm_80 and up), for the
// tensor-core kernels: AttentionKernel.cuh and ImplicitGemmConv.cuh.
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
// Waits until all but the latest PENDING groups of copies have landed.
template <int PENDING> __device__ inline void prec_wait_copies() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
}
