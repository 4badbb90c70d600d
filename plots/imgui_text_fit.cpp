#include "plots/imgui_text_fit.hpp"

#include <imgui.h>

#include <cstddef>

namespace sg::plot {
namespace {

// text itself when it fits, else shortened(n) for the largest n < text.size() that fits (the widths grow with
// n), found by bisection; "" when not even shortened(0) fits.
template <typename Shortened>
std::string longest_fitting(const std::string& text, float width, Shortened shortened) {
  const auto fits = [width](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x <= width; };
  if (fits(text)) return text;
  if (!fits(shortened(0))) return "";
  std::size_t good = 0, too_long = text.size();
  while (too_long - good > 1) {
    const std::size_t mid = (good + too_long) / 2;
    (fits(shortened(mid)) ? good : too_long) = mid;
  }
  return shortened(good);
}

}  // namespace

std::string fit_head(const std::string& text, float width) {
  return longest_fitting(text, width, [&text](std::size_t keep) { return text.substr(0, keep) + "..."; });
}

std::string fit_tail(const std::string& text, float width) {
  const std::string shortened = longest_fitting(
      text, width, [&text](std::size_t keep) { return "..." + text.substr(text.size() - keep); });
  return shortened == "..." ? "" : shortened;  // nothing of the text left
}

std::string fit_middle(const std::string& text, float width) {
  const std::string shortened = longest_fitting(text, width, [&text](std::size_t keep) {
    const std::size_t head = (keep * 3 + 4) / 5;
    return text.substr(0, head) + "..." + text.substr(text.size() - (keep - head));
  });
  return shortened == "..." ? "" : shortened;  // nothing of the text left
}

}  // namespace sg::plot
