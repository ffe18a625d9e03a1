"""What every command shares: where its settings come from, the exit status of bad input,
and the `--config` and `--models` options."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scorekeeper.decks.profile import DeckProfile
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


def serve_text() -> str:
    """`serve --help`'s description: where the data goes and which port phones open, with
    every way to set each, as a newcomer's first question is where things are."""
    import textwrap

    from scorekeeper.settings import default_data_dir

    paragraphs = [
        "Run the table server and the phone page, and print the address phones on the same "
        "Wi-Fi open and the admin link.",
        "Data folder (the games database, the admin token and link): --data-dir, else "
        f"$SCOREKEEPER_DATA_DIR, else the config file's data_dir, else {default_data_dir()}",
        "Port: --port, else $SCOREKEEPER_PORT, else the config file's port, else 8000"]
    return "\n\n".join(textwrap.fill(text, 78, break_long_words=False, break_on_hyphens=False)
                       for text in paragraphs)


def add_data_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, default=None, metavar="FOLDER",
                        help="data folder (default: $SCOREKEEPER_DATA_DIR, else the config's "
                             "data_dir, else ~/.local/share/scorekeeper)")


def add_config(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None,
                        help="TOML config (default: $SCOREKEEPER_CONFIG, "
                             "else /etc/scorekeeper/config.toml if present)")


def add_models(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--models", type=Path, default=None,
                        help="model folder (default: the config's [model] dir, else models/)")
    add_config(parser)


def add_deck_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deck", default=None,
                        help="read with this deck's adapted classifier (`scorekeeper deck`)")


def models_dir(args: argparse.Namespace) -> Path:
    """`--models`, else the configured model folder (`[model] dir`, SCOREKEEPER_MODEL_DIR)."""
    return Path(args.models) if args.models is not None else settings_for(args).model_dir


def deck_for(args: argparse.Namespace) -> DeckProfile | None:
    """`--deck NAME`'s profile; a missing or broken one is a warning, and the generic model
    reads (as a scan would)."""
    from scorekeeper.decks.profile import deck_for_reading

    profile, warning = deck_for_reading(settings_for(args).data_dir, args.deck)
    if warning:
        sys.stderr.write(f"warning: {warning}\n")
    return profile
