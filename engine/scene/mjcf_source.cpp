#include "engine/scene/mjcf_source.hpp"

#include <atomic>
#include <exception>
#include <filesystem>

namespace sg::scene {
namespace {

using nlohmann::json;

std::atomic<MjcfImporter> g_importer{nullptr};

void overlay(json& base, const json& over, const std::string& path, std::vector<Issue>& errors);

// Scene entries change the imported bodies' keys; a body the MJCF does not have would be a default sphere.
void overlay_bodies(json& base, const json& over, std::vector<Issue>& errors) {
  for (std::size_t i = 0; i < over.size(); ++i) {
    const std::string path = "model.bodies." + std::to_string(i);
    if (i >= base.size()) {
      errors.push_back({path, "the MJCF model has " + std::to_string(base.size()) +
                                  " free bodies; the scene's model.bodies entries change the imported "
                                  "bodies' keys and cannot add bodies"});
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
    } else if (child == "model.bodies" && it != base.end() && it->is_array() && item.value().is_array()) {
      overlay_bodies(*it, item.value(), errors);
    } else {
      base[item.key()] = item.value();
    }
  }
}

}  // namespace

void set_mjcf_importer(MjcfImporter importer) {
  g_importer.store(importer);
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
  MjcfKeys imported;
  try {
    imported = importer(mjcf_file_path(source, file->get<std::string>()));
  } catch (const std::exception& e) {
    imported.errors = {std::string("MJCF import failed: ") + e.what()};
  }
  for (const auto& message : imported.errors) errors.push_back({"model.file", message});
  if (!imported.errors.empty()) return;
  json merged = std::move(imported.keys);
  std::vector<Issue> overlay_errors;
  overlay(merged, doc, "", overlay_errors);
  errors.insert(errors.end(), overlay_errors.begin(), overlay_errors.end());
  if (!overlay_errors.empty()) return;
  merged["model"]["type"] = "rigid";
  doc = std::move(merged);
}

}  // namespace sg::scene
