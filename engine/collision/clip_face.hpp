#pragma once
// Clipping an incident box face (a quadrilateral) against a reference face (a rectangle), for box-box
// contact (engine/collision/collide_box.hpp). Sutherland-Hodgman over the rectangle's four sides, with every
// vertex tagged by what made it, so that a contact keeps its name while the boxes move (the contact events of
// the adaptive solver follow contacts by name): an incident corner, an incident edge crossing a reference
// side, or a reference corner inside the incident face. Decisions use values; positions carry derivatives.
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

// Tags: 0-7 an incident box corner (its corner index), 8-55 incident edge e crossing side k (8 + 4 e + k),
// 56-59 a reference face corner (56 + bits: +u side 1, +v side 2).
inline constexpr int kClipEdgeTag = 8;
inline constexpr int kClipCornerTag = 56;
inline constexpr int kClipTags = 60;
// The polygon of a quad clipped by a rectangle has at most 8 vertices.
inline constexpr int kClipMax = 8;

template <class S>
struct ClipVertex {
  S u, v, depth;  // in the reference face's frame: two face coordinates and the height above it
  int tag;
  int line;  // what the polygon edge leaving this vertex lies on: 0-11 an incident box edge, 12-15 a side
};

namespace clip_detail {

// Side k of the rectangle [-hu, hu] x [-hv, hv]: 0 u = hu, 1 u = -hu, 2 v = hv, 3 v = -hv. Points within
// tol of a side count as inside, so that faces flush with each other (equal boxes side by side) keep their
// corners rather than trading them for crossings as rounding jitters.
template <class S>
SG_HD inline double outside(const ClipVertex<S>& p, int side, double hu, double hv, double tol) {
  switch (side) {
    case 0:
      return value(p.u) - hu - tol;
    case 1:
      return -value(p.u) - hu - tol;
    case 2:
      return value(p.v) - hv - tol;
    default:
      return -value(p.v) - hv - tol;
  }
}

// The crossing of the polygon edge a -> b with side k (a inside, b outside or the reverse).
template <class S>
SG_HD inline ClipVertex<S> crossing(const ClipVertex<S>& a, const ClipVertex<S>& b, int side, const S& hu,
                                    const S& hv) {
  const bool along_u = side < 2;
  const S bound = side == 0 ? hu : (side == 1 ? S(-hu) : (side == 2 ? hv : S(-hv)));
  const S from = along_u ? a.u : a.v;
  const S to = along_u ? b.u : b.v;
  const S t = (bound - from) / (to - from);
  ClipVertex<S> c;
  c.u = along_u ? bound : S(a.u + t * (b.u - a.u));
  c.v = along_u ? S(a.v + t * (b.v - a.v)) : bound;
  c.depth = a.depth + t * (b.depth - a.depth);
  if (a.line < 12) {
    c.tag = kClipEdgeTag + 4 * a.line + side;
  } else {  // two sides meet at a reference corner
    const int other = a.line - 12;
    const bool plus_u = side == 0 || other == 0;
    const bool plus_v = side == 2 || other == 2;
    c.tag = kClipCornerTag + (plus_u ? 1 : 0) + (plus_v ? 2 : 0);
  }
  c.line = a.line;
  return c;
}

}  // namespace clip_detail

// Clips poly (count vertices, each vertex's line the edge to the next) by the rectangle; returns the new
// count (at most kClipMax), the polygon in poly.
template <class S>
SG_HD inline int clip_to_rectangle(ClipVertex<S>* poly, int count, const S& hu, const S& hv, double tol) {
  ClipVertex<S> next[kClipMax];
  for (int side = 0; side < 4 && count > 0; ++side) {
    int n = 0;
    for (int i = 0; i < count; ++i) {
      const ClipVertex<S>& a = poly[i];
      const ClipVertex<S>& b = poly[(i + 1) % count];
      const bool a_in = clip_detail::outside(a, side, value(hu), value(hv), tol) <= 0.0;
      const bool b_in = clip_detail::outside(b, side, value(hu), value(hv), tol) <= 0.0;
      if (a_in && !b_in && n < kClipMax) {  // leaving: the polygon follows the side from here
        next[n] = clip_detail::crossing(a, b, side, hu, hv);
        next[n++].line = 12 + side;
      } else if (!a_in && b_in && n < kClipMax) {  // entering: on along a's line to b
        next[n++] = clip_detail::crossing(a, b, side, hu, hv);
      }
      if (b_in && n < kClipMax) next[n++] = b;
    }
    for (int i = 0; i < n; ++i) poly[i] = next[i];
    count = n;
  }
  return count;
}

// Clips the segment seg[0] -> seg[1] (an incident edge: both ends' line is its edge index) by the rectangle;
// returns how many points remain (0 or 2), in seg. An end cut off becomes the crossing with the side that cut
// it.
template <class S>
SG_HD inline int clip_segment_to_rectangle(ClipVertex<S>* seg, const S& hu, const S& hv, double tol) {
  ClipVertex<S> a = seg[0], b = seg[1];
  for (int side = 0; side < 4; ++side) {
    const bool a_in = clip_detail::outside(a, side, value(hu), value(hv), tol) <= 0.0;
    const bool b_in = clip_detail::outside(b, side, value(hu), value(hv), tol) <= 0.0;
    if (!a_in && !b_in) return 0;
    if (a_in && b_in) continue;
    const ClipVertex<S> c = clip_detail::crossing(a, b, side, hu, hv);
    if (a_in) {
      b = c;
    } else {
      a = c;
    }
  }
  seg[0] = a;
  seg[1] = b;
  return 2;
}

}  // namespace sg
