"""Typed settings for the table server, read from `SCOREKEEPER_*` environment variables."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_data_dir() -> Path:
    """The XDG data folder, so the database survives reinstalls and lives where users expect."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "scorekeeper"


class Settings(BaseSettings):
    """Everything `serve` needs; CLI flags override these, the environment fills the rest."""

    model_config = SettingsConfigDict(env_prefix="SCOREKEEPER_", extra="ignore")

    data_dir: Path = Field(default_factory=default_data_dir)
    db: Path | None = None
    host: str = "0.0.0.0"
    port: int = Field(default=8000, ge=0, le=65535)
    camera: str | None = None
    admin_token: SecretStr | None = None
    keepalive_s: float = Field(default=15.0, gt=0)

    @property
    def db_path(self) -> Path:
        """The database file: `--db` if given, else one in the data folder."""
        return self.db if self.db is not None else self.data_dir / "scorekeeper.db"
