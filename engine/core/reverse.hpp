#pragma once
// Reverse-mode scalar: a value and the index of the tape node that computed it (0: a constant; node 0 is a
// placeholder, so that zero-filled scratch memory reads as the constant 0, as a zero-filled Dual does). Every
// operation on Rev appends one node with at most two parents and the local partial derivatives (a fused
// operation such as a dot product, one node with more parents: rev_combine); a reverse
// sweep over the tape (reverse_sweep) then gives the derivative of one output with respect to every
// variable at once. Running the engine's templated step on Rev is the discrete adjoint of exactly the
// computation a double run does: values are computed by the same formulas, so they match a double run bit
// for bit, and comparisons look at values only (branches pick a piece, derivatives follow it), as for Dual.
//
// The tape is per thread (sweeps run points on workers), cleared by the caller before a run, and reserved
// up front from the previous run's size so that steps do not allocate once it has grown. Host only: device
// sweeps use forward mode.
#include <cassert>
#include <cmath>
#include <memory>
#include <vector>

namespace sg {

struct RevNode {
  int a, b;       // parents (0: none); a < 0: b parents in the tape's links from -a - 1 on (a fused node)
  double da, db;  // d node / d parent
};

// One parent of a fused node.
struct RevLink {
  int parent;
  double partial;
};

class RevTape {
 public:
  // The calling thread's tape. A plain pointer in thread-local storage (constant-initialised: no guard on the
  // hot path); the tape itself is made, and owned, on the thread's first call.
  [[gnu::always_inline]] static RevTape& current() {
    static thread_local RevTape* tape = nullptr;
    if (!tape) [[unlikely]]
      tape = make_for_this_thread();
    return *tape;
  }
  void clear() {
    size_ = 0;
    links_size_ = 0;
    push_node(0, 0.0, 0, 0.0);  // node 0: the constants' placeholder, never swept
  }
  void reserve(std::size_t n) {
    if (n > nodes_.size()) grow(n);
  }
  int size() const { return size_; }
  int link_count() const { return links_size_; }
  std::size_t bytes() const {
    return nodes_.capacity() * sizeof(RevNode) + links_.capacity() * sizeof(RevLink);
  }
  const RevNode& node(int i) const { return data_[i]; }
  const RevLink* links(const RevNode& n) const { return links_data_ + (-n.a - 1); }
  // Drops every node from `n` on (a checkpointed adjoint's segment, once swept), and the links of the fused
  // ones among them.
  void truncate(int n) {
    for (int k = n; k < size_; ++k)
      if (data_[k].a < 0) {
        links_size_ = -data_[k].a - 1;
        break;
      }
    size_ = n;
  }
  // The nodes below `n` and their links, for another thread's tape to start from (a checkpointed adjoint's
  // replay threads share the parameters' and the system's constants this way: same nodes, same indices).
  struct Prefix {
    std::vector<RevNode> nodes;
    std::vector<RevLink> links;
  };
  Prefix prefix(int n) const {
    int links = 0;
    for (int k = n - 1; k >= 1; --k)
      if (data_[k].a < 0) {
        links = -data_[k].a - 1 + data_[k].b;
        break;
      }
    return {std::vector<RevNode>(data_, data_ + n), std::vector<RevLink>(links_data_, links_data_ + links)};
  }
  void load(const Prefix& p) {
    clear();
    reserve(p.nodes.size());
    if (static_cast<int>(p.links.size()) > links_capacity_) grow_links(static_cast<int>(p.links.size()));
    for (std::size_t k = 1; k < p.nodes.size(); ++k) data_[k] = p.nodes[k];
    size_ = static_cast<int>(p.nodes.size());
    for (std::size_t k = 0; k < p.links.size(); ++k) links_data_[k] = p.links[k];
    links_size_ = static_cast<int>(p.links.size());
  }
  // While off, operations compute values only and return constants (the same values as a recorded run, none
  // of the memory).
  void set_recording(bool on) { recording_ = on; }
  bool recording() const { return recording_; }
  [[gnu::always_inline]] int push(int a, double da, int b, double db) {
    if (!recording_) return 0;
    assert(a < size() && b < size());  // a parent from a truncated segment would be a stale node
    return push_node(a, da, b, db);
  }
  // A fused node built link by link: note link_count(), add its parents with link() (no other node may be
  // recorded meanwhile), then fuse(first) makes the node (0 when every parent was a constant).
  [[gnu::always_inline]] void link(int parent, double partial) {
    if (parent == 0 || !recording_) return;
    if (links_size_ == links_capacity_) [[unlikely]]
      grow_links(links_size_ + 1);
    links_data_[links_size_++] = {parent, partial};
  }
  int fuse(int first) {
    if (links_size_ == first) return 0;
    return push_node(-first - 1, 0.0, links_size_ - first, 0.0);
  }
  // The node of a value with `count` parents, constants among them dropped: none (0), an ordinary node for
  // one or two, else a fused node. The kept parents are written straight into the links.
  int push_combined(int count, const RevLink* parents) {
    if (!recording_) return 0;
    if (links_size_ + count > links_capacity_) [[unlikely]]
      grow_links(links_size_ + count);
    RevLink* out = links_data_ + links_size_;
    int m = 0;
    for (int k = 0; k < count; ++k) {
      assert(parents[k].parent < size());
      out[m] = parents[k];
      m += parents[k].parent != 0;
    }
    if (m == 0) return 0;
    if (m <= 2)
      return push_node(out[0].parent, out[0].partial, m == 2 ? out[1].parent : 0,
                       m == 2 ? out[1].partial : 0.0);
    const int first = links_size_;
    links_size_ += m;
    return push_node(-first - 1, 0.0, m, 0.0);
  }

 private:
  // A store and an increment, inlined into every operation (out of line, its call and the registers it
  // saved for the rare growth cost as much as the store); growing is out of line.
  [[gnu::always_inline]] int push_node(int a, double da, int b, double db) {
    if (size_ == capacity_) [[unlikely]]
      grow(nodes_.empty() ? 1024 : 2 * nodes_.size());
    data_[size_] = {a, b, da, db};
    return size_++;
  }
  // Storage is never given back while the thread lives: the next run reuses it.
  [[gnu::noinline]] void grow(std::size_t n) {
    nodes_.resize(n);
    data_ = nodes_.data();
    capacity_ = static_cast<int>(n);
  }
  [[gnu::noinline]] void grow_links(int at_least) {
    std::size_t n = links_.empty() ? 4096 : 2 * links_.size();
    while (n < static_cast<std::size_t>(at_least)) n *= 2;
    links_.resize(n);
    links_data_ = links_.data();
    links_capacity_ = static_cast<int>(n);
  }
  [[gnu::noinline]] static RevTape* make_for_this_thread() {
    static thread_local std::unique_ptr<RevTape> owner;
    owner = std::make_unique<RevTape>();
    owner->clear();
    return owner.get();
  }

  std::vector<RevNode> nodes_;
  RevNode* data_ = nullptr;  // nodes_.data(), capacity_ = nodes_.size()
  int size_ = 0;
  int capacity_ = 0;
  std::vector<RevLink> links_;  // the fused nodes' parents
  RevLink* links_data_ = nullptr;
  int links_size_ = 0;
  int links_capacity_ = 0;
  bool recording_ = true;
};

struct Rev {
  double v;
  int i;  // tape node, 0 for a constant

  Rev() = default;                                 // uninitialised like a double
  constexpr Rev(double value) : v(value), i(0) {}  // NOLINT(google-explicit-constructor)

  // A new independent variable on the current tape.
  static Rev variable(double value) {
    Rev r;
    r.v = value;
    r.i = RevTape::current().push(0, 0.0, 0, 0.0);
    return r;
  }

  inline Rev& operator+=(const Rev& o);
  inline Rev& operator-=(const Rev& o);
  inline Rev& operator*=(const Rev& o);
  inline Rev& operator/=(const Rev& o);
};

// While it lives (a scope), operations on the calling thread record nothing: values only, for computations
// whose derivatives nobody reads (a straight-through run's simulated solve, the switching margins). The
// previous state comes back at the end of the scope.
class RevPause {
 public:
  explicit RevPause(bool pause = true) : tape_(RevTape::current()), was_(tape_.recording()) {
    if (pause) tape_.set_recording(false);
  }
  ~RevPause() { tape_.set_recording(was_); }
  RevPause(const RevPause&) = delete;
  RevPause& operator=(const RevPause&) = delete;

 private:
  RevTape& tape_;
  bool was_;
};

// A node on the tape for an operation with at least one non-constant parent; a constant parent's partial goes
// to node 0, which nothing reads.
[[gnu::always_inline]] inline Rev rev_record(double v, int a, double da, int b, double db) {
  Rev r;
  r.v = v;
  r.i = RevTape::current().push(a, da, b, db);
  return r;
}

// The result of an operation with value v and parents a, b. With only constants (always, while the tape is
// off: a checkpointed adjoint's values-only pass) no node: the cost of a double operation and a branch.
[[gnu::always_inline]] inline Rev rev_node(double v, int a, double da, int b, double db) {
  if ((a | b) == 0) return Rev(v);
  return rev_record(v, a, da, b, db);
}
[[gnu::always_inline]] inline Rev rev_chain(const Rev& x, double fx, double dfx) {
  return rev_node(fx, x.i, dfx, 0, 0.0);
}

// The arithmetic operators are forced inline: left to itself g++ 12 calls them out of line in the contact
// rows and the collision, and a call costs as much as the node it records (box toss / billiards gradients
// 2-5% faster, measured back to back).
[[gnu::always_inline]] inline Rev operator+(const Rev& a, const Rev& b) {
  return rev_node(a.v + b.v, a.i, 1.0, b.i, 1.0);
}
[[gnu::always_inline]] inline Rev operator-(const Rev& a, const Rev& b) {
  return rev_node(a.v - b.v, a.i, 1.0, b.i, -1.0);
}
[[gnu::always_inline]] inline Rev operator*(const Rev& a, const Rev& b) {
  return rev_node(a.v * b.v, a.i, b.v, b.i, a.v);
}
[[gnu::always_inline]] inline Rev operator/(const Rev& a, const Rev& b) {
  const double inv = 1.0 / b.v;
  const double q = a.v / b.v;
  return rev_node(q, a.i, inv, b.i, -q * inv);
}
[[gnu::always_inline]] inline Rev operator-(const Rev& a) {
  return rev_chain(a, -a.v, -1.0);
}
[[gnu::always_inline]] inline Rev operator+(const Rev& a) {
  return a;
}
[[gnu::always_inline]] inline Rev operator+(const Rev& a, double b) {
  return rev_chain(a, a.v + b, 1.0);
}
[[gnu::always_inline]] inline Rev operator+(double a, const Rev& b) {
  return rev_chain(b, a + b.v, 1.0);
}
[[gnu::always_inline]] inline Rev operator-(const Rev& a, double b) {
  return rev_chain(a, a.v - b, 1.0);
}
[[gnu::always_inline]] inline Rev operator-(double a, const Rev& b) {
  return rev_chain(b, a - b.v, -1.0);
}
[[gnu::always_inline]] inline Rev operator*(const Rev& a, double b) {
  return rev_chain(a, a.v * b, b);
}
[[gnu::always_inline]] inline Rev operator*(double a, const Rev& b) {
  return rev_chain(b, a * b.v, a);
}
[[gnu::always_inline]] inline Rev operator/(const Rev& a, double b) {
  return rev_chain(a, a.v / b, 1.0 / b);
}
[[gnu::always_inline]] inline Rev operator/(double a, const Rev& b) {
  const double inv = 1.0 / b.v;
  return rev_chain(b, a / b.v, -a * inv * inv);  // a true division: the values of a double run
}
[[gnu::always_inline]] inline Rev& Rev::operator+=(const Rev& o) {
  return *this = *this + o;
}
[[gnu::always_inline]] inline Rev& Rev::operator-=(const Rev& o) {
  return *this = *this - o;
}
[[gnu::always_inline]] inline Rev& Rev::operator*=(const Rev& o) {
  return *this = *this * o;
}
[[gnu::always_inline]] inline Rev& Rev::operator/=(const Rev& o) {
  return *this = *this / o;
}

#define SG_REV_COMPARE(op)                              \
  inline bool operator op(const Rev& a, const Rev& b) { \
    return a.v op b.v;                                  \
  }                                                     \
  inline bool operator op(const Rev& a, double b) {     \
    return a.v op b;                                    \
  }                                                     \
  inline bool operator op(double a, const Rev& b) {     \
    return a op b.v;                                    \
  }
SG_REV_COMPARE(<)
SG_REV_COMPARE(<=)
SG_REV_COMPARE(>)
SG_REV_COMPARE(>=)
SG_REV_COMPARE(==)
SG_REV_COMPARE(!=)
#undef SG_REV_COMPARE

inline Rev sqrt(const Rev& x) {
  const double s = std::sqrt(x.v);
  return rev_chain(x, s, 0.5 / s);
}
inline Rev exp(const Rev& x) {
  const double e = std::exp(x.v);
  return rev_chain(x, e, e);
}
inline Rev log(const Rev& x) {
  return rev_chain(x, std::log(x.v), 1.0 / x.v);
}
inline Rev log1p(const Rev& x) {
  return rev_chain(x, std::log1p(x.v), 1.0 / (1.0 + x.v));
}
inline Rev sin(const Rev& x) {
  return rev_chain(x, std::sin(x.v), std::cos(x.v));
}
inline Rev cos(const Rev& x) {
  return rev_chain(x, std::cos(x.v), -std::sin(x.v));
}
inline Rev tan(const Rev& x) {
  const double t = std::tan(x.v);
  return rev_chain(x, t, 1.0 + t * t);
}
inline Rev tanh(const Rev& x) {
  const double t = std::tanh(x.v);
  return rev_chain(x, t, 1.0 - t * t);
}
inline Rev atan(const Rev& x) {
  return rev_chain(x, std::atan(x.v), 1.0 / (1.0 + x.v * x.v));
}
inline Rev asin(const Rev& x) {
  return rev_chain(x, std::asin(x.v), 1.0 / std::sqrt(1.0 - x.v * x.v));
}
inline Rev acos(const Rev& x) {
  return rev_chain(x, std::acos(x.v), -1.0 / std::sqrt(1.0 - x.v * x.v));
}
inline Rev atan2(const Rev& y, const Rev& x) {
  const double inv = 1.0 / (x.v * x.v + y.v * y.v);
  return rev_node(std::atan2(y.v, x.v), y.i, x.v * inv, x.i, -y.v * inv);
}
inline Rev abs(const Rev& x) {
  return x.v < 0.0 ? -x : x;
}
inline Rev fabs(const Rev& x) {
  return abs(x);
}
inline Rev pow(const Rev& x, double p) {
  if (p == 0.0) return Rev(1.0);
  return rev_chain(x, std::pow(x.v, p), p * std::pow(x.v, p - 1.0));
}
// As pow(Dual, Dual): finite at x = 0, values from std::pow.
inline Rev pow(const Rev& x, const Rev& p) {
  const double v = std::pow(x.v, p.v);
  const double dx = p.v == 0.0 ? 0.0 : p.v * std::pow(x.v, p.v - 1.0);
  const double dp = v == 0.0 ? 0.0 : v * std::log(x.v);
  return rev_node(v, x.i, dx, p.i, dp);
}
inline Rev min(const Rev& a, const Rev& b) {
  return b.v < a.v ? b : a;
}
inline Rev max(const Rev& a, const Rev& b) {
  return a.v < b.v ? b : a;
}
// Derivatives are only known after the reverse sweep: a Rev is finite when its value is.
inline bool isfinite(const Rev& x) {
  return std::isfinite(x.v);
}

// acc + a (k h) as one node (scalar.hpp's add_scaled for the Runge-Kutta stages), the value computed as the
// expression is.
inline Rev add_scaled(const Rev& acc, double a, const Rev& k, double h) {
  return rev_node(acc.v + a * (k.v * h), acc.i, 1.0, k.i, a * h);
}

// rk_combination (scalar.hpp) as one fused node: parents y (partial 1) and each term's k (partial coef h),
// the value summed in the same order as the generic version, so the same to the bit (and so are the
// adjoints: each parent still gets one contribution, in the same node order).
template <class K>
inline Rev rk_combination(const Rev& y, const double* coef, int terms, const K& k, int i, double h) {
  RevLink links[16];  // y and up to 15 terms (Dopri8 combines at most 13)
  assert(terms <= 15);
  int count = 0;
  links[count++] = {y.i, 1.0};
  double acc = 0.0;
  for (int j = 0; j < terms; ++j)
    if (coef[j] != 0.0) {
      const Rev& kj = k[j][i];
      acc = acc + coef[j] * (kj.v * h);
      links[count++] = {kj.i, coef[j] * h};
    }
  Rev r;
  r.v = y.v + acc;
  r.i = RevTape::current().push_combined(count, links);
  return r;
}

// A value computed from `count` parents (constants among them allowed: they are dropped) as one node: what a
// fused operation (a dot product, a matrix-vector row) records instead of one node per multiplication and
// addition. v: the value, computed by the caller as the double code computes it.
inline Rev rev_combine(double v, int count, const RevLink* parents) {
  Rev r;
  r.v = v;
  r.i = RevTape::current().push_combined(count, parents);
  return r;
}

// Passes the adjoints of nodes last, last - 1, ..., first (first >= 1) on to their parents; adj has one entry
// per node of the tape. Many nodes' first parent is the node just before them; what node k passes to k - 1
// is kept in a register (`carry`) instead of being stored and loaded back at once (a few percent of a reverse
// run). The sums are the same, in the same order, so the adjoints are bit for bit the plain sweep's.
inline void sweep_nodes(const RevTape& tape, std::vector<double>& adj, int last, int first) {
  double* x = adj.data();
  double carry = 0.0;  // node k + 1's contribution to node k, not yet added to x[k]
  for (int k = last; k >= first; --k) {
    const double g = x[k] + carry;
    x[k] = g;  // callers read swept nodes' adjoints (a segment's start state)
    carry = 0.0;
    if (g == 0.0) continue;
    const RevNode& n = tape.node(k);
    if (n.a >= 0) [[likely]] {
      if (n.a == k - 1 && n.b != k - 1) {
        carry = g * n.da;
        x[n.b] += g * n.db;  // node 0 collects what constants would get
      } else {
        x[n.a] += g * n.da;
        x[n.b] += g * n.db;
      }
    } else {
      const RevLink* l = tape.links(n);
      for (int j = 0; j < n.b; ++j) x[l[j].parent] += g * l[j].partial;
    }
  }
  if (carry != 0.0) x[first - 1] += carry;
}

// d output / d node for every node of the tape (the adjoints), by one reverse sweep.
inline std::vector<double> reverse_sweep(const RevTape& tape, int output) {
  std::vector<double> adj(static_cast<std::size_t>(tape.size()), 0.0);
  if (output <= 0) return adj;
  adj[static_cast<std::size_t>(output)] = 1.0;
  sweep_nodes(tape, adj, output, 1);
  return adj;
}

}  // namespace sg
