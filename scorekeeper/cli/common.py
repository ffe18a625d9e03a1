"""What every command shares: where its settings come from, the exit status of bad input,
and the `--config` and `--models` options."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scorekeeper.settings import Settings

EXIT_BAD_INPUT = 2


def settings_for(args: argparse.Namespace, **overrides: object) -> Settings:
    """The settings `serve` would use (config file, environment; config.py), so that every
    command finds the same database and model folder as the installed server. A config
    file that is wrong stops the command with its message (exit 2)."""
    from scorekeeper.config import ConfigError, find_config, load_settings

    try:
        return load_settings(find_config(getattr(args, "config", None)), **overrides)
    except ConfigError as exc:
        sys.stderr.write(f"scorekeeper: {exc}\n")
        raise SystemExit(EXIT_BAD_INPUT) from None


def add_config(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None,
                        help="TOML config (default: $SCOREKEEPER_CONFIG, "
                             "else /etc/scorekeeper/config.toml if present)")


def add_models(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--models", type=Path, default=None,
                        help="model folder (default: the config's [model] dir, else models/)")
    add_config(parser)
