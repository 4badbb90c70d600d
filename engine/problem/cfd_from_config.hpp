#pragma once
// Reads contact.cfd of a resolved, validated scene: the free bodies and the joint trees share it.
#include <nlohmann/json.hpp>

#include "engine/contact/cfd.hpp"

namespace sg {

CfdParams<double> read_cfd(const nlohmann::json& contact);

}  // namespace sg
