#pragma once
// The figure of an accuracy-against-cost study (engine/study/tradeoff.hpp; DiffMJX Fig. S6): the loss's and
// the gradient's absolute error against the reference, over the time of one run, log-log, a line per
// integrator family (fixed-step families dashed), with the spread between the reference and its check as
// the floor below which errors are not resolved.
#include "engine/study/tradeoff.hpp"
#include "plots/plot.hpp"

namespace sg {

plot::Figure tradeoff_figure(const TradeoffResult& result);

}  // namespace sg
