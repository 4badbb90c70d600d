// CSV and JSON export of plot data.
#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "plots/csv_json.hpp"

using namespace sg::plot;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Plot export_plot() {
  Plot plot;
  // Strings are move-assigned from temporaries: GCC 12 -Wrestrict misfires on short literal assignments.
  plot.title = std::string("loss");
  plot.x.label = std::string("k");
  plot.y.scale = Scale::log;
  Series a;
  a.name = std::string("run, \"a\"");
  a.x = {0.1, 0.2, 0.3};
  a.y = {1.0, kNaN, 3.5};
  Series b;
  b.name = std::string("b");
  b.x = {1e-20};
  b.y = {-2.0};
  b.auto_color = false;
  b.color = {10, 20, 30, 40};
  plot.series = {a, b};
  plot.vertical_markers = {0.2};
  return plot;
}

}  // namespace

TEST_CASE("CSV: one x,y column pair per series, NaN and missing points empty, escaped headers") {
  const std::string csv = plot_to_csv(export_plot());
  const std::string expected =
      "\"run, \"\"a\"\" x\",\"run, \"\"a\"\" y\",b x,b y\n"
      "0.1,1,1e-20,-2\n"
      "0.2,,,\n"
      "0.3,3.5,,\n";
  CHECK(csv == expected);
  CHECK(csv_escape("plain") == "plain");
  CHECK(csv_escape("line\nbreak") == "\"line\nbreak\"");
}

TEST_CASE("CSV numbers round-trip exactly") {
  Plot plot;
  Series s;
  s.name = std::string("s");
  s.x = {0.1 + 0.2};
  s.y = {1.0 / 3.0};
  plot.series = {s};
  const std::string csv = plot_to_csv(plot);
  const std::string row = csv.substr(csv.find('\n') + 1);
  const std::string x_text = row.substr(0, row.find(','));
  CHECK(std::stod(x_text) == 0.1 + 0.2);
  CHECK(std::stod(row.substr(row.find(',') + 1)) == 1.0 / 3.0);
}

TEST_CASE("JSON carries axes, series data with nulls for NaN, colours and markers") {
  const nlohmann::json j = plot_to_json(export_plot());
  CHECK(j["title"] == "loss");
  CHECK(j["x"]["label"] == "k");
  CHECK(j["y"]["scale"] == "log");
  CHECK(j["x"]["min"].is_null());
  REQUIRE(j["series"].size() == 2);
  const auto& a = j["series"][0];
  CHECK(a["name"] == "run, \"a\"");
  CHECK(a["x"].size() == 3);
  CHECK(a["y"][0] == 1.0);
  CHECK(a["y"][1].is_null());
  CHECK(a["y"][2] == 3.5);
  CHECK(j["series"][1]["color"] == nlohmann::json({10, 20, 30, 40}));
  CHECK(j["series"][1]["style"] == "line");
  CHECK(j["vertical_markers"][0] == 0.2);
  // Round trip through text stays valid JSON.
  CHECK(nlohmann::json::parse(j.dump()) == j);
}
