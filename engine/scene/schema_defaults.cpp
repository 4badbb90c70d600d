#include "engine/scene/schema_defaults.hpp"

#include "engine/scene/path.hpp"

namespace sg::scene {

void fill_array_defaults(std::vector<FieldSpec>& table) {
  // Reverse order resolves nested arrays before the arrays that contain them.
  for (auto array = table.rbegin(); array != table.rend(); ++array) {
    if (array->kind != FieldKind::object_array) continue;
    const std::string prefix = array->path + ".*.";
    for (auto& entry : array->default_value) {
      for (const auto& field : table) {
        if (field.path.rfind(prefix, 0) != 0) continue;
        const std::string rest = field.path.substr(prefix.size());
        if (rest.find('*') != std::string::npos || get_path(entry, rest)) continue;
        set_path(entry, rest, field.default_value, nullptr);
      }
    }
  }
}

}  // namespace sg::scene
