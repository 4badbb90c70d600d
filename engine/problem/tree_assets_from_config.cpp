#include "engine/problem/tree_assets_from_config.hpp"

#include <cmath>
#include <stdexcept>

#include "engine/model/tree_hfield_store.hpp"
#include "engine/model/tree_mesh_store.hpp"

namespace sg {
namespace {

using nlohmann::json;

std::vector<double> reals_of(const json& entry, const char* key) {
  std::vector<double> out;
  if (!entry.contains(key)) return out;
  out.reserve(entry.at(key).size());
  for (const json& v : entry.at(key)) out.push_back(v.get<double>());
  return out;
}

// A list of indices: whole numbers (the schema bounds them).
std::vector<int> indices_of(const json& entry, const char* key, const std::string& path) {
  std::vector<int> out;
  for (double v : reals_of(entry, key)) {
    if (v != std::floor(v) || std::fabs(v) > 1e9)
      throw std::invalid_argument(path + "." + key + "." + std::to_string(out.size()) + ": not an index");
    out.push_back(static_cast<int>(v));
  }
  return out;
}

template <class T>
void check_new_name(const std::vector<const T*>& earlier, const std::string& path, const std::string& name,
                    const char* what) {
  for (const T* e : earlier)
    if (e->name == name) throw std::invalid_argument(path + ".name: \"" + name + "\" names two " + what);
}

std::vector<const TreeMesh*> read_meshes(const json& tree) {
  std::vector<const TreeMesh*> out;
  if (!tree.contains("meshes")) return out;
  const json& meshes = tree.at("meshes");
  for (std::size_t i = 0; i < meshes.size(); ++i) {
    const json& j = meshes[i];
    const std::string path = "model.tree.meshes." + std::to_string(i), name = j.at("name").get<std::string>();
    check_new_name(out, path, name, "meshes");
    out.push_back(keep_tree_mesh(path, name, reals_of(j, "vertices"), indices_of(j, "faces", path),
                                 indices_of(j, "graph", path)));
  }
  return out;
}

std::vector<const TreeHField*> read_hfields(const json& tree) {
  std::vector<const TreeHField*> out;
  if (!tree.contains("hfields")) return out;
  const json& fields = tree.at("hfields");
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const json& j = fields[i];
    const std::string path = "model.tree.hfields." + std::to_string(i),
                      name = j.at("name").get<std::string>();
    check_new_name(out, path, name, "height fields");
    out.push_back(keep_tree_hfield(path, name, j.at("nrow").get<int>(), j.at("ncol").get<int>(),
                                   reals_of(j, "size"), reals_of(j, "elevation")));
  }
  return out;
}

// The entry of `list` named `name` for a geom of type `type` (key `key`), or null for a geom of another type.
template <class T>
const T* named(const json& j, const std::string& path, const char* key, GeomType type, GeomType geom_type,
               const std::vector<const T*>& list, const char* list_path) {
  const std::string name = j.contains(key) ? j.at(key).get<std::string>() : std::string();
  const std::string word = geom_type_name(type), a = type == GeomType::hfield ? "an " : "a ";
  if (geom_type != type) {
    if (!name.empty())
      throw std::invalid_argument(path + "." + key + ": only " + a + word + " geom names " + a + word);
    return nullptr;
  }
  for (const T* t : list)
    if (t->name == name) return t;
  throw std::invalid_argument(path + "." + key + ": " +
                              (name.empty()
                                   ? a + word + " geom needs " + a + word + " (" + list_path + ".*.name)"
                                   : "no " + word + " named \"" + name + "\" in " + list_path));
}

}  // namespace

TreeAssets read_tree_assets(const json& tree) {
  return {read_meshes(tree), read_hfields(tree)};
}

void set_geom_assets(const json& j, const std::string& path, const TreeAssets& assets, TreeGeom<double>& g) {
  g.mesh = named(j, path, "mesh", GeomType::mesh, g.type, assets.meshes, "model.tree.meshes");
  if (g.mesh) g.size = tree_mesh_aabb(*g.mesh);
  g.hfield = named(j, path, "hfield", GeomType::hfield, g.type, assets.hfields, "model.tree.hfields");
  if (g.hfield) {
    const double* s = g.hfield->field.size;
    g.size = Vec3<double>(s[0], s[1], 0.5 * (s[2] + s[3]));
  }
}

}  // namespace sg
