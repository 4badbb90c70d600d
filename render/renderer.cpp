#include "render/renderer.hpp"

#include <glad/gl.h>

#include <map>
#include <memory>

#include "render/gl_check.hpp"
#include "render/gpu_mesh.hpp"
#include "render/line_renderer.hpp"
#include "render/shader_program.hpp"

namespace sg::render {

struct Renderer::Resources {
  ShaderProgram mesh_program;
  ShaderProgram grid_program;
  LineRenderer lines;
  GpuMesh sphere{make_unit_sphere(32, 16)};
  GpuMesh cylinder{make_unit_cylinder(32)};
  GpuMesh box{make_unit_box()};
  GpuMesh quad{make_unit_quad()};
  // Scene meshes uploaded once, by address; kept with their data while scenes draw them.
  struct Uploaded {
    std::shared_ptr<const MeshData> data;
    GpuMesh gpu;
  };
  std::map<const MeshData*, Uploaded> uploaded;
};

namespace {

Vec3f to_vec3(const float v[3]) {
  return {v[0], v[1], v[2]};
}
Vec4f to_vec4(const float v[4]) {
  return {v[0], v[1], v[2], v[3]};
}

Mat4 model_matrix(const Vec3f& pos, const Vec4f& quat, const Vec3f& scale_xyz) {
  return translation(pos) * rotation_from_quat(quat) * scaling(scale_xyz);
}

// Unit-mesh scale for each shape (see the size conventions in scene3d.hpp).
Vec3f mesh_scale(const Primitive& prim) {
  switch (prim.shape) {
    case Shape::kSphere:
      return {prim.size[0], prim.size[0], prim.size[0]};
    case Shape::kCylinder:
    case Shape::kCapsule:
      return {prim.size[0], prim.size[0], prim.size[1]};
    case Shape::kBox:
    case Shape::kEllipsoid:
      return to_vec3(prim.size);
    case Shape::kPlane:
      return {prim.size[0], prim.size[1], 1.0f};
    case Shape::kMesh:
      break;
  }
  return {1.0f, 1.0f, 1.0f};
}

}  // namespace

std::unique_ptr<Renderer> Renderer::create(std::string* error) {
  auto mesh = ShaderProgram::build_embedded("mesh", error);
  if (!mesh) return nullptr;
  auto grid = ShaderProgram::build_embedded("grid", error);
  if (!grid) return nullptr;
  auto line = ShaderProgram::build_embedded("line", error);
  if (!line) return nullptr;
  auto resources = std::unique_ptr<Resources>(
      new Resources{std::move(*mesh), std::move(*grid), LineRenderer(std::move(*line))});
  if (!check_gl("Renderer::create", error)) return nullptr;
  return std::unique_ptr<Renderer>(new Renderer(std::move(resources)));
}

Renderer::Renderer(std::unique_ptr<Resources> resources) : resources_(std::move(resources)) {}
Renderer::~Renderer() = default;

void Renderer::draw(const Scene3D& scene, const Camera& camera, int width, int height) const {
  glViewport(0, 0, width, height);
  glClearColor(style.background[0], style.background[1], style.background[2], style.background[3]);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDisable(GL_CULL_FACE);
  glDisable(GL_SCISSOR_TEST);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  const Mat4 view_proj = camera_view_projection(camera, width, height);
  const Vec3f eye = camera_eye(camera);
  for (const Primitive& prim : scene.prims) {
    if (prim.shape == Shape::kPlane) draw_plane(prim, view_proj, eye);
  }
  upload_meshes(scene);
  for (const Primitive& prim : scene.prims) {
    if (prim.shape != Shape::kPlane) draw_primitive(prim, view_proj, eye);
  }
  glEnable(GL_BLEND);
  resources_->lines.draw(scene.lines, view_proj, style.line_width);
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glUseProgram(0);
}

void Renderer::draw_primitive(const Primitive& prim, const Mat4& view_proj, const Vec3f& eye) const {
  const ShaderProgram& program = resources_->mesh_program;
  // Blend only translucent primitives: blending costs a read-modify-write per pixel on software GL.
  if (prim.color[3] < 1.0f) {
    glEnable(GL_BLEND);
  } else {
    glDisable(GL_BLEND);
  }
  program.use();
  program.set("u_view_proj", view_proj);
  program.set("u_color", to_vec4(prim.color));
  program.set("u_eye", eye);
  program.set("u_light_dir", normalize(style.light_dir));
  const Vec3f pos = to_vec3(prim.pos);
  const Vec4f quat = to_vec4(prim.quat);
  const Vec3f s = mesh_scale(prim);
  auto draw_part = [&](const GpuMesh& mesh, const Mat4& local, const Vec3f& part_scale) {
    program.set("u_model", model_matrix(pos, quat, {1, 1, 1}) * local);
    program.set("u_normal_matrix", normal_matrix(quat, part_scale));
    mesh.draw();
  };
  switch (prim.shape) {
    case Shape::kSphere:
    case Shape::kEllipsoid:
      draw_part(resources_->sphere, scaling(s), s);
      break;
    case Shape::kBox:
      draw_part(resources_->box, scaling(s), s);
      break;
    case Shape::kCylinder:
      draw_part(resources_->cylinder, scaling(s), s);
      break;
    case Shape::kCapsule: {
      // Cylinder body plus two hemispherical ends (full spheres; the hidden halves are occluded).
      const float r = prim.size[0], half = prim.size[1];
      draw_part(resources_->cylinder, scaling(s), s);
      draw_part(resources_->sphere, translation({0, 0, half}) * scaling({r, r, r}), {r, r, r});
      draw_part(resources_->sphere, translation({0, 0, -half}) * scaling({r, r, r}), {r, r, r});
      break;
    }
    case Shape::kMesh: {
      if (prim.mesh < 0) break;
      const auto found = resources_->uploaded.find(current_meshes_[static_cast<std::size_t>(prim.mesh)]);
      if (found != resources_->uploaded.end()) draw_part(found->second.gpu, Mat4::identity(), {1, 1, 1});
      break;
    }
    case Shape::kPlane:
      break;
  }
}

// Uploads the scene's meshes not yet on the GPU and lets go of those it no longer holds.
void Renderer::upload_meshes(const Scene3D& scene) const {
  auto& uploaded = resources_->uploaded;
  current_meshes_.clear();
  for (const auto& mesh : scene.meshes) {
    current_meshes_.push_back(mesh.get());
    if (mesh && !uploaded.count(mesh.get()))
      uploaded.emplace(mesh.get(), Resources::Uploaded{mesh, GpuMesh(*mesh)});
  }
  for (auto it = uploaded.begin(); it != uploaded.end();) {
    bool held = false;
    for (const MeshData* m : current_meshes_) held = held || m == it->first;
    it = held ? std::next(it) : uploaded.erase(it);
  }
}

void Renderer::draw_plane(const Primitive& prim, const Mat4& view_proj, const Vec3f& eye) const {
  const ShaderProgram& program = resources_->grid_program;
  glDisable(GL_BLEND);
  program.use();
  program.set("u_view_proj", view_proj);
  program.set("u_model", model_matrix(to_vec3(prim.pos), to_vec4(prim.quat), mesh_scale(prim)));
  program.set("u_color", to_vec4(prim.color));
  program.set("u_line_color", style.grid_line);
  program.set("u_spacing", prim.size[2] > 0.0f ? prim.size[2] : 1.0f);
  program.set("u_eye", eye);
  resources_->quad.draw();
}

}  // namespace sg::render
