#pragma once
// Draws a Scene3D with shaded primitives, a grid ground plane and coloured lines.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "render/camera.hpp"
#include "render/scene3d.hpp"

namespace sg::render {

struct RenderStyle {
  Vec4f background{0.13f, 0.14f, 0.17f, 1.0f};
  Vec4f grid_line{0.55f, 0.58f, 0.64f, 1.0f};
  Vec3f light_dir{-0.35f, -0.25f, -0.9f};  // direction light travels, world space
  float line_width = 2.0f;
};

class Renderer {
 public:
  // Needs a current GL 3.3 core context; returns nullptr with the shader/GL error text on failure.
  static std::unique_ptr<Renderer> create(std::string* error);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Clears and draws into the currently bound framebuffer, viewport (0, 0, width, height).
  void draw(const Scene3D& scene, const Camera& camera, int width, int height) const;

  RenderStyle style;

 private:
  struct Resources;
  explicit Renderer(std::unique_ptr<Resources> resources);
  void draw_primitive(const Primitive& prim, const Mat4& view_proj, const Vec3f& eye) const;
  void draw_plane(const Primitive& prim, const Mat4& view_proj, const Vec3f& eye) const;
  void upload_meshes(const Scene3D& scene) const;
  std::unique_ptr<Resources> resources_;
  mutable std::vector<const MeshData*> current_meshes_;  // this frame's Scene3D::meshes
};

}  // namespace sg::render
