#pragma once
// Display copies of plots with long series thinned out: per bucket of consecutive points the minimum and
// the maximum are kept (in order), so spikes and sawtooth envelopes survive while the draw list stays
// small. Gaps (NaN) are kept. Exports use the full data.
#include "plots/plot.hpp"

namespace sg::gui {

plot::Series decimate_series(const plot::Series& series, int max_points);
plot::Plot decimate_plot(const plot::Plot& plot, int max_points);

}  // namespace sg::gui
