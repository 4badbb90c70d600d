#pragma once
// Memory that the CUDA sweeps keep from one sweep to the next (the GUI re-sweeps on every knob change, and
// allocating, freeing and resizing the stack cost a sweep of the toy 100 ms of its 116): grown when a sweep
// needs more, never shrunk, freed with the process.
#include <cuda_runtime.h>

#include <cstddef>

namespace sg {

// Device memory (cudaMalloc) or page-locked host memory (cudaMallocHost, which copies run from directly).
enum class BufferKind { device, pinned_host };

template <class T, BufferKind kKind>
class CudaBuffer {
 public:
  CudaBuffer() = default;
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;
  ~CudaBuffer() { release(); }

  // At least `count` elements; the contents are not kept when it grows.
  cudaError_t reserve(std::size_t count) {
    if (count <= capacity_) return cudaSuccess;
    release();
    void* p = nullptr;
    const cudaError_t e = kKind == BufferKind::device ? cudaMalloc(&p, count * sizeof(T))
                                                      : cudaMallocHost(&p, count * sizeof(T));
    if (e != cudaSuccess) return e;
    ptr_ = static_cast<T*>(p);
    capacity_ = count;
    return cudaSuccess;
  }
  T* get() const { return ptr_; }
  std::size_t bytes() const { return capacity_ * sizeof(T); }

 private:
  void release() {
    if (!ptr_) return;
    if (kKind == BufferKind::device)
      cudaFree(ptr_);
    else
      cudaFreeHost(ptr_);
    ptr_ = nullptr;
    capacity_ = 0;
  }
  T* ptr_ = nullptr;
  std::size_t capacity_ = 0;
};

template <class T>
using DeviceBuffer = CudaBuffer<T, BufferKind::device>;
template <class T>
using PinnedBuffer = CudaBuffer<T, BufferKind::pinned_host>;

}  // namespace sg
