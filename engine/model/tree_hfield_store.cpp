#include "engine/model/tree_hfield_store.hpp"

#include <cmath>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace sg {
namespace {

std::invalid_argument bad(const std::string& path, const std::string& why) {
  return std::invalid_argument(path + ": " + why);
}

void check_grid(const std::string& path, int nrow, int ncol, const std::vector<double>& data) {
  if (nrow < 2) throw bad(path + ".nrow", "at least 2 rows, not " + std::to_string(nrow));
  if (ncol < 2) throw bad(path + ".ncol", "at least 2 columns, not " + std::to_string(ncol));
  if (static_cast<long>(nrow) * ncol > kMaxTreeHFieldPoints)
    throw bad(path, "more than " + std::to_string(kMaxTreeHFieldPoints) + " grid points");
  if (data.size() != static_cast<std::size_t>(nrow) * static_cast<std::size_t>(ncol))
    throw bad(path + ".elevation", std::to_string(data.size()) + " numbers where nrow x ncol is " +
                                       std::to_string(static_cast<long>(nrow) * ncol));
  for (std::size_t i = 0; i < data.size(); ++i)
    if (!(data[i] >= 0.0 && data[i] <= 1.0))
      throw bad(path + ".elevation." + std::to_string(i), "elevations are scaled to [0, 1] (MuJoCo's)");
}

void check_size(const std::string& path, const std::vector<double>& size) {
  if (size.size() != 4) throw bad(path + ".size", "4 numbers: x and y half sizes, top height, base depth");
  for (std::size_t k = 0; k < 4; ++k)
    if (!(std::isfinite(size[k]) && size[k] > 0.0))
      throw bad(path + ".size." + std::to_string(k), "must be a positive number (MuJoCo's rule)");
}

}  // namespace

const TreeHField* keep_tree_hfield(const std::string& path, const std::string& name, int nrow, int ncol,
                                   const std::vector<double>& size, std::vector<double> data) {
  check_grid(path, nrow, ncol, data);
  check_size(path, size);
  static std::mutex lock;
  static std::deque<std::unique_ptr<TreeHField>> kept;
  const std::lock_guard<std::mutex> hold(lock);
  for (const auto& h : kept) {
    const HeightField& f = h->field;
    if (h->name == name && f.nrow == nrow && f.ncol == ncol && h->data == data && f.size[0] == size[0] &&
        f.size[1] == size[1] && f.size[2] == size[2] && f.size[3] == size[3])
      return h.get();
  }
  auto h = std::make_unique<TreeHField>();
  h->name = name, h->data = std::move(data);
  h->field.nrow = nrow, h->field.ncol = ncol, h->field.data = h->data.data();
  for (int k = 0; k < 4; ++k) h->field.size[k] = size[static_cast<std::size_t>(k)];
  kept.push_back(std::move(h));
  return kept.back().get();
}

}  // namespace sg
