#pragma once
// MuJoCo models for the engine/articulated comparisons: compiled from inline MJCF text (through MuJoCo's
// virtual file system, no file on disk) or from a file, owned by unique_ptrs.
#include <cstring>
#include <memory>
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

}  // namespace sg::test
