#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <glad/gl.h>

#include <filesystem>
#include <fstream>

#include "headless_fixture.hpp"
#include "render/gl_check.hpp"
#include "render/image_io.hpp"
#include "render/renderer.hpp"

using namespace sg::render;
using sg::render::testing::pixel;

namespace {
constexpr int k_w = 160, k_h = 120;

Scene3D red_sphere_scene() {
  Scene3D scene;
  Primitive ground;
  ground.shape = Shape::kPlane;
  ground.size[0] = ground.size[1] = 5.0f;
  ground.size[2] = 0.5f;
  ground.color[0] = ground.color[1] = ground.color[2] = 0.3f;
  scene.prims.push_back(ground);
  Primitive ball;
  ball.shape = Shape::kSphere;
  ball.size[0] = 0.6f;
  ball.pos[2] = 0.6f;
  ball.color[0] = 0.9f;
  ball.color[1] = 0.1f;
  ball.color[2] = 0.1f;
  scene.prims.push_back(ball);
  return scene;
}

Camera looking_at_ball() {
  Camera camera;
  camera.target = {0.0f, 0.0f, 0.6f};
  camera.distance = 4.0f;
  return camera;
}

std::vector<std::uint8_t> render(HeadlessContext& context, const Renderer& renderer, const Scene3D& scene,
                                 const Camera& camera) {
  context.bind_frame_target();
  renderer.draw(scene, camera, k_w, k_h);
  context.end_frame();
  return context.read_rgba();
}

std::unique_ptr<Renderer> make_renderer() {
  std::string error;
  auto renderer = Renderer::create(&error);
  INFO(error);
  REQUIRE(renderer != nullptr);
  return renderer;
}

// Red-dominant; shadowed faces of a 0.9-red object still exceed 60 with the 0.22 ambient term.
bool is_red(const testing::Rgba& p) {
  return p.r > 60 && p.r > 2 * p.g && p.r > 2 * p.b;
}
}  // namespace

TEST_CASE("headless render shows the sphere's colour at the centre and background in the corner") {
  auto context = testing::require_headless(k_w, k_h);
  auto renderer = make_renderer();
  const auto image = render(*context, *renderer, red_sphere_scene(), looking_at_ball());
  CHECK(take_gl_errors().empty());
  const auto center = pixel(image, k_w, k_w / 2, k_h / 2);
  INFO("centre rgba " << center.r << " " << center.g << " " << center.b);
  CHECK(is_red(center));
  CHECK(center.a == 255);
  // Top-left corner looks above the horizon: background colour (RenderStyle default, +-2 for rounding).
  const auto corner = pixel(image, k_w, 1, 1);
  const auto bg = renderer->style.background;
  CHECK(std::abs(corner.r - static_cast<int>(bg[0] * 255.0f + 0.5f)) <= 2);
  CHECK(std::abs(corner.b - static_cast<int>(bg[2] * 255.0f + 0.5f)) <= 2);
}

TEST_CASE("every shape renders without GL errors and covers pixels") {
  auto context = testing::require_headless(k_w, k_h);
  auto renderer = make_renderer();
  const Shape shapes[] = {Shape::kSphere, Shape::kCapsule, Shape::kBox, Shape::kCylinder, Shape::kEllipsoid};
  for (Shape shape : shapes) {
    Scene3D scene;
    Primitive prim;
    prim.shape = shape;
    prim.size[0] = 0.5f;
    prim.size[1] = 0.4f;
    prim.size[2] = 0.3f;
    prim.pos[2] = 0.6f;
    prim.color[0] = 0.9f;
    prim.color[1] = prim.color[2] = 0.1f;
    scene.prims.push_back(prim);
    const auto image = render(*context, *renderer, scene, looking_at_ball());
    CHECK(take_gl_errors().empty());
    const auto p = pixel(image, k_w, k_w / 2, k_h / 2);
    INFO("shape " << static_cast<int>(shape) << " centre rgba " << p.r << " " << p.g << " " << p.b);
    CHECK(is_red(p));
  }
}

TEST_CASE("a different camera gives a different image") {
  auto context = testing::require_headless(k_w, k_h);
  auto renderer = make_renderer();
  const Scene3D scene = red_sphere_scene();
  Camera camera = looking_at_ball();
  const auto first = render(*context, *renderer, scene, camera);
  camera_orbit(camera, 0.0f, 120.0f);
  camera_pan(camera, 60.0f, 0.0f, k_h);
  const auto second = render(*context, *renderer, scene, camera);
  std::size_t differing = 0;
  for (std::size_t i = 0; i < first.size(); i += 4) differing += first[i] != second[i] ? 1 : 0;
  MESSAGE("pixels differing: " << differing);
  CHECK(differing > static_cast<std::size_t>(k_w * k_h / 20));  // at least 5 % of the image
}

TEST_CASE("lines are drawn in their kind's colour") {
  auto context = testing::require_headless(k_w, k_h);
  auto renderer = make_renderer();
  renderer->style.line_width = 5.0f;
  Scene3D scene;
  Line force;
  force.kind = LineKind::kVirtualForce;
  force.from[2] = -2.0f;
  force.to[2] = 3.0f;
  force.from[0] = force.to[0] = 0.0f;
  scene.lines.push_back(force);
  Camera camera = looking_at_ball();
  camera.pitch = 0.0f;
  const auto image = render(*context, *renderer, scene, camera);
  CHECK(take_gl_errors().empty());
  const auto expected = line_color(force);
  const auto p = pixel(image, k_w, k_w / 2, k_h / 2);
  INFO("centre rgba " << p.r << " " << p.g << " " << p.b);
  CHECK(std::abs(p.g - static_cast<int>(expected[1] * 255.0f)) <= 3);
  CHECK(std::abs(p.b - static_cast<int>(expected[2] * 255.0f)) <= 3);
}

TEST_CASE("GL errors are detected and reported by name") {
  auto context = testing::require_headless(8, 8);
  CHECK(take_gl_errors().empty());
  glEnable(0x1234);  // not a capability: GL_INVALID_ENUM
  std::string error;
  CHECK_FALSE(check_gl("deliberate", &error));
  CHECK(error.find("deliberate") != std::string::npos);
  CHECK(error.find("GL_INVALID_ENUM") != std::string::npos);
  CHECK(take_gl_errors().empty());  // drained
}

TEST_CASE("framebuffer read-back is written as a PNG") {
  auto context = testing::require_headless(k_w, k_h);
  auto renderer = make_renderer();
  const auto image = render(*context, *renderer, red_sphere_scene(), looking_at_ball());
  const auto path = std::filesystem::path(sg::test::binary_dir()) / "test_render_sphere.png";
  std::string error;
  REQUIRE(write_png(path.string(), k_w, k_h, image, &error));
  std::ifstream file(path, std::ios::binary);
  char signature[8] = {};
  file.read(signature, 8);
  CHECK(std::string(signature + 1, 3) == "PNG");
  CHECK(std::filesystem::file_size(path) > 200);
  CHECK_FALSE(write_png(path.string(), k_w, k_h + 1, image, &error));  // size mismatch is refused
}
