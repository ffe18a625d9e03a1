"""Typed settings for the table server.

Values come from, lowest first: the defaults below, the config file (see
`scorekeeper.config` and `deploy/config.example.toml`), `SCOREKEEPER_*` environment
variables, then command-line flags. `Settings()` alone reads only defaults and the
environment, which is what tests and the development server want.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

Runtime = Literal["onnx", "ncnn", "torch"]
RESOLUTION = re.compile(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*")


def default_data_dir() -> Path:
    """The XDG data folder, so the database survives reinstalls and lives where users expect."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "scorekeeper"


def default_model_dir() -> Path:
    """`models/` beside the source tree, where `make model` writes; in an installed venv
    (deploy/install.sh: PREFIX/venv beside PREFIX/models) the one beside the venv.

    The config file's `[model] dir` wins over both; this is for a command run without it.
    """
    beside_source = Path(__file__).resolve().parents[1] / "models"
    beside_venv = Path(sys.prefix).parent / "models"
    if not beside_source.is_dir() and (beside_venv / "model.json").is_file():
        return beside_venv
    return beside_source


class Settings(BaseSettings):
    """Everything `serve` needs. Unknown names are refused, so a typo never plays a default.

    A variable set but empty (`SCOREKEEPER_DATA_DIR=`) reads as unset: as a path it would
    be the current folder, and a unit file's blank line would move the database there.
    """

    model_config = SettingsConfigDict(env_prefix="SCOREKEEPER_", extra="forbid",
                                      env_ignore_empty=True)

    data_dir: Path = Field(default_factory=default_data_dir)
    db: str | None = Field(default=None, description="the games database: an SQLite file "
                           "(default: in the data folder) or a PostgreSQL URL, "
                           "postgresql://USER:PASSWORD@HOST/DBNAME")
    host: str = "0.0.0.0"
    port: int = Field(default=8000, ge=0, le=65535)
    camera: str | None = None
    camera_resolution: str | None = None
    model_dir: Path = Field(default_factory=default_model_dir)
    model_runtime: Runtime = "onnx"
    calibration: Path | None = None
    admin_token: SecretStr | None = None
    admin_token_file: Path | None = None
    keepalive_s: float = Field(default=15.0, gt=0)
    default_deck: str | None = Field(default=None, pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$",
                                     description="the deck a new game reads with unless it "
                                                 "names one (`scorekeeper deck list`)")
    learn_from_scans: bool = True
    # Photos (web/http/decodes.py): what decoding and reading them may hold at once. At the
    # defaults a Pi's server stays within about 300 MiB of its idle size whatever is sent:
    # the card reader needs about 100 MiB a read besides the photo, and spreads one read
    # over every core, so a second read at once would cost that again for little speed.
    photo_memory_mb: int = Field(default=128, ge=16, le=65536,
                                 description="MiB the photos being decoded and read may hold "
                                             "together; a bigger JPEG is read smaller")
    photo_reads: int = Field(default=1, ge=1, le=64, description="photos decoded or read at "
                                                                 "once; the rest wait their turn")
    learned_max: int = Field(default=2000, ge=0, description="examples learned from play kept "
                                                             "per deck; the oldest go first")
    # Club night (docs/club.md): a table forwards its games to `club_url`; a club server
    # (`club_server`) takes them from its tables.
    club_url: str | None = Field(default=None, pattern=r"^https?://[^\s]+$",
                                 description="the club server this table forwards its games to")
    club_token: SecretStr | None = None
    club_token_file: Path | None = None
    club_server: bool = False
    club_retry_max_s: float = Field(default=30.0, gt=0, description="longest wait between "
                                                                    "tries to reach the club")
    club_timeout_s: float = Field(default=10.0, gt=0)
    # HTTPS (docs/server.md): phones give the offline page and the live viewfinder only to
    # a secure page. Both or neither; `scorekeeper tls self-signed` makes a pair.
    tls_cert: Path | None = Field(default=None, description="the server's certificate (PEM)")
    tls_key: Path | None = Field(default=None, description="its private key (PEM, unencrypted)")

    @field_validator("db", mode="before")
    @classmethod
    def _db(cls, value: object) -> object:
        """A path given as a Path (tests, the config file) is kept as its text."""
        return os.fspath(value) if isinstance(value, os.PathLike) else value

    @field_validator("camera_resolution")
    @classmethod
    def _resolution(cls, value: str | None) -> str | None:
        """Normalise 'W x H' to 'WxH' here, so a bad size fails at start, not at capture."""
        if value is None:
            return None
        m = RESOLUTION.fullmatch(value)
        if m is None or int(m[1]) == 0 or int(m[2]) == 0:
            raise ValueError(f"resolution must look like 1280x960, got {value!r}")
        return f"{int(m[1])}x{int(m[2])}"

    @model_validator(mode="after")
    def _club(self) -> Settings:
        """Club mode needs the table's token, and a club server forwards to nobody."""
        if self.club_url and self.club_server:
            raise ValueError("club_url and club_server: a club server forwards to no club")
        if self.club_url and self.club_token is None and self.club_token_file is None:
            raise ValueError("club_url needs the table's token: --club-token, "
                             "SCOREKEEPER_CLUB_TOKEN or club_token_file")
        return self

    @model_validator(mode="after")
    def _tls(self) -> Settings:
        """A certificate without its key (or the other way round) cannot serve HTTPS."""
        given = {"tls_cert": self.tls_cert, "tls_key": self.tls_key}
        missing = [name for name, value in given.items() if value is None]
        if len(missing) == 1:
            other = "tls_key" if missing[0] == "tls_cert" else "tls_cert"
            flag = missing[0].replace("_", "-")
            raise ValueError(f"{other} is set but {missing[0]} is not: HTTPS needs both "
                             f"(the config's [tls] {missing[0][4:]}, "
                             f"SCOREKEEPER_{missing[0].upper()} or --{flag}), or neither")
        return self

    @property
    def tls(self) -> bool:
        """Whether the server speaks HTTPS, so every address it prints says https://."""
        return self.tls_cert is not None and self.tls_key is not None

    def club_token_value(self) -> str | None:
        """The table's club token: `club_token`, else the first line of `club_token_file`."""
        if self.club_token is not None and self.club_token.get_secret_value().strip():
            return self.club_token.get_secret_value().strip()
        if self.club_token_file is not None:
            return self.club_token_file.read_text(encoding="utf-8").strip() or None
        return None

    @property
    def db_is_url(self) -> bool:
        from scorekeeper.store.database import is_url  # the store loads only when asked

        return self.db is not None and is_url(self.db)

    @property
    def db_target(self) -> Path | str:
        """What the store opens: a PostgreSQL URL as given, else the SQLite file."""
        return self.db.strip() if self.db is not None and self.db_is_url else self.db_path

    @property
    def db_path(self) -> Path:
        """The SQLite file: `--db` if given, else one in the data folder. A PostgreSQL URL
        has none (ValueError): use `db_target`."""
        if self.db is None:
            return self.data_dir / "scorekeeper.db"
        if self.db_is_url:
            raise ValueError(f"the database is on a PostgreSQL server ({self.db_shown}), "
                             f"not in a file")
        return Path(self.db).expanduser()

    @property
    def db_shown(self) -> str:
        """The database as it may be logged or shown: a URL's password as ***."""
        from scorekeeper.store.database import redact

        return redact(self.db_target)

    @property
    def backups_path(self) -> Path:
        """Backups: the `backups` folder beside an SQLite file; for PostgreSQL (pg_dump's
        files, `scorekeeper db backup`) the one in the data folder."""
        folder = self.data_dir if self.db_is_url else self.db_path.parent
        return folder / "backups"

    @property
    def calibration_path(self) -> Path:
        """The calibration JSON: as set, else `<data dir>/calibration/current.json`."""
        if self.calibration is not None:
            return self.calibration
        return self.data_dir / "calibration" / "current.json"

    @property
    def admin_token_path(self) -> Path:
        """Where the admin token is kept (made on first start): as set, else in the data dir."""
        if self.admin_token_file is not None:
            return self.admin_token_file
        return self.data_dir / "admin_token"

    @property
    def camera_size(self) -> tuple[int, int] | None:
        """`camera_resolution` as (width, height), or None for the camera's own default."""
        if self.camera_resolution is None:
            return None
        width, _, height = self.camera_resolution.partition("x")
        return int(width), int(height)
