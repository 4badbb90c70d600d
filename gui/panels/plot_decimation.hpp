#pragma once
// Display copies of plots with long series thinned out: per bucket of consecutive points the minimum and
// the maximum are kept (in order), so spikes and sawtooth envelopes survive while the draw list stays
// small. Gaps (NaN) are kept. Exports use the full data.
#include <vector>

#include "plots/plot.hpp"

namespace sg::gui {

plot::Series decimate_series(const plot::Series& series, int max_points);
plot::Plot decimate_plot(const plot::Plot& plot, int max_points);

// Points per series of a figure's display copies before a plot's pixel width is known.
inline constexpr int k_display_points = 400;
// Each plot of the figure decimated to max_points per series.
std::vector<plot::Plot> decimate_figure(const plot::Figure& figure, int max_points = k_display_points);

}  // namespace sg::gui
