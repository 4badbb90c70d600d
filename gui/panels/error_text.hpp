#pragma once
// An error in a panel: wrapped, in the error colour.
#include <string>

namespace sg::gui {

void error_text(const std::string& text);

}  // namespace sg::gui
