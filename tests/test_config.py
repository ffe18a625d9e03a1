"""The config file: strict keys, clear errors, and defaults < file < environment < flags."""

from __future__ import annotations

import io
import os
import re
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from pydantic import ValidationError

from scorekeeper.config import (
    KEYS,
    ConfigError,
    camera_options,
    find_config,
    load_settings,
    main,
)
from scorekeeper.settings import Settings

EXAMPLE = Path(__file__).resolve().parent.parent / "deploy" / "config.example.toml"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(os.environ):
        if name.startswith("SCOREKEEPER_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(("text", "key"), [
    ("prot = 8000\n", "'prot'"),
    ("[camera]\nfps = 30\n", "'camera.fps'"),
    ("[cam]\nspec = 'none'\n", "'cam'"),
    ("camera = 'none'\n", "'camera'"),
    ("admin_token = 'secret'\n", "'admin_token'"),
])
def test_unknown_key_is_refused_naming_key_and_file(tmp_path: Path, text: str, key: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_settings(path)
    message = str(err.value)
    assert key in message and str(path) in message
    assert "unknown key" in message


def test_unknown_key_message_lists_the_keys_of_its_section(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"keys in \[camera\] are: resolution, spec$"):
        load_settings(write(tmp_path, "[camera]\nfps = 30\n"))


def test_token_in_the_file_says_where_it_belongs(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="SCOREKEEPER_ADMIN_TOKEN"):
        load_settings(write(tmp_path, "admin_token = 'x'\n"))


@pytest.mark.parametrize(("text", "key"), [
    ("port = 70000\n", "port"),
    ("port = 'eighty'\n", "port"),
    ("keepalive_s = 0\n", "keepalive_s"),
    ("[model]\nruntime = 'tflite'\n", "model.runtime"),
    ("[camera]\nresolution = 'big'\n", "camera.resolution"),
    ("[camera]\nresolution = '0x480'\n", "camera.resolution"),
])
def test_bad_value_is_refused_naming_key_and_file(tmp_path: Path, text: str, key: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_settings(path)
    assert f"{path}: {key}:" in str(err.value)


def test_bad_toml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(write(tmp_path, "port = \n"))
    with pytest.raises(ConfigError, match="no such config file"):
        load_settings(tmp_path / "absent.toml")


def test_bad_environment_value_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_PORT", "x")
    with pytest.raises(ConfigError, match="SCOREKEEPER_PORT"):
        load_settings(None)


def test_bad_override_names_the_flag() -> None:
    with pytest.raises(ConfigError, match=r"port \(command line\)"):
        load_settings(None, port=-1)
    with pytest.raises(ConfigError, match="'colour'"):
        load_settings(None, colour="red")


def test_precedence_defaults_file_environment_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "port = 8001\nhost = '127.0.0.1'\nkeepalive_s = 5\n"
                           "[camera]\nspec = 'none'\n")
    s = load_settings(path)
    assert (s.port, s.host, s.keepalive_s, s.camera) == (8001, "127.0.0.1", 5.0, "none")
    assert s.model_runtime == "onnx"  # not in the file: the default
    monkeypatch.setenv("SCOREKEEPER_PORT", "8002")
    monkeypatch.setenv("SCOREKEEPER_CAMERA", "opencv:1")
    s = load_settings(path)
    assert (s.port, s.host, s.camera) == (8002, "127.0.0.1", "opencv:1")
    s = load_settings(path, port=8003, host=None, camera=None)  # None: flag not given
    assert (s.port, s.host, s.camera) == (8003, "127.0.0.1", "opencv:1")
    assert load_settings(None).port == 8002


def test_paths_in_the_file_are_relative_to_it(tmp_path: Path) -> None:
    path = write(tmp_path, "data_dir = 'data'\n[model]\ndir = '/srv/models'\n")
    s = load_settings(path)
    assert s.data_dir == tmp_path / "data" and s.model_dir == Path("/srv/models")
    assert s.db_path == tmp_path / "data" / "scorekeeper.db"


def test_example_file_loads_and_documents_every_key() -> None:
    s = load_settings(EXAMPLE)
    assert s.port == 8000 and s.model_runtime == "onnx" and s.camera == "auto"
    text = EXAMPLE.read_text()
    for key in KEYS:
        section, _, leaf = key.rpartition(".")
        assert re.search(rf"^(# )?{leaf} = ", text, re.MULTILINE), key
        if section:
            assert f"[{section}]" in text
    # Every setting but the secret tokens can be set in the file.
    assert set(Settings.model_fields) - set(KEYS.values()) == {"admin_token", "club_token"}


def test_derived_paths_and_camera_size(tmp_path: Path) -> None:
    s = Settings(data_dir=tmp_path)
    assert s.calibration_path == tmp_path / "calibration" / "current.json"
    assert s.admin_token_path == tmp_path / "admin_token"
    assert s.camera_size is None
    s = Settings(data_dir=tmp_path, calibration=tmp_path / "c.json",
                 admin_token_file=tmp_path / "t", camera_resolution=" 1280 x 960 ")
    assert (s.calibration_path, s.admin_token_path) == (tmp_path / "c.json", tmp_path / "t")
    assert (s.camera_resolution, s.camera_size) == ("1280x960", (1280, 960))


@pytest.mark.parametrize(("spec", "options"), [
    ("picamera2", {"width": 1280, "height": 960}),
    ("opencv:0?fourcc=MJPG", {"width": 1280, "height": 960}),
    ("replay:/frames", {"width": 1280}),
    ("none", {}),
    (None, {}),
    ("auto", {}),
])
def test_camera_options(spec: str | None, options: dict[str, int]) -> None:
    assert camera_options(Settings(camera=spec, camera_resolution="1280x960")) == options
    assert camera_options(Settings(camera=spec)) == {}


def test_unknown_constructor_argument_is_refused() -> None:
    with pytest.raises(ValidationError):
        Settings(prot=8000)  # type: ignore[call-arg]


def test_find_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    given = tmp_path / "given.toml"
    assert find_config(given) == given
    monkeypatch.setenv("SCOREKEEPER_CONFIG", str(tmp_path / "env.toml"))
    assert find_config(None) == tmp_path / "env.toml"
    assert find_config(given) == given


def test_check_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main([str(EXAMPLE)]) == 0
    assert "port = 8000" in out.getvalue()
    assert main([str(write(tmp_path, "prot = 1\n"))]) == 2
    assert "'prot'" in capsys.readouterr().err
