// SVG output: well-formed XML, escaped text, NaN-gap segments, legend entries, vertical markers, file
// writing.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "plots/svg.hpp"

using namespace sg::plot;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto pos = haystack.find(needle); pos != std::string::npos; pos = haystack.find(needle, pos + 1)) ++n;
  return n;
}

// Minimal XML check: every tag closes in order, attribute values are quoted, and text/attribute content
// has no raw '<' and only known entities after '&'. Returns an empty string when well formed.
std::string xml_problem(const std::string& doc) {
  std::vector<std::string> open;
  std::size_t i = 0;
  const auto check_entities = [&](std::size_t from, std::size_t to) -> std::string {
    for (std::size_t k = from; k < to; ++k) {
      if (doc[k] == '<') return "raw '<' in content";
      if (doc[k] != '&') continue;
      const std::string rest = doc.substr(k, 6);
      if (rest.rfind("&amp;", 0) && rest.rfind("&lt;", 0) && rest.rfind("&gt;", 0) &&
          rest.rfind("&quot;", 0) && rest.rfind("&apos;", 0)) {
        return "bad entity at " + std::to_string(k);
      }
    }
    return "";
  };
  while (i < doc.size()) {
    const std::size_t lt = doc.find('<', i);
    if (lt == std::string::npos) break;
    if (auto p = check_entities(i, lt); !p.empty()) return p;
    bool in_quote = false;
    std::size_t gt = lt + 1;
    for (; gt < doc.size() && (in_quote || doc[gt] != '>'); ++gt) {
      if (doc[gt] == '"') in_quote = !in_quote;
      if (in_quote && doc[gt] == '<') return "raw '<' in attribute";
    }
    if (gt >= doc.size()) return "unterminated tag";
    const std::string tag = doc.substr(lt + 1, gt - lt - 1);
    if (auto p = check_entities(lt + 1, gt); !p.empty()) return p;
    if (tag.front() == '?') {
      // XML declaration
    } else if (tag.front() == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return "mismatched </" + tag.substr(1) + ">";
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
    i = gt + 1;
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

Plot sample_plot() {
  Plot plot;
  plot.title = "Loss <vs> \"stiffness\" & friends";
  plot.x.label = "k [N/m]";
  plot.y.label = "loss";
  Series gap;
  gap.name = "with gap";
  gap.x = {0, 1, 2, 3, 4, 5};
  gap.y = {1, 2, kNaN, 3, 4, 5};
  Series plain;
  plain.name = "a<b";
  plain.x = {0, 5};
  plain.y = {0, 1};
  plain.dashed = true;
  Series hidden;
  hidden.name = "hidden one";
  hidden.x = {0, 1};
  hidden.y = {2, 3};
  hidden.visible = false;
  plot.series = {gap, plain, hidden};
  plot.vertical_markers = {2.5};
  return plot;
}

}  // namespace

TEST_CASE("xml_escape escapes the five special characters") {
  CHECK(xml_escape("a<b & \"c\" 'd' >") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos; &gt;");
}

TEST_CASE("SVG is well formed and escapes text") {
  Figure figure;
  figure.title = "Sweep & <report>";
  figure.plots = {sample_plot()};
  const std::string svg = to_svg(figure, 640, 480);
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(count(svg, "<svg ") == 1);
  CHECK(xml_problem(svg) == "");
  CHECK(svg.find("Sweep &amp; &lt;report&gt;") != std::string::npos);
  CHECK(svg.find("Loss &lt;vs&gt; &quot;stiffness&quot; &amp; friends") != std::string::npos);
  CHECK(svg.find("a&lt;b") != std::string::npos);
  CHECK(svg.find("k [N/m]") != std::string::npos);
  CHECK(count(svg, "stroke-dasharray=\"6 4\"") >= 1);
}

TEST_CASE("SVG splits a series at NaN, lists visible series in the legend, draws markers") {
  Figure figure;
  figure.plots = {sample_plot()};
  const std::string svg = to_svg(figure, 400, 300);
  // "with gap" has two runs, "a<b" one; the invisible series draws nothing.
  CHECK(count(svg, "<polyline") == 3);
  CHECK(count(svg, "class=\"legend-entry\"") == 2);
  CHECK(svg.find("hidden one") == std::string::npos);
  CHECK(count(svg, "class=\"vertical-marker\"") == 1);
  CHECK(count(svg, "clip-path=\"url(#plot-clip-0)\"") == 1);
  CHECK(count(svg, "class=\"tick-label\"") >= 4);
}

TEST_CASE("SVG lays out a grid and fades pinned series") {
  Figure figure;
  figure.columns = 2;
  Plot a = sample_plot();
  a.series[0].faded = true;
  a.series[0].style = SeriesStyle::line_and_markers;
  Plot b = sample_plot();
  b.legend = false;
  Plot c = sample_plot();
  c.y.scale = Scale::log;
  figure.plots = {a, b, c};
  const std::string svg = to_svg(figure, 800, 600);
  CHECK(xml_problem(svg) == "");
  CHECK(count(svg, "class=\"plot\"") == 3);
  CHECK(count(svg, "plot-clip-2") == 2);  // definition + use
  CHECK(count(svg, "opacity=\"0.35\"") >= 1);
  // 2 + 3 points of the faded series' two runs, plus in c (log y) the lone point y=1 of "a<b" (y=0 is a gap).
  CHECK(count(svg, "class=\"marker\"") == 6);
  CHECK(count(svg, "class=\"legend-entry\"") == 4);  // a and c have two each, b none
  // The faded series is drawn before the live ones.
  CHECK(svg.find("opacity=\"0.35\"") < svg.find("a&lt;b"));
}

TEST_CASE("write_svg writes a file and reports failures") {
  Figure figure;
  figure.plots = {sample_plot()};
  const std::string path = sg::test::binary_dir() + "/plots_test_output.svg";
  std::string error;
  REQUIRE(write_svg(figure, path, 320, 240, &error));
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  CHECK(content.str() == to_svg(figure, 320, 240));
  std::remove(path.c_str());
  CHECK_FALSE(write_svg(figure, "/nonexistent-dir/x/y.svg", 320, 240, &error));
  CHECK(error.find("/nonexistent-dir/x/y.svg") != std::string::npos);
}

TEST_CASE("svg: a long y label in a short plot is shortened from the front, never into the title") {
  Plot plot;
  plot.title = "AD vs FD gradient";
  plot.y.label = "dloss/dmodel.particles.0.pos.2";
  Series s;
  s.x = {0.0, 1.0};
  s.y = {0.0, 1.0};
  plot.series.push_back(s);
  // 150 px high: the data area is 150 - 12 - 20 - 44 = 74 px, about 11 glyphs of 6.2 px.
  const std::string short_svg = to_svg(Figure{"", 1, {plot}}, 300, 150);
  CHECK(short_svg.find(">dloss/dmodel.particles.0.pos.2<") == std::string::npos);
  CHECK(short_svg.find("...") != std::string::npos);
  CHECK(short_svg.find("pos.2</text>") != std::string::npos);  // the informative tail stays
  CHECK(xml_problem(short_svg).empty());
  const std::string tall_svg = to_svg(Figure{"", 1, {plot}}, 300, 600);
  CHECK(tall_svg.find(">dloss/dmodel.particles.0.pos.2</text>") != std::string::npos);
}

TEST_CASE("svg: a heatmap has a colour bar with its range's ticks right of the data area") {
  Figure fig;
  Plot plot;
  plot.title = "AD gradient";
  Heatmap& h = plot.heatmap;
  h.nx = 3;
  h.ny = 2;
  h.diverging = true;
  h.values = {-3, -1, 0, 1, 2, 3};
  h.lo = -3;
  h.hi = 3;
  fig.plots.push_back(plot);
  const std::string svg = to_svg(fig, 400, 300);
  CHECK(xml_problem(svg).empty());
  REQUIRE(count(svg, "class=\"color-bar\"") == 1);
  const std::string bar = svg.substr(svg.find("class=\"color-bar\""));
  // Ticks -3 .. 3 on the bar's labels; 64 colour steps plus the outline.
  for (const char* label : {">-2<", ">0<", ">2<"}) CHECK(bar.find(label) != std::string::npos);
  CHECK(count(bar.substr(0, bar.find("</g>")), "<rect") == 65);
  // Without a heatmap there is no bar, and the data area is wider.
  Figure plain = fig;
  plain.plots[0].heatmap = Heatmap{};
  const std::string without = to_svg(plain, 400, 300);
  CHECK(count(without, "color-bar") == 0);
  const auto frame_width = [](const std::string& doc) {
    const std::size_t at = doc.find("class=\"frame\"");
    const std::size_t w = doc.find("width=\"", at) + 7;
    return std::stod(doc.substr(w, doc.find('"', w) - w));
  };
  CHECK(frame_width(without) > frame_width(svg) + 30);
}
