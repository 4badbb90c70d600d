#include <doctest/doctest.h>

#include <set>
#include <string>
#include <utility>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "gui/app/shortcuts.hpp"

using namespace sg::gui;

TEST_CASE("shortcut table has no duplicate bindings or names and covers every action") {
  std::set<std::pair<int, unsigned>> bindings;
  std::set<std::string> names;
  std::set<Action> actions;
  for (const Shortcut& s : shortcut_table()) {
    INFO(s.name);
    CHECK(bindings.insert({s.key, s.mods}).second);
    CHECK(names.insert(s.name).second);
    CHECK(actions.insert(s.action).second);
    CHECK(std::string(s.description).size() > 5);
  }
  CHECK(actions.size() == 13);  // every enumerator of Action
  CHECK(names.count("toggle_help") == 1);
}

TEST_CASE("shortcut labels are readable") {
  for (const Shortcut& s : shortcut_table()) {
    if (s.action == Action::kToggleHelp) CHECK(shortcut_label(s) == "F1");
    if (s.action == Action::kToggleFrameStats) CHECK(shortcut_label(s) == "F3");
    if (s.action == Action::kResetLayout) CHECK(shortcut_label(s) == "Ctrl+Shift+L");
    if (s.action == Action::kQuit) CHECK(shortcut_label(s) == "Ctrl+Q");
  }
}

TEST_CASE("shortcuts need exact modifiers and are ignored while typing") {
  KeyInput input;
  input.pressed = [](int key) { return key == GLFW_KEY_F1 || key == GLFW_KEY_Q; };
  auto actions = triggered_actions(input);
  REQUIRE(actions.size() == 1);
  CHECK(actions[0] == Action::kToggleHelp);  // plain Q is not Ctrl+Q

  input.mods = kCtrl;
  actions = triggered_actions(input);
  REQUIRE(actions.size() == 1);
  CHECK(actions[0] == Action::kQuit);

  input.want_text_input = true;
  CHECK(triggered_actions(input).empty());
}

TEST_CASE("Esc cancels a sweep only when no popup or edited widget takes it") {
  KeyInput input;
  input.pressed = [](int key) { return key == GLFW_KEY_ESCAPE; };
  auto actions = triggered_actions(input);
  REQUIRE(actions.size() == 1);
  CHECK(actions[0] == Action::kCancelRun);
  input.escape_taken = true;  // closing a popup must not throw away a long sweep
  CHECK(triggered_actions(input).empty());
}
