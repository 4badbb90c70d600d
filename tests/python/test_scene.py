"""softgrad.Scene: loading, set/get/to_dict, and bad input as ValueError naming the file and key path."""

import json
import math
import os

import pytest

import softgrad
from conftest import scene_path


def test_loads_a_file_with_overrides_and_reads_keys_back():
    scene = softgrad.Scene(scene_path("toy_point_mass.json"), set={"sweep.points": 7, "contact.penalty.k": 80})
    assert scene.name == "toy_point_mass"
    assert scene.get("sweep.points") == 7
    assert scene.get("contact.penalty.k") == 80
    assert scene.get("model.particles.0.vel") == [0, 0, -1]
    assert scene.get("model.particles.0.vel.2") == -1
    assert scene.parameter == "model.particles.0.pos.2"
    assert "model.particles.0.pos.2" in scene.paths
    assert scene.overrides == ["sweep.points=7", "contact.penalty.k=80"]


def test_set_is_the_command_lines_set_and_takes_choices_vectors_and_numpy():
    import numpy

    scene = softgrad.Scene(scene_path("toss_box_diffmjx.json"))
    scene.set("integrator.type", "rk4").set("model.bodies.0.vel", numpy.array([0.5, 0.0, -2.0]))
    assert scene.get("integrator.type") == "rk4"
    assert scene.get("model.bodies.0.vel") == [0.5, 0.0, -2.0]
    scene.set("model.bodies.0.vel.2", numpy.float64(-1.5))
    assert scene.get("model.bodies.0.vel.2") == -1.5


def test_to_dict_round_trips_to_the_same_scene_and_the_same_loss():
    scene = softgrad.Scene(scene_path("toss_sphere_mjx.json"), set={"integrator.steps": 50})
    again = softgrad.Scene(scene.to_dict())
    assert again.to_dict() == scene.to_dict()
    assert again.loss() == scene.loss()  # bit for bit: the same numbers in the same order


def test_copy_is_independent():
    scene = softgrad.Scene(scene_path("toy_point_mass.json"))
    other = scene.copy(set={"sweep.points": 3})
    assert other.get("sweep.points") == 3
    assert scene.get("sweep.points") == 2000


def test_a_missing_file_names_it():
    with pytest.raises(ValueError, match="no_such_scene.json"):
        softgrad.Scene("no_such_scene.json")


def test_malformed_json_gives_file_and_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "model": {\n    "type": "particles",,\n  }\n}\n')
    with pytest.raises(ValueError, match=r"bad.json:3"):
        softgrad.Scene(str(bad))


def test_unknown_key_wrong_type_and_out_of_range_name_the_key_path():
    path = scene_path("toy_point_mass.json")
    with pytest.raises(ValueError, match=r"contact\.penalty\.kk"):
        softgrad.Scene(path, set={"contact.penalty.kk": 1})
    with pytest.raises(ValueError, match=r"integrator\.steps"):
        softgrad.Scene(path, set={"integrator.steps": "many"})
    with pytest.raises(ValueError, match=r"model\.particles\.0\.mass"):
        softgrad.Scene(path, set={"model.particles.0.mass": -1})


def test_nan_and_infinity_are_refused_at_their_key():
    scene = softgrad.Scene(scene_path("toy_point_mass.json"))
    with pytest.raises(ValueError, match=r"contact\.penalty\.k"):
        scene.set("contact.penalty.k", math.nan)
    with pytest.raises(ValueError, match=r"model\.particles\.0\.vel"):
        scene.set("model.particles.0.vel", [0, 0, math.inf])
    doc = scene.to_dict()
    doc["model"]["particles"][0]["mass"] = math.nan
    with pytest.raises(ValueError, match=r"<dict>: model\.particles\.0\.mass"):
        softgrad.Scene(doc)


def test_a_failed_set_leaves_the_scene_as_it_was():
    scene = softgrad.Scene(scene_path("toy_point_mass.json"), set={"sweep.points": 9})
    before = scene.to_dict()
    with pytest.raises(ValueError):
        scene.set("sweep.points", -4)
    assert scene.to_dict() == before
    assert scene.overrides == ["sweep.points=9"]


def test_get_of_a_missing_key_names_it():
    scene = softgrad.Scene(scene_path("toy_point_mass.json"))
    with pytest.raises(ValueError, match=r"model\.particles\.3"):
        scene.get("model.particles.3.mass")
    with pytest.raises(ValueError, match=r"sweep\.nope"):
        scene.get("sweep.nope")


def test_deeply_nested_and_wrongly_typed_documents_are_refused():
    deep = {"model": {}}
    node = deep["model"]
    for _ in range(500):
        node["x"] = {}
        node = node["x"]
    with pytest.raises(ValueError):
        softgrad.Scene(deep)
    with pytest.raises(TypeError):
        softgrad.Scene(42)
    with pytest.raises(TypeError):
        softgrad.Scene(scene_path("toy_point_mass.json"), set=["sweep.points=3"])


def test_mjcf_scenes_load_where_the_importer_is_built():
    if not softgrad.has_mjcf:
        pytest.skip("this build has no MJCF importer (libmujoco-dev missing)")
    scene = softgrad.Scene(scene_path("pendulum_chain_mjcf.json"))
    assert scene.paths
    json.dumps(scene.to_dict())


def test_an_mjcf_file_itself_is_a_scene():
    if not softgrad.has_mjcf:
        pytest.skip("this build has no MJCF importer (libmujoco-dev missing)")
    humanoid = "/usr/share/mujoco/model/humanoid/humanoid.xml"
    if not os.path.exists(humanoid):
        pytest.fail(humanoid + " is missing: run scripts/install-deps")
    scene = softgrad.Scene(humanoid)
    d = scene.to_dict()
    assert d["model"]["type"] == "tree"
    assert d["name"] == "humanoid"
    # The default run is at the model's own gravity.
    assert d["sweep"]["from"] == d["model"]["gravity"][2] == -9.81
