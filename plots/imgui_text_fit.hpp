#pragma once
// Text shortened with "..." to a width in pixels of the current ImGui font: plot titles, axis labels and
// legend entries, and any panel's one-line text.
#include <string>

namespace sg::plot {

// The longest head of text that fits, followed by "..." when shortened; "" if nothing fits.
std::string fit_head(const std::string& text, float width);
// The longest tail of text that fits, prefixed by "..." when shortened; "" if nothing fits.
std::string fit_tail(const std::string& text, float width);
// Both ends of text with "..." between, as many characters as fit (3/5 from the front): legend labels, whose
// end holds what differs ("pin 1: kappa (hard contact) 300" -> "pin 1: kap...300").
std::string fit_middle(const std::string& text, float width);

}  // namespace sg::plot
