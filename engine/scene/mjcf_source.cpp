#include "engine/scene/mjcf_source.hpp"

#include <atomic>
#include <exception>
#include <filesystem>

namespace sg::scene {
namespace {

using nlohmann::json;

std::atomic<MjcfImporter> g_importer{nullptr};
std::atomic<MjcfKeyframeLister> g_keyframe_lister{nullptr};

void overlay(json& base, const json& over, const std::string& path, std::vector<Issue>& errors);

// Arrays whose entries the scene changes key by key: the free bodies, a tree's bodies and their joints, its
// sites, tendons and actuators.
bool merged_by_index(const std::string& path) {
  if (path == "model.bodies" || path == "model.tree.bodies" || path == "model.tree.actuators" ||
      path == "model.tree.sites" || path == "model.tree.tendons")
    return true;
  const std::string joints = ".joints";
  return path.rfind("model.tree.bodies.", 0) == 0 && path.size() > joints.size() &&
         path.compare(path.size() - joints.size(), joints.size(), joints) == 0;
}

// Scene entries change the imported entries' keys; an entry the MJCF does not have would be a default one.
void overlay_bodies(json& base, const json& over, const std::string& at, std::vector<Issue>& errors) {
  const bool free_bodies = at == "model.bodies";
  for (std::size_t i = 0; i < over.size(); ++i) {
    const std::string path = at + "." + std::to_string(i);
    if (i >= base.size() && at == "model.tree.sites") {  // sites move nothing: a scene may add markers
      base.push_back(over[i]);
      continue;
    }
    if (i >= base.size()) {
      errors.push_back({path, "the MJCF model has " + std::to_string(base.size()) +
                                  (free_bodies ? " free bodies" : " entries here") + "; the scene's " + at +
                                  " entries change the imported keys and cannot add " +
                                  (free_bodies ? "bodies" : "entries")});
      return;
    }
    if (base[i].is_object() && over[i].is_object()) {
      overlay(base[i], over[i], path, errors);
    } else {
      base[i] = over[i];  // the schema reports a non-object entry
    }
  }
}

void overlay(json& base, const json& over, const std::string& path, std::vector<Issue>& errors) {
  for (const auto& item : over.items()) {
    const std::string child = path.empty() ? item.key() : path + "." + item.key();
    const auto it = base.find(item.key());
    if (it != base.end() && it->is_object() && item.value().is_object()) {
      overlay(*it, item.value(), child, errors);
    } else if (merged_by_index(child) && it != base.end() && it->is_array() && item.value().is_array()) {
      overlay_bodies(*it, item.value(), child, errors);
    } else {
      base[item.key()] = item.value();
    }
  }
}

// model.keyframe as the importer takes it: a key's name, or its index (a number, or --set's "0", becomes its
// decimal text, which the key then records). False, with the error, for any other value.
bool read_keyframe(json& model, std::string& keyframe, std::vector<Issue>& errors) {
  const auto it = model.find("keyframe");
  if (it == model.end() || it->is_null()) return true;
  if (it->is_number_unsigned() || (it->is_number_integer() && it->get<long long>() >= 0)) {
    *it = std::to_string(it->get<long long>());
  } else if (!it->is_string()) {
    errors.push_back({"model.keyframe",
                      "expected a keyframe's name or its index (a whole number >= 0), got " + it->dump()});
    return false;
  }
  keyframe = it->get<std::string>();
  return true;
}

}  // namespace

void set_mjcf_importer(MjcfImporter importer) {
  g_importer.store(importer);
}

void set_mjcf_keyframe_lister(MjcfKeyframeLister lister) {
  g_keyframe_lister.store(lister);
}

std::string mjcf_model_path(const json& config, const std::string& scene_source) {
  const auto model = config.find("model");
  if (model == config.end() || !model->is_object()) return {};
  const auto file = model->find("file");
  if (file == model->end() || !file->is_string() || file->get<std::string>().empty()) return {};
  return mjcf_file_path(scene_source, file->get<std::string>());
}

std::vector<std::string> mjcf_keyframes(const json& config, const std::string& scene_source) {
  const MjcfKeyframeLister lister = g_keyframe_lister.load();
  const std::string path = mjcf_model_path(config, scene_source);
  return lister && !path.empty() ? lister(path) : std::vector<std::string>();
}

bool has_mjcf_importer() {
  return g_importer.load() != nullptr;
}

std::string mjcf_file_path(const std::string& scene_source, const std::string& file) {
  const std::filesystem::path path(file);
  if (path.is_absolute()) return file;
  return (std::filesystem::path(scene_source).parent_path() / path).lexically_normal().string();
}

void expand_mjcf(json& doc, const std::string& source, std::vector<Issue>& errors) {
  if (!doc.is_object()) return;
  const auto model = doc.find("model");
  if (model == doc.end() || !model->is_object() || model->value("type", json()) != json("mjcf")) return;
  const auto file = model->find("file");
  if (file == model->end() || !file->is_string() || file->get<std::string>().empty()) {
    errors.push_back(
        {"model.file",
         "model.type \"mjcf\" needs model.file, the MJCF file's path relative to the scene file"});
    return;
  }
  const MjcfImporter importer = g_importer.load();
  if (!importer) {
    errors.push_back({"model.file", "MJCF import needs libmujoco (libmujoco-dev); this build has none"});
    return;
  }
  std::string keyframe;
  if (!read_keyframe(*model, keyframe, errors)) return;
  MjcfKeys imported;
  try {
    imported = importer(mjcf_file_path(source, file->get<std::string>()), keyframe);
  } catch (const std::exception& e) {
    imported.errors = {std::string("MJCF import failed: ") + e.what()};
  }
  for (const auto& message : imported.errors) errors.push_back({"model.file", message});
  if (!imported.keyframe_error.empty()) errors.push_back({"model.keyframe", imported.keyframe_error});
  if (!imported.errors.empty() || !imported.keyframe_error.empty()) return;
  json merged = std::move(imported.keys);
  // The importer says which model the file is (free bodies: rigid; joints: tree); the scene's "mjcf" goes.
  const bool tree = merged.value("model", json::object()).value("type", json()) == json("tree");
  std::vector<Issue> overlay_errors;
  overlay(merged, doc, "", overlay_errors);
  errors.insert(errors.end(), overlay_errors.begin(), overlay_errors.end());
  if (!overlay_errors.empty()) return;
  merged["model"]["type"] = tree ? "tree" : "rigid";
  doc = std::move(merged);
}

}  // namespace sg::scene
