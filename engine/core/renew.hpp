#pragma once
// Fresh objects in warm memory: a sweep runs thousands of points, each wanting the same large scratch
// (a joint tree's ~0.5 MB) as new. Constructing it again where the last point's lived gives the same object
// a new one would be, without the allocator's page faults.
#include <memory>
#include <type_traits>
#include <utility>

namespace sg {

// p owns a newly constructed T(args...): in the object p already owns when it owns one, else a new one.
// For types whose constructors do not throw (the engine's scratch: fixed arrays, no allocation).
template <class T, class... Args>
void renew(std::unique_ptr<T>& p, Args&&... args) {
  static_assert(std::is_nothrow_destructible_v<T>);
  if (!p) {
    p = std::make_unique<T>(std::forward<Args>(args)...);
    return;
  }
  std::destroy_at(p.get());
  std::construct_at(p.get(), std::forward<Args>(args)...);
}

// The same for an object held by value (a member): constructed again in place.
template <class T, class... Args>
void renew_in_place(T& object, Args&&... args) {
  std::destroy_at(&object);
  std::construct_at(&object, std::forward<Args>(args)...);
}

}  // namespace sg
