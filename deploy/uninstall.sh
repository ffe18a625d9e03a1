#!/usr/bin/env bash
# Remove scorekeeper: the service (a table's, or the club server's), the Avahi file, PREFIX
# (code, venv, model), the /usr/local/bin/scorekeeper link and the per-address connection
# limit (scorekeeper-nft.service, its rules unloaded and /etc/scorekeeper/scorekeeper.nft).
#
#   sudo deploy/uninstall.sh [--purge] [--prefix DIR] [--no-systemd]
#
# Keeps /etc/scorekeeper (your config), /var/lib/scorekeeper (games, token, calibration),
# /var/lib/scorekeeper-club and the scorekeeper user, so a later install carries on where
# this one stopped. --purge removes those too, but never the club's PostgreSQL database
# (drop it yourself: docs/postgresql.md). The hostname is left as it is.
# SCOREKEEPER_ROOT=/some/dir works under that folder, as for install.sh.
set -euo pipefail

USER_NAME=scorekeeper
PREFIX=/opt/scorekeeper
PURGE=0
SYSTEMD=1
ROOT=${SCOREKEEPER_ROOT:-}
ROOT=${ROOT%/}

say() { printf 'scorekeeper: %s\n' "$*"; }
die() { printf 'scorekeeper: error: %s\n' "$*" >&2; exit 1; }

while [[ $# -gt 0 ]]; do
  case $1 in
    --purge) PURGE=1; shift ;;
    --prefix) PREFIX=${2:?--prefix needs a folder}; shift 2 ;;
    --no-systemd) SYSTEMD=0; shift ;;
    -h|--help) sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option: $1" ;;
  esac
done

[[ $PREFIX == /* && $PREFIX != / ]] || die "--prefix must be an absolute folder, not '$PREFIX'"
FAKE=0
if [[ -n $ROOT ]]; then
  FAKE=1 SYSTEMD=0
elif [[ $EUID -ne 0 ]]; then
  die "run as root: sudo $0"
fi

UNITS=(scorekeeper.service scorekeeper-club.service scorekeeper-nft.service)
if [[ $SYSTEMD -eq 1 ]] && command -v systemctl >/dev/null; then
  for unit in "${UNITS[@]}"; do
    systemctl disable --now "$unit" 2>/dev/null || true
  done
fi
for unit in "${UNITS[@]}"; do
  rm -f "$ROOT/etc/systemd/system/$unit"
done
rm -f "$ROOT/etc/avahi/services/scorekeeper.service" "$ROOT/etc/scorekeeper/scorekeeper.nft"
if [[ $FAKE -eq 0 ]] && command -v nft >/dev/null; then
  nft delete table inet scorekeeper 2>/dev/null || true  # loaded without the unit
fi
if [[ $SYSTEMD -eq 1 ]] && command -v systemctl >/dev/null; then
  systemctl daemon-reload
fi
rm -rf "$ROOT$PREFIX"
LINK=$ROOT/usr/local/bin/scorekeeper
if [[ -L $LINK && $(readlink "$LINK") == "$PREFIX/venv/bin/scorekeeper" ]]; then
  rm -f "$LINK"
fi
say "removed the service and $PREFIX"

if [[ $PURGE -eq 1 ]]; then
  rm -rf "$ROOT/etc/scorekeeper" "$ROOT/var/lib/scorekeeper" "$ROOT/var/lib/scorekeeper-club"
  if [[ $FAKE -eq 0 ]] && getent passwd "$USER_NAME" >/dev/null; then
    userdel "$USER_NAME" || say "could not remove user $USER_NAME"
  fi
  say "purged the config, the data and the user"
else
  say "kept /etc/scorekeeper and /var/lib/scorekeeper* (remove them with --purge)"
fi
