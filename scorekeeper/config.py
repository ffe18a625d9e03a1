"""The config file (TOML) and the one merge of every settings layer.

    settings = load_settings(Path("/etc/scorekeeper/config.toml"), port=args.port)

Later layers win: defaults < config file < `SCOREKEEPER_*` environment < overrides (the
command line; None means "not given"). The file is read strictly: an unknown key or a bad
value stops the server at start with the file and key named, because a misspelt key that
were ignored would silently run the default — the wrong camera, or data in the wrong place.

`python -m scorekeeper.config [FILE]` checks a file and prints the settings it gives.
"""

from __future__ import annotations

import os
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pydantic_settings import EnvSettingsSource

from scorekeeper.settings import Settings

SYSTEM_CONFIG = Path("/etc/scorekeeper/config.toml")
ENV_CONFIG = "SCOREKEEPER_CONFIG"
ENV_PREFIX = "SCOREKEEPER_"

# The file's keys ("section.key" or "key") → Settings fields.
KEYS: dict[str, str] = {
    "host": "host",
    "port": "port",
    "data_dir": "data_dir",
    "db": "db",
    "calibration": "calibration",
    "admin_token_file": "admin_token_file",
    "keepalive_s": "keepalive_s",
    "camera.spec": "camera",
    "camera.resolution": "camera_resolution",
    "model.runtime": "model_runtime",
    "model.dir": "model_dir",
    "decks.default": "default_deck",
    "decks.learn_from_scans": "learn_from_scans",
    "decks.learned_max": "learned_max",
    "photos.memory_mb": "photo_memory_mb",
    "photos.reads_at_once": "photo_reads",
    "club.url": "club_url",
    "club.token_file": "club_token_file",
    "club.server": "club_server",
    "club.retry_max_s": "club_retry_max_s",
    "club.timeout_s": "club_timeout_s",
    "tls.cert": "tls_cert",
    "tls.key": "tls_key",
}
SECTIONS = {key.partition(".")[0] for key in KEYS if "." in key}
PATHS = {"data_dir", "db", "calibration", "admin_token_file", "model_dir", "club_token_file",
         "tls_cert", "tls_key"}
HINTS = {"admin_token": "a token does not belong in a readable config file: put it in the "
                        "file that admin_token_file names, or set SCOREKEEPER_ADMIN_TOKEN",
         "club.token": "a table's token does not belong in a readable config file: put it in "
                       "the file that [club] token_file names, or set SCOREKEEPER_CLUB_TOKEN"}


class ConfigError(ValueError):
    """A config file, environment variable or flag that cannot be used; says which and why."""


def find_config(given: Path | None = None) -> Path | None:
    """The file to read: `--config`, else $SCOREKEEPER_CONFIG, else the system one if present."""
    if given is not None:
        return given
    if os.environ.get(ENV_CONFIG):
        return Path(os.environ[ENV_CONFIG])
    return SYSTEM_CONFIG if SYSTEM_CONFIG.is_file() else None


def read_config(path: Path) -> dict[str, Any]:
    """The file's values keyed by Settings field; relative paths are taken from its folder."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read it: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    values: dict[str, Any] = {}
    for key, value in _flatten(raw):
        field = KEYS.get(key)
        if field is None:
            raise ConfigError(_unknown(path, key))
        if field in PATHS and isinstance(value, str) and not _is_url(field, value):
            value = path.parent / Path(value).expanduser()
        values[field] = value
    return values


def _is_url(field: str, value: str) -> bool:
    """Whether `db` names a PostgreSQL server (kept as given) rather than a file."""
    from scorekeeper.store.database import is_url

    return field == "db" and is_url(value)


def _flatten(raw: Mapping[str, Any]) -> list[tuple[str, Any]]:
    items: list[tuple[str, Any]] = []
    for key, value in raw.items():
        if key in SECTIONS and isinstance(value, dict):
            items += [(f"{key}.{sub}", v) for sub, v in value.items()]
        else:
            items.append((key, value))
    return items


def _unknown(path: Path, key: str) -> str:
    section = key.partition(".")[0] if "." in key else ""
    known = sorted(k.rpartition(".")[2] for k in KEYS if k.rpartition(".")[0] == section)
    where = f"in [{section}]" if section else "at the top level"
    message = f"{path}: unknown key {key!r}; the keys {where} are: {', '.join(known)}"
    hint = HINTS.get(key)
    if hint is None and not section:
        message += f"; sections: {', '.join(f'[{s}]' for s in sorted(SECTIONS))}"
    return f"{message} ({hint})" if hint else message


def load_settings(config_path: Path | None = None, **overrides: Any) -> Settings:
    """Defaults < config file < environment < `overrides` (None values are ignored)."""
    unknown = sorted(set(overrides) - set(Settings.model_fields))
    if unknown:
        raise ConfigError(f"unknown setting {unknown[0]!r} given on the command line")
    given = {k: v for k, v in overrides.items() if v is not None}
    from_file = read_config(config_path) if config_path is not None else {}
    from_env = EnvSettingsSource(Settings)()
    values = {**from_file, **{k: v for k, v in from_env.items() if k not in given}, **given}
    try:
        return Settings(**values)
    except ValidationError as exc:
        raise ConfigError(_explain(exc, config_path, from_file, from_env, given)) from None


def _explain(exc: ValidationError, path: Path | None, from_file: Mapping[str, Any],
             from_env: Mapping[str, Any], given: Mapping[str, Any]) -> str:
    """Name each bad value's source: the flag, the environment variable, or the file's key."""
    keys = {field: key for key, field in KEYS.items()}
    problems = []
    for err in exc.errors():
        if not err["loc"]:  # a rule across settings: its message names them; the input,
            # every setting (tokens too), is not shown
            problems.append(str(err["msg"]).removeprefix("Value error, "))
            continue
        field = str(err["loc"][0])
        if field in given:
            where = f"{field} (command line)"
        elif field in from_env:
            where = f"{ENV_PREFIX}{field.upper()} (environment)"
        elif field in from_file:
            where = f"{path}: {keys.get(field, field)}"
        else:
            where = field
        problems.append(f"{where}: {err['msg']} (got {err.get('input')!r})")
    return "; ".join(problems)


def camera_options(settings: Settings) -> dict[str, int]:
    """`camera_resolution` as options for `camera_from_spec`: the `width` and `height` that
    the source's config class takes (replay only a width; `none` neither).

    `auto` picks its camera itself and keeps that camera's default size.
    """
    from scorekeeper.camera.spec import CAMERAS  # OpenCV loads with it: only when asked

    size = settings.camera_size
    spec = (settings.camera or "auto").strip().lower()
    kind = spec.split(":", 1)[0].split("?", 1)[0]
    if size is None or kind not in CAMERAS:
        return {}
    fields = CAMERAS.get(kind).config.model_fields
    return {key: value for key, value in zip(("width", "height"), size, strict=True)
            if key in fields}


def main(argv: list[str] | None = None) -> int:
    """Check a config file and print the settings it gives (the environment included)."""
    args = sys.argv[1:] if argv is None else argv
    path = find_config(Path(args[0]) if args else None)
    try:
        settings = load_settings(path)
    except ConfigError as exc:
        print(f"scorekeeper: {exc}", file=sys.stderr)
        return 2
    print(f"# config file: {path or '(none)'}")
    for name, value in settings.model_dump().items():
        shown = "(set)" if name == "admin_token" and value is not None else value
        shown = settings.db_shown if name == "db" and value is not None else shown
        print(f"{name} = {'(unset)' if shown is None else shown}")
    print(f"# database: {settings.db_shown}\n# calibration: {settings.calibration_path}")
    print(f"# admin token file: {settings.admin_token_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
