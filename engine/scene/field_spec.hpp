#pragma once
// The declarative scene schema: one FieldSpec per key. The validator, the defaults, the GUI controls and
// the documentation all come from this one table, so adding a key means adding one row.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sg::scene {

enum class FieldKind { number, integer, boolean, choice, text, number_or_inf, vector, object_array };

// Which model.type a differentiable field belongs to: differentiable_paths() lists a field only for the
// model that reads it, so that a sweep cannot pick a parameter the simulation ignores.
enum class ModelScope { all, particles, rigid, tree, bodies };  // bodies: rigid and tree

// Whether a field of `field`'s scope is read by a scene of model scope `scene`.
inline bool scope_reads(ModelScope field, ModelScope scene) {
  return field == ModelScope::all || field == scene ||
         (field == ModelScope::bodies && (scene == ModelScope::rigid || scene == ModelScope::tree));
}

struct FieldSpec {
  std::string path;  // with "*" for array indices: "model.particles.*.mass"
  FieldKind kind;
  // Inclusive bounds unless the flags say otherwise (+-inf when open). For a vector they bound every
  // component; for an object_array they bound the number of entries.
  double min, max;
  bool min_exclusive, max_exclusive;
  std::vector<std::string> choices;  // for choice; for an integer, the allowed values when not empty
  int length;                        // for vector: fixed length (3 for vec3, 2 for solref, 5 for solimp)
  nlohmann::json default_value;      // for object_array: the fully resolved default array
  bool differentiable;               // may be the sweep parameter / carries a gradient
  std::string help;                  // one-sentence tooltip
  ModelScope scope;                  // the model whose differentiable_paths() include this field
  int gradient_components;           // for a differentiable vector: only the first n carry one (0 = all)
  int max_length = 0;                // for vector: > 0 allows 0 to max_length numbers instead of `length`
};

// Every key of the schema, parents (object_array rows) before their element fields.
const std::vector<FieldSpec>& scene_fields();

// Accepts pattern paths ("model.particles.*.mass"), concrete ones ("model.particles.3.mass",
// "model.particles[3].mass") and vector components ("model.gravity.2" gives the model.gravity spec).
// Returns nullptr for paths outside the schema and for intermediate objects such as "contact".
const FieldSpec* find_field(const std::string& concrete_or_pattern_path);

const char* field_kind_name(FieldKind kind);

}  // namespace sg::scene
