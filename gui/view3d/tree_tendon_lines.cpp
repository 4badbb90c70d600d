#include "gui/view3d/tree_tendon_lines.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

#include "engine/articulated/tendon.hpp"

namespace sg::gui {
namespace {

constexpr float k_tendon_color[4] = {0.85f, 0.2f, 0.2f, 1.0f};
constexpr float k_site_color[4] = {0.9f, 0.75f, 0.3f, 1.0f};

// The bodies' frames as the tendon stage reads them (xpos, xquat, xmat; the rest of TreeData unused: the
// Jacobians it also computes from them are not drawn).
std::unique_ptr<TreeData<double>> frames_of(const std::vector<TreeBodyPose>& poses) {
  auto d = std::make_unique<TreeData<double>>();
  const std::size_t n = std::min(poses.size(), static_cast<std::size_t>(kMaxTreeBodies));
  for (std::size_t b = 0; b < n; ++b) {
    d->xpos[b] = poses[b].pos;
    d->xquat[b] = normalized(poses[b].quat);
    d->xmat[b] = to_mat3(d->xquat[b]);
  }
  return d;
}

void add_line(const double* a, const double* b, render::Scene3D& out) {
  render::Line line;
  for (int k = 0; k < 3; ++k) line.from[k] = static_cast<float>(a[k]), line.to[k] = static_cast<float>(b[k]);
  std::copy(k_tendon_color, k_tendon_color + 4, line.color);
  out.lines.push_back(line);
}

}  // namespace

void add_tendon_lines(const JointTreeModel<double>& model, const std::vector<TreeBodyPose>& poses,
                      float site_radius, render::Scene3D& out) {
  const TreeTendonModel<double>& tm = model.act.ten;
  if (tm.nsite == 0 || static_cast<int>(poses.size()) < model.tree.nbody) return;
  const auto d = frames_of(poses);
  auto td = std::make_unique<TreeTendonData<double>>();
  tree_site_kinematics(tm, *d, *td);
  tree_tendon(model.tree, tm, *d, *td);
  for (int i = 0; i < tm.ntendon; ++i)
    for (int k = td->ten_wrapadr[i]; k + 1 < td->ten_wrapadr[i] + td->ten_wrapnum[i]; ++k)
      if (!std::isnan(td->wrap_xpos[k][0]) && !std::isnan(td->wrap_xpos[k + 1][0]))  // NaN: a pulley's break
        add_line(td->wrap_xpos[k], td->wrap_xpos[k + 1], out);
  for (int s = 0; s < tm.nsite; ++s) {
    render::Primitive site;
    site.shape = render::Shape::kSphere;
    for (int k = 0; k < 3; ++k) site.pos[k] = static_cast<float>(td->site_xpos[s][k]);
    std::fill(site.size, site.size + 3, site_radius);
    std::copy(k_site_color, k_site_color + 4, site.color);
    out.prims.push_back(site);
  }
}

}  // namespace sg::gui
