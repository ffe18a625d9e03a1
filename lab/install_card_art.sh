#!/usr/bin/env bash
# Install the card art used by the synthetic data generator, offline-friendly and idempotent:
#   Debian: gnome-cards-data (aisleriot decks), kdegames-card-data-kf5 (KDE decks),
#           librsvg2-bin (rsvg-convert, the SVG rasteriser), and the fonts the generator
#           prints text and procedural decks in (Noto with CJK, FreeFont, Liberation, URW);
#   npm:    @heruka_urgyen/react-playing-cards (Adrian Kennard's CC0 SVG cards), unpacked
#           into data/npm/package;
# then renders every usable deck into data/cards/ (git-ignored) with index boxes + montages.
# Usage: lab/install_card_art.sh [--decks-md]   (--decks-md rewrites the licence table)
# Env: CARDS_DIR (default data/cards), PYTHON (default .venv/bin/python), SKIP_RENDER=1.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-.venv/bin/python}
CARDS_DIR=${CARDS_DIR:-data/cards}
NPM_PKG=@heruka_urgyen/react-playing-cards
NPM_VERSION=0.5.0

need_apt=()
for pkg in gnome-cards-data kdegames-card-data-kf5 librsvg2-bin fonts-noto-core \
    fonts-noto-cjk fonts-freefont-ttf fonts-liberation2 fonts-urw-base35; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
    || need_apt+=("$pkg")
done
if ((${#need_apt[@]})); then
  echo "apt: installing ${need_apt[*]}" >&2
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

if [ ! -f data/npm/package/package.json ]; then
  echo "npm: fetching $NPM_PKG@$NPM_VERSION" >&2
  mkdir -p data/npm
  tgz=$(cd data/npm && npm pack --silent "$NPM_PKG@$NPM_VERSION" | tail -n 1)
  tar -xzf "data/npm/$tgz" -C data/npm
fi

if [ "${SKIP_RENDER:-0}" != 1 ]; then
  extra=()
  [ "${1:-}" = "--decks-md" ] && extra=(--decks-md lab/scorekeeper_lab/training/synth/DECKS.md)
  "$PYTHON" -m scorekeeper_lab.training.synth install-art --cards "$CARDS_DIR" \
    --npm data/npm/package --workers 2 "${extra[@]}"
fi
