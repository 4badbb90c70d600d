#pragma once
// Marks functions that must also compile as CUDA device code. The engine's per-step code uses only
// these: no virtual calls, no heap, no exceptions.
#if defined(__CUDACC__)
#define SG_HD __host__ __device__
#else
#define SG_HD
#endif
