#pragma once
// Marks functions that must also compile as CUDA device code. The engine's per-step code uses only
// these: no virtual calls, no heap, no exceptions.
#if defined(__CUDACC__)
#define SG_HD __host__ __device__
#else
#define SG_HD
#endif

// The small arithmetic of dual numbers and 3-vectors, always inlined: GCC's inliner gives up on them in the
// large contact functions (a call per dot product of duals measured 6% of a gradient run).
#if defined(__CUDACC__)
#define SG_INLINE __host__ __device__ __forceinline__
#elif defined(__GNUC__)
#define SG_INLINE __attribute__((always_inline)) inline
#else
#define SG_INLINE inline
#endif

// Always inlined on the host (rk_step: the stages' coefficients become constants), a call on the device.
#if defined(__GNUC__) && !defined(__CUDACC__)
#define SG_INLINE_HOST __attribute__((always_inline)) inline
#else
#define SG_INLINE_HOST inline
#endif

// Big engine functions stay calls in device code: inlining them all into the sweep kernel made nvcc take
// tens of minutes (the host build decides as before).
#if defined(__CUDACC__)
#define SG_NOINLINE __noinline__
#else
#define SG_NOINLINE
#endif

// Fully unrolls the next loop (fixed small trip counts: the 6 x 6 blocks of the contact solve), where GCC's
// heuristics stop at nested triangular loops.
#if defined(__CUDACC__)
#define SG_UNROLL _Pragma("unroll")
#elif defined(__clang__)
#define SG_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define SG_UNROLL _Pragma("GCC unroll 16")
#else
#define SG_UNROLL
#endif

// Constant tables the device code reads at run time (Butcher tableaus): a __device__ copy under nvcc, where
// such a variable must have internal linkage (one copy per translation unit, as whole-program CUDA wants);
// inline elsewhere.
#if defined(__CUDACC__)
#define SG_TABLE __device__ constexpr
#else
#define SG_TABLE inline constexpr
#endif
