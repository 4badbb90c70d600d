#pragma once
// An mjModel and its mjData, owned together, loaded from MJCF text (through MuJoCo's virtual file system) or
// from a file with libmujoco's own loader. Shared by the MJCF import, `softgrad validate` and the MuJoCo
// comparison tests.
#include <mujoco/mujoco.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace sg::mjcmp {

struct MujocoSim {
  mjModel* m = nullptr;
  mjData* d = nullptr;
  MujocoSim() = default;
  MujocoSim(const MujocoSim&) = delete;
  MujocoSim& operator=(const MujocoSim&) = delete;
  ~MujocoSim() {
    if (d) mj_deleteData(d);
    if (m) mj_deleteModel(m);
  }
};

// Throws with MuJoCo's message and the text when the text does not load.
inline std::unique_ptr<MujocoSim> load_mujoco(const std::string& xml) {
  auto vfs = std::make_unique<mjVFS>();  // about 2 MB of file-name slots: not on the stack
  mj_defaultVFS(vfs.get());
  const char* name = "softgrad_compare.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), name, static_cast<int>(xml.size())) != 0)
    throw std::runtime_error("mj_makeEmptyFileVFS failed");
  const int slot = mj_findFileVFS(vfs.get(), name);
  std::memcpy(vfs->filedata[slot], xml.data(), xml.size());
  char error[1000] = "";
  auto sim = std::make_unique<MujocoSim>();
  sim->m = mj_loadXML(name, vfs.get(), error, sizeof error);
  mj_deleteVFS(vfs.get());
  if (!sim->m) throw std::runtime_error(std::string("mj_loadXML: ") + error + "\n" + xml);
  sim->d = mj_makeData(sim->m);
  return sim;
}

// mj_loadXML on a file (assets and includes resolve against its folder). On failure returns null and puts
// MuJoCo's message, which names the element and line, into *error.
inline std::unique_ptr<MujocoSim> load_mujoco_file(const std::string& path, std::string* error) {
  char message[1000] = "";
  auto sim = std::make_unique<MujocoSim>();
  sim->m = mj_loadXML(path.c_str(), nullptr, message, sizeof message);
  if (!sim->m) {
    *error = message;
    return nullptr;
  }
  sim->d = mj_makeData(sim->m);
  return sim;
}

}  // namespace sg::mjcmp
