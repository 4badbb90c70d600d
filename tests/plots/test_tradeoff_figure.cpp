// The accuracy-against-cost figure (plots/sweep_figures/tradeoff_figure.hpp): a log-log line per family in
// the order of its knob, fixed-step families dashed, the references' spread as the floor, and nothing drawn
// for a setting that failed or was not run.
#include <doctest/doctest.h>

#include "plots/sweep_figures/tradeoff_figure.hpp"

using namespace sg;

namespace {

TradeoffRow row(const std::string& family, double knob, double error, double seconds,
                const char* status = "ok") {
  TradeoffRow r;
  r.setting.family = family;
  r.setting.knob = knob;
  r.status = status;
  if (r.status == "ok") {
    r.loss_error = r.grad_error = error;
    r.seconds_loss = seconds;
    r.seconds_grad = 2.0 * seconds;
  }
  return r;
}

}  // namespace

TEST_CASE(
    "tradeoff figure: a log-log line per family along its knob, the reference floor, failures left out") {
  TradeoffResult r;
  r.scene = "toy";
  r.parameter = "model.particles.0.pos.2";
  r.value = 1.5;
  r.reference.setting.family = "dopri8";
  r.reference_check.setting.family = "tsit5";
  r.spread_loss = 1e-12;
  r.spread_grad = 1e-10;
  // tsit5: the tighter tolerance happens to time faster than the looser one (timing noise); the line
  // still goes along the tolerance.
  r.rows = {row("euler", 0.01, 1e-1, 1e-5),
            row("euler", 0.001, 1e-2, 1e-4),
            row("tsit5", 1e-4, 1e-5, 2e-5),
            row("tsit5", 1e-8, 1e-9, 1.5e-5),
            row("tsit5", 1e-10, 0.0, 3e-5),
            row("rk4", 0.01, 0.0, 0.0, "not run: refused"),
            row("dopri5", 1e-6, 0.0, 0.0, "max_steps at t=0.2 (step 4096)")};
  const plot::Figure f = tradeoff_figure(r);
  REQUIRE(f.plots.size() == 2);
  for (const plot::Plot& p : f.plots) {
    CHECK(p.x.scale == plot::Scale::log);
    CHECK(p.y.scale == plot::Scale::log);
  }
  const plot::Plot& grad = f.plots[1];
  REQUIRE(grad.series.size() == 3);  // euler, tsit5 and the floor; rk4 and dopri5 have nothing to draw
  CHECK(grad.series[0].name == "euler");
  CHECK(grad.series[0].dashed);
  CHECK(grad.series[0].x == std::vector<double>{2e-5, 2e-4});  // gradient runs: twice the loss run's time
  CHECK(grad.series[1].name == "tsit5");
  CHECK_FALSE(grad.series[1].dashed);
  CHECK(grad.series[1].x == std::vector<double>{4e-5, 3e-5});  // knob order; the exact 0 is left out
  CHECK(grad.series[1].y == std::vector<double>{1e-5, 1e-9});
  CHECK(grad.series[2].y == std::vector<double>{1e-10, 1e-10});
  CHECK(grad.series[2].x == std::vector<double>{2e-5, 2e-4});  // across the drawn runs' times
  CHECK(f.plots[0].series[2].y[0] == 1e-12);
}
