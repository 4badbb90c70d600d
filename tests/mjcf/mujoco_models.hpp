#pragma once
// MuJoCo models for the engine/articulated comparisons: compiled from inline MJCF text (through MuJoCo's
// virtual file system, no file on disk) or from a file, owned by unique_ptrs.
#include <cstring>
#include <memory>
#include <random>
#include <string>

#include <mujoco/mujoco.h>

namespace sg::test {

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

inline ModelPtr load_xml_text(const std::string& xml, std::string& error) {
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const char* name = "model.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), name, static_cast<int>(xml.size())) != 0) {
    error = "VFS full";
    return nullptr;
  }
  std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), name)], xml.data(), xml.size());
  char err[1000] = "";
  ModelPtr m(mj_loadXML(name, vfs.get(), err, sizeof(err)));
  mj_deleteVFS(vfs.get());
  error = err;
  return m;
}

inline ModelPtr load_xml_file(const std::string& path, std::string& error) {
  char err[1000] = "";
  ModelPtr m(mj_loadXML(path.c_str(), nullptr, err, sizeof(err)));
  error = err;
  return m;
}

// A struct of a name and an MJCF text, for tables of inline models.
struct NamedXml {
  const char* name;
  const char* xml;
};

inline const char* kHumanoid = "/usr/share/mujoco/model/humanoid/humanoid.xml";

// The reference model with the constraint stage off (contacts, joint limits): mj_forward's qacc is then
// qacc_smooth, the quantity the unconstrained tree computes.
inline DataPtr make_reference_data(mjModel* m) {
  m->opt.disableflags |= mjDSBL_CONSTRAINT | mjDSBL_CONTACT;
  return DataPtr(mj_makeData(m));
}

// A random state: hinge angles in (-pi, pi), slides in (-0.5, 0.5), random unit quaternions, free joints'
// positions in a unit box, velocities in (-vmax, vmax), and random applied forces.
inline void random_state(const mjModel* m, mjData* d, std::mt19937& rng, double vmax) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::normal_distribution<double> g;
  for (int j = 0; j < m->njnt; ++j) {
    mjtNum* q = d->qpos + m->jnt_qposadr[j];
    switch (m->jnt_type[j]) {
      case mjJNT_FREE:
        for (int c = 0; c < 3; ++c) q[c] = u(rng);
        q += 3;
        [[fallthrough]];
      case mjJNT_BALL:
        for (int c = 0; c < 4; ++c) q[c] = g(rng);
        mju_normalize4(q);
        break;
      case mjJNT_SLIDE:
        q[0] = 0.5 * u(rng);
        break;
      default:
        q[0] = 3.14159 * u(rng);
    }
  }
  for (int v = 0; v < m->nv; ++v) {
    d->qvel[v] = vmax * u(rng);
    d->qfrc_applied[v] = u(rng);
  }
}

}  // namespace sg::test
