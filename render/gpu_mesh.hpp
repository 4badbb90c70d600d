#pragma once
// A MeshData uploaded into a VAO with position (location 0) and normal (location 1).
#include "render/mesh_data.hpp"

namespace sg::render {

class GpuMesh {
 public:
  GpuMesh() = default;
  explicit GpuMesh(const MeshData& mesh);
  GpuMesh(GpuMesh&& other) noexcept;
  GpuMesh& operator=(GpuMesh&& other) noexcept;
  GpuMesh(const GpuMesh&) = delete;
  GpuMesh& operator=(const GpuMesh&) = delete;
  ~GpuMesh();

  void draw() const;

 private:
  void release();
  unsigned vao_ = 0, vbo_ = 0, ebo_ = 0;
  int index_count_ = 0;
};

}  // namespace sg::render
