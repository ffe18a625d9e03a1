#!/usr/bin/env bash
# Install or upgrade scorekeeper on Raspberry Pi OS (64-bit, Bookworm or Trixie).
#
#   sudo deploy/install.sh [--hostname NAME] [--port N] [--with-training]
#                          [--prefix DIR] [--no-apt] [--no-systemd] [--club-server]
#                          [--no-rate-limit]
#
# Lays out: code (the files git tracks), venv and model in PREFIX (/opt/scorekeeper), the
# config in /etc/scorekeeper/config.toml (written only if absent, so your edits survive),
# the data in /var/lib/scorekeeper (never touched but for ownership), the systemd unit, an
# Avahi service file and /usr/local/bin/scorekeeper. Run it again to upgrade: the data and
# config are kept. With nft installed (apt's nftables), scorekeeper-nft.service loads
# /etc/scorekeeper/scorekeeper.nft, a kernel rate of new connections per address to the
# configured port (docs/server.md); --no-rate-limit leaves it out (and removes it).
# --club-server: this machine is the club's server (docs/club.md), not a table: PostgreSQL
# from apt with its scorekeeper user and database, /etc/scorekeeper/club.toml and club.env
# (kept if present), the unit scorekeeper-club.service enabled and started instead of the
# table's scorekeeper.service, its data in /var/lib/scorekeeper-club.
#
# For tests: SCOREKEEPER_ROOT=/some/dir installs under that folder instead of / and then
# never runs apt, systemctl, useradd or chown. SCOREKEEPER_SRC names the source tree
# (default: this script's repository), SCOREKEEPER_PIP a command used instead of the venv's
# pip, SCOREKEEPER_PYTHON the Python that makes the venv (default python3).
set -euo pipefail

USER_NAME=scorekeeper
PREFIX=/opt/scorekeeper
PORT=""
NEW_HOSTNAME=""
APT=1
SYSTEMD=1
TRAINING=0
CLUB_SERVER=0
RATE_LIMIT=1
ROOT=${SCOREKEEPER_ROOT:-}
ROOT=${ROOT%/}
PYTHON=${SCOREKEEPER_PYTHON:-python3}
ARGS=("$@")
SRC=${SCOREKEEPER_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# What is installed when the source is no git checkout (else: every file git tracks).
SOURCE_PATHS=(pyproject.toml README.md CHANGELOG.md Makefile scorekeeper deploy docs calibration)
# Apt packages. picamera2 and libcamera come from apt only (never pip); OpenCV, NumPy
# bindings and ONNX Runtime come from pip wheels inside the venv.
APT_PACKAGES=(python3-venv python3-pip avahi-daemon sqlite3 libgomp1 libglib2.0-0 nftables)

say() { printf 'scorekeeper: %s\n' "$*"; }
die() { printf 'scorekeeper: error: %s\n' "$*" >&2; exit 1; }

usage() {
  sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit "${1:-0}"
}

while [[ $# -gt 0 ]]; do
  case $1 in
    --hostname) NEW_HOSTNAME=${2:?--hostname needs a name}; shift 2 ;;
    --port) PORT=${2:?--port needs a number}; shift 2 ;;
    --prefix) PREFIX=${2:?--prefix needs a folder}; shift 2 ;;
    --with-training) TRAINING=1; shift ;;
    --no-apt) APT=0; shift ;;
    --no-systemd) SYSTEMD=0; shift ;;
    --club-server) CLUB_SERVER=1; shift ;;
    --no-rate-limit) RATE_LIMIT=0; shift ;;
    -h|--help) usage 0 ;;
    *) printf 'unknown option: %s\n\n' "$1" >&2; usage 2 ;;
  esac
done

[[ $PREFIX == /* && $PREFIX != / ]] || die "--prefix must be an absolute folder, not '$PREFIX'"
[[ -z $PORT || $PORT =~ ^[0-9]+$ && $PORT -ge 1 && $PORT -le 65535 ]] \
  || die "--port must be 1-65535, got '$PORT'"
if [[ -n $NEW_HOSTNAME && ! $NEW_HOSTNAME =~ ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$ ]]; then
  die "--hostname must be lower-case letters, digits and '-', got '$NEW_HOSTNAME'"
fi
[[ -f $SRC/pyproject.toml && -d $SRC/scorekeeper ]] || die "no scorekeeper source in $SRC"

FAKE=0
if [[ -n $ROOT ]]; then
  FAKE=1 APT=0 SYSTEMD=0
  say "installing under $ROOT (no apt, systemd, users or ownership changes)"
elif [[ $EUID -ne 0 ]]; then
  die "run as root: sudo $0 ${ARGS[*]}"
fi

OPT=$ROOT$PREFIX
ETC=$ROOT/etc/scorekeeper
DATA=/var/lib/scorekeeper
VAR=$ROOT$DATA
VENV=$OPT/venv
CONFIG=$ETC/config.toml
CLUB_CONFIG=$ETC/club.toml
CLUB_ENV=$ETC/club.env
CLUB_DATA=/var/lib/scorekeeper-club
RULES=$ETC/scorekeeper.nft
NFT_UNIT=$ROOT/etc/systemd/system/scorekeeper-nft.service
if [[ -n ${SCOREKEEPER_PIP:-} ]]; then
  read -r -a PIP <<< "$SCOREKEEPER_PIP"
else
  PIP=("$VENV/bin/python" -m pip --disable-pip-version-check)
fi

install_apt() {
  export DEBIAN_FRONTEND=noninteractive
  say "installing system packages with apt"
  apt-get update -qq
  local packages=("${APT_PACKAGES[@]}")
  if [[ $CLUB_SERVER -eq 1 ]]; then packages+=(postgresql); fi
  if apt-cache show python3-picamera2 >/dev/null 2>&1; then
    packages+=(python3-picamera2)
  else
    say "python3-picamera2 is not in apt (not Raspberry Pi OS?): only USB webcams will work"
  fi
  apt-get install -y -qq --no-install-recommends "${packages[@]}"
}

make_user() {
  if ! getent passwd "$USER_NAME" >/dev/null; then
    say "creating system user $USER_NAME"
    useradd --system --user-group --home-dir "$DATA" --no-create-home \
      --shell /usr/sbin/nologin "$USER_NAME"
  fi
  if getent group video >/dev/null; then
    usermod -a -G video "$USER_NAME"
  fi
}

git_src() { git -c safe.directory="$SRC" -C "$SRC" "$@"; }

# The files to install, NUL-separated, relative to $SRC: what git tracks when the source is a
# git checkout (so a venv, data, tokens or notes lying in the folder are never copied), else
# the fixed SOURCE_PATHS. models/ is installed apart (copy_models); the lab (lab/: training
# and evaluation) only --with-training. safe.directory: under sudo, git refuses a checkout
# that another user owns.
list_sources() {
  local path lab=':(exclude)lab'
  if [[ $TRAINING -eq 1 ]]; then lab=.; fi
  if command -v git >/dev/null && git_src rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    say "installing the files git tracks in $SRC" >&2
    git_src ls-files -z --cached -- . ':(exclude)models' "$lab" | while IFS= read -r -d '' path; do
      if [[ -e $SRC/$path ]]; then printf '%s\0' "$path"; fi  # deleted, not committed yet
    done
  else
    local paths=("${SOURCE_PATHS[@]}")
    if [[ $TRAINING -eq 1 ]]; then paths+=(lab); fi
    say "$SRC is no git checkout: installing ${paths[*]}" >&2
    for path in "${paths[@]}"; do
      if [[ -e $SRC/$path ]]; then printf '%s\0' "$path"; fi
    done
  fi
}

# Replace folder $2 by a copy of the source files in one rename, so a failed copy leaves the
# old one.
copy_tree() {
  local to=$1
  rm -rf "$to.new" "$to.old"
  mkdir -p "$to.new"
  list_sources > "$OPT/files.list"
  (cd "$SRC" && tar -cf - --exclude=__pycache__ --exclude='*.pyc' --exclude='*.egg-info' \
      --null -T "$OPT/files.list") | (cd "$to.new" && tar -xf - --no-same-owner)
  rm -f "$OPT/files.list"
  chmod -R u+rwX,go+rX,go-w "$to.new"
  if [[ -d $to ]]; then mv "$to" "$to.old"; fi
  mv "$to.new" "$to"
  rm -rf "$to.old"
}

# The model files to install, NUL-separated, relative to $SRC/models: model.json and the
# files it names for ONNX Runtime and NCNN, all the Pi runs (scorekeeper/vision/reader.py);
# with --with-training also the PyTorch weights and records the lab's deck adaptation starts
# from (*.pt, cards-cls.json). Never models/eval nor, without the lab, the .pt weights.
model_files() {
  "$PYTHON" - "$SRC/models" "$TRAINING" <<'PY'
import json, sys
from pathlib import Path
models, training = Path(sys.argv[1]), sys.argv[2] == "1"
manifest = json.loads((models / "model.json").read_text())
det, cls = manifest.get("detector") or {}, manifest.get("classifier") or {}
names = {"model.json", det.get("onnx"), det.get("ncnn"), (det.get("hand") or {}).get("onnx"),
         cls.get("onnx"), (cls.get("second") or {}).get("onnx")}
if training:
    names |= {p.name for p in (*models.glob("*.pt"), *models.glob("*.json"))}
for name in sorted(n for n in names if n):
    if "/" in name or name in (".", "..") or not (models / name).exists():
        print(f"scorekeeper: warning: model.json names {name!r}, not in {models}",
              file=sys.stderr)
        continue
    print(name, end="\0")
PY
}

copy_models() {
  if [[ ! -f $SRC/models/model.json ]]; then
    if [[ -f $OPT/models/model.json ]]; then
      say "no models/ in $SRC: keeping the installed model"
    else
      say "warning: no trained model in $SRC/models (run 'make model' on a PC, copy"
      say "         models/ here and run this again); scores can still be typed in"
      mkdir -p "$OPT/models"
    fi
    return
  fi
  rm -rf "$OPT/models.new" "$OPT/models.old"
  mkdir -p "$OPT/models.new"
  model_files > "$OPT/models.list"
  (cd "$SRC/models" && tar -cf - --null -T "$OPT/models.list") \
    | (cd "$OPT/models.new" && tar -xf - --no-same-owner)
  rm -f "$OPT/models.list"
  chmod -R u+rwX,go+rX,go-w "$OPT/models.new"
  if [[ -d $OPT/models ]]; then mv "$OPT/models" "$OPT/models.old"; fi
  mv "$OPT/models.new" "$OPT/models"
  rm -rf "$OPT/models.old"
}

make_venv() {
  if [[ -x $VENV/bin/python ]] && "$VENV/bin/python" -c 'pass' 2>/dev/null; then
    return
  fi
  # Missing, or its Python went away with an OS upgrade: make it afresh.
  say "creating the virtual environment $VENV"
  rm -rf "$VENV"
  local args=(-m venv --system-site-packages)
  if [[ -n ${SCOREKEEPER_PIP:-} ]]; then args+=(--without-pip); fi
  "$PYTHON" "${args[@]}" "$VENV"
}

# Keep NumPy at the apt version: picamera2's compiled helpers (simplejpeg) are built
# against it and fail to import next to a pip NumPy of another major version.
write_constraints() {
  local numpy
  numpy=$("$PYTHON" -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)
  if [[ -n $numpy ]]; then
    printf 'numpy==%s\n' "$numpy" > "$OPT/constraints.txt"
  else
    : > "$OPT/constraints.txt"
  fi
}

# Advice for a failed pip step, from what pip said (its output is in $1).
pip_advice() {
  local log=$1 again="sudo $0${ARGS[*]:+ ${ARGS[*]}}"
  if grep -Eqi 'No space left on device' "$log"; then
    say "the disk is full: free some space (df -h shows where), then run this again"
  elif grep -Eqi 'ProxyError|407 Proxy|Tunnel connection failed' "$log"; then
    say "the proxy refused pip: check its address and login, e.g."
    say "  sudo https_proxy=http://USER:PASSWORD@PROXY:PORT $0${ARGS[*]:+ ${ARGS[*]}}"
  elif grep -Eqi 'NewConnectionError|Name or service not known|Temporary failure in name|Network is unreachable|timed out|ConnectTimeout|Could not fetch URL|SSLError|No matching distribution' "$log"; then
    say "pip could not download from the package index (pypi.org). Check that this machine"
    say "is online (ping -c1 pypi.org; date, as a wrong clock breaks HTTPS); behind a proxy:"
    say "  sudo https_proxy=http://PROXY:PORT $0${ARGS[*]:+ ${ARGS[*]}}"
  else
    say "pip's own message is above; a network hiccup is the usual cause: try again"
  fi
  say "then run this again ($again): it keeps the data and the config"
  say "and picks up where it stopped. pip's whole output: $OPT/pip.log"
}

# Run pip for step $1 (words), its output shown and kept in $OPT/pip.log; on failure, say
# what failed and what to try after pip's own message, then stop.
run_pip() {
  local what=$1 log=$OPT/pip.log status=0
  shift
  printf '\n== %s: pip %s\n' "$(date -u +%FT%TZ)" "$*" >> "$log"
  "${PIP[@]}" "$@" 2>&1 | tee "$OPT/pip.step.log" || status=$?
  cat "$OPT/pip.step.log" >> "$log"
  if [[ $status -ne 0 ]]; then
    printf 'scorekeeper: error: installing %s failed (pip exited with %s)\n' "$what" "$status" >&2
    pip_advice "$OPT/pip.step.log" >&2
    exit 1
  fi
  rm -f "$OPT/pip.step.log"
}

install_package() {
  say "installing scorekeeper and its runtime dependencies into $VENV"
  if [[ $TRAINING -eq 1 ]]; then
    # The torch pair the Makefile pins for aarch64: a bare `torch` pulls a build that breaks.
    run_pip "torch and torchvision (--with-training)" install --quiet \
      --constraint "$OPT/constraints.txt" torch==2.9.1 torchvision==0.24.1
  fi
  run_pip "scorekeeper's dependencies" install --quiet --upgrade \
    --constraint "$OPT/constraints.txt" "$OPT/src"
  # Same version number on an upgrade: force the new code in, leave the dependencies be.
  run_pip "scorekeeper itself" install --quiet --no-deps --force-reinstall "$OPT/src"
  if [[ $TRAINING -eq 1 ]]; then
    # the lab beside the runtime: "Improve this deck" runs its deck-adapt
    run_pip "the lab's dependencies (--with-training)" install --quiet --upgrade \
      --constraint "$OPT/constraints.txt" "$OPT/src/lab"
    run_pip "the lab itself" install --quiet --no-deps --force-reinstall "$OPT/src/lab"
  fi
}

# NCNN runs the detector about twice as fast as ONNX Runtime on the Pi's cores; use it
# when the model ships NCNN files and the ncnn wheel installs and imports here.
choose_runtime() {
  RUNTIME=onnx
  local folder
  folder=$("$PYTHON" -c 'import json, sys; print(json.load(open(sys.argv[1]))["detector"]
    .get("ncnn", ""))' "$OPT/models/model.json" 2>/dev/null || true)
  if [[ -n $folder && -f $OPT/models/$folder/model.ncnn.param ]] \
      && "${PIP[@]}" install --quiet --constraint "$OPT/constraints.txt" ncnn \
      && "$VENV/bin/python" -c 'import ncnn' 2>/dev/null; then
    RUNTIME=ncnn
  fi
  say "model runtime: $RUNTIME"
}

write_config() {
  mkdir -p "$ETC"
  chmod 0755 "$ETC"
  if [[ -e $CONFIG ]]; then
    say "keeping your config $CONFIG"
    if ! grep -Eq "^[[:space:]]*runtime[[:space:]]*=[[:space:]]*\"$RUNTIME\"" "$CONFIG"; then
      say "note: the fastest runtime here is \"$RUNTIME\"; set runtime = \"$RUNTIME\" in [model]"
    fi
    if [[ -n $PORT ]]; then say "note: --port ignored: the port is set in $CONFIG"; fi
    return
  fi
  say "writing $CONFIG"
  {
    printf '# Written by deploy/install.sh on %s; it keeps your edits when run again.\n' \
      "$(date -u +%F)"
    sed -e "s|^port = .*|port = ${PORT:-8000}|" \
        -e "s|^runtime = .*|runtime = \"$RUNTIME\"|" \
        -e "s|^dir = .*|dir = \"$PREFIX/models\"|" \
        -e "s|^data_dir = .*|data_dir = \"$DATA\"|" \
        "$OPT/src/deploy/config.example.toml"
  } > "$CONFIG.new"
  chmod 0644 "$CONFIG.new"
  mv "$CONFIG.new" "$CONFIG"
}

configured_port() {
  local port
  port=$(sed -nE 's/^[[:space:]]*port[[:space:]]*=[[:space:]]*([0-9]+).*/\1/p' "${1:-$CONFIG}" \
    | head -n1)
  printf '%s\n' "${port:-8000}"
}

check_config() {
  if "$VENV/bin/python" -c 'import scorekeeper.config' 2>/dev/null; then
    "$VENV/bin/python" -m scorekeeper.config "$CONFIG" >/dev/null \
      || die "fix $CONFIG (the message above names the key), then run this again"
  fi
}

install_units() {
  mkdir -p "$ROOT/etc/systemd/system" "$ROOT/etc/avahi/services"
  sed "s|/opt/scorekeeper|$PREFIX|g" "$OPT/src/deploy/scorekeeper.service" \
    > "$ROOT/etc/systemd/system/scorekeeper.service"
  chmod 0644 "$ROOT/etc/systemd/system/scorekeeper.service"
  sed "s|<port>[0-9]*</port>|<port>$(configured_port)</port>|" \
    "$OPT/src/deploy/scorekeeper.avahi.service" > "$ROOT/etc/avahi/services/scorekeeper.service"
  chmod 0644 "$ROOT/etc/avahi/services/scorekeeper.service"
}

# The kernel's rate of new connections per address to port $1 (deploy/scorekeeper.nft):
# the rules with that port, and the unit that loads them.
install_rate_limit() {
  if [[ $RATE_LIMIT -eq 0 ]]; then
    remove_rate_limit
    return 0
  fi
  if [[ ! -f $OPT/src/deploy/scorekeeper.nft ]]; then
    say "note: no deploy/scorekeeper.nft in the source: no per-address connection limit"
    return 0
  fi
  mkdir -p "$ETC" "$ROOT/etc/systemd/system"
  sed "s|^define port = .*|define port = $1|" "$OPT/src/deploy/scorekeeper.nft" > "$RULES.new"
  chmod 0644 "$RULES.new"
  mv "$RULES.new" "$RULES"
  sed "s|/opt/scorekeeper|$PREFIX|g" "$OPT/src/deploy/scorekeeper-nft.service" > "$NFT_UNIT"
  chmod 0644 "$NFT_UNIT"
}

remove_rate_limit() {
  if [[ $SYSTEMD -eq 1 && -e $NFT_UNIT ]]; then
    systemctl disable --now --quiet scorekeeper-nft.service || true
  fi
  if [[ -e $RULES || -e $NFT_UNIT ]]; then say "removing the per-address connection limit"; fi
  rm -f "$RULES" "$NFT_UNIT"
}

# Load the rules now and at every boot. Without nft nothing is loaded and the server runs
# as before: a flood that re-opens its sockets then only delays a new phone's connection.
start_rate_limit() {
  [[ $RATE_LIMIT -eq 1 && -e $NFT_UNIT ]] || return 0
  if ! command -v nft >/dev/null; then
    say "note: nft is not installed, so no per-address connection limit is loaded"
    say "      (apt-get install nftables, then run this again)"
    return 0
  fi
  systemctl daemon-reload
  systemctl enable --quiet scorekeeper-nft.service
  if ! systemctl restart scorekeeper-nft.service; then
    say "warning: the per-address connection limit did not load (journalctl -u"
    say "         scorekeeper-nft): the server runs without it"
  fi
}

set_hostname() {
  [[ -n $NEW_HOSTNAME ]] || return 0
  say "setting the hostname to $NEW_HOSTNAME (the table answers at $NEW_HOSTNAME.local)"
  if [[ $FAKE -eq 0 ]] && command -v hostnamectl >/dev/null \
      && hostnamectl set-hostname "$NEW_HOSTNAME" 2>/dev/null; then
    :
  else
    printf '%s\n' "$NEW_HOSTNAME" > "$ROOT/etc/hostname"
    if [[ $FAKE -eq 0 ]]; then hostname "$NEW_HOSTNAME"; fi
  fi
  local hosts=$ROOT/etc/hosts
  if [[ -f $hosts ]] && grep -q '^127\.0\.1\.1' "$hosts"; then
    sed -i "s/^127\.0\.1\.1.*/127.0.1.1\t$NEW_HOSTNAME/" "$hosts"
  else
    printf '127.0.1.1\t%s\n' "$NEW_HOSTNAME" >> "$hosts"
  fi
}

# `scorekeeper` on root's PATH (sudo's secure_path has /usr/local/bin), for the commands
# the docs give: admin-link, db backup, read. Another program's file there is left alone.
link_command() {
  local bin=$ROOT/usr/local/bin/scorekeeper
  mkdir -p "$ROOT/usr/local/bin"
  if [[ -e $bin && ! -L $bin ]]; then
    say "note: $bin is not ours, so it is kept; the command is $PREFIX/venv/bin/scorekeeper"
    return 0
  fi
  ln -sfn "$PREFIX/venv/bin/scorekeeper" "$bin"
}

start_service() {
  start_rate_limit
  say "enabling and (re)starting scorekeeper.service"
  systemctl daemon-reload
  systemctl enable --quiet scorekeeper.service
  systemctl restart scorekeeper.service
  if systemctl list-unit-files avahi-daemon.service >/dev/null 2>&1; then
    systemctl enable --quiet --now avahi-daemon.service || true
    if [[ -n $NEW_HOSTNAME ]]; then systemctl restart avahi-daemon.service || true; fi
  fi
}

# --- The club server (--club-server, docs/club.md) ---

# Its settings, if absent: every interface, the port, its own data folder, the server on.
write_club_config() {
  if [[ -e $CLUB_CONFIG ]]; then
    say "keeping your club config $CLUB_CONFIG"
    return
  fi
  say "writing $CLUB_CONFIG"
  {
    printf '# The club server (docs/club.md). Written by deploy/install.sh --club-server on %s;\n' \
      "$(date -u +%F)"
    printf '# it keeps your edits when run again. Its database: SCOREKEEPER_DB in club.env.\n'
    printf 'host = "0.0.0.0"\nport = %s\ndata_dir = "%s"\n\n[club]\nserver = true\n' \
      "${PORT:-8000}" "$CLUB_DATA"
  } > "$CLUB_CONFIG.new"
  chmod 0644 "$CLUB_CONFIG.new"
  mv "$CLUB_CONFIG.new" "$CLUB_CONFIG"
}

# The database URL, which may carry a password: root's alone (systemd reads it before the
# service drops to its user). Written if absent, for PostgreSQL on this machine.
write_club_env() {
  if [[ -e $CLUB_ENV ]]; then
    say "keeping $CLUB_ENV (the club's database)"
    chmod 0600 "$CLUB_ENV"
    return
  fi
  say "writing $CLUB_ENV (PostgreSQL on this machine; another's URL goes here)"
  (umask 077 && printf '%s\n' \
    '# The club server'"'"'s database (docs/club.md, docs/postgresql.md); root'"'"'s only.' \
    'SCOREKEEPER_DB=postgresql:///scorekeeper' > "$CLUB_ENV")
}

# PostgreSQL's `scorekeeper` user and database, made when PostgreSQL runs here; the server
# makes its tables itself on first start.
make_club_database() {
  if ! command -v psql >/dev/null || ! getent passwd postgres >/dev/null; then
    say "PostgreSQL is not on this machine: put its URL in $CLUB_ENV (docs/postgresql.md)"
    return 0
  fi
  local pg=(runuser -u postgres --)
  if [[ -z $("${pg[@]}" psql -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$USER_NAME'" \
      2>/dev/null) ]]; then
    say "creating PostgreSQL's user $USER_NAME"
    "${pg[@]}" createuser "$USER_NAME" || say "warning: createuser failed (is PostgreSQL up?)"
  fi
  if [[ -z $("${pg[@]}" psql -tAc "SELECT 1 FROM pg_database WHERE datname = 'scorekeeper'" \
      2>/dev/null) ]]; then
    say "creating PostgreSQL's database scorekeeper"
    "${pg[@]}" createdb --owner="$USER_NAME" scorekeeper \
      || say "warning: createdb failed (is PostgreSQL up?)"
  fi
}

install_club() {
  mkdir -p "$ROOT$CLUB_DATA"
  chmod 0750 "$ROOT$CLUB_DATA"
  if [[ $FAKE -eq 0 ]]; then chown "$USER_NAME:$USER_NAME" "$ROOT$CLUB_DATA"; fi
  write_club_config
  write_club_env
  if "$VENV/bin/python" -c 'import scorekeeper.config' 2>/dev/null; then
    "$VENV/bin/python" -m scorekeeper.config "$CLUB_CONFIG" >/dev/null \
      || die "fix $CLUB_CONFIG (the message above names the key), then run this again"
  fi
  sed "s|/opt/scorekeeper|$PREFIX|g" "$OPT/src/deploy/scorekeeper-club.service" \
    > "$ROOT/etc/systemd/system/scorekeeper-club.service"
  chmod 0644 "$ROOT/etc/systemd/system/scorekeeper-club.service"
  if [[ $FAKE -eq 0 ]]; then make_club_database; fi
}

# The club's machine runs the club server, not a table (both would want the port).
start_club_service() {
  if systemctl is-enabled --quiet scorekeeper.service 2>/dev/null; then
    say "disabling the table's scorekeeper.service: this machine is the club server"
    systemctl disable --now --quiet scorekeeper.service || true
  fi
  start_rate_limit
  say "enabling and (re)starting scorekeeper-club.service"
  systemctl daemon-reload
  systemctl enable --quiet scorekeeper-club.service
  systemctl restart scorekeeper-club.service
}

main() {
  if [[ $APT -eq 1 ]]; then install_apt; fi
  if [[ $FAKE -eq 0 ]]; then make_user; fi
  mkdir -p "$OPT" "$VAR"
  chmod 0755 "$OPT"
  chmod 0750 "$VAR"
  if [[ $FAKE -eq 0 ]]; then chown -R "$USER_NAME:$USER_NAME" "$VAR"; fi
  copy_tree "$OPT/src"
  copy_models
  make_venv
  write_constraints
  install_package
  choose_runtime
  write_config
  check_config
  install_units
  link_command
  set_hostname
  local host=${NEW_HOSTNAME:-$(cat "$ROOT/etc/hostname" 2>/dev/null || hostname)}
  if [[ $CLUB_SERVER -eq 1 ]]; then
    install_club
    install_rate_limit "$(configured_port "$CLUB_CONFIG")"
    if [[ $SYSTEMD -eq 1 ]]; then start_club_service; fi
    local port
    port=$(configured_port "$CLUB_CONFIG")
    say "done: the club server. Its big screen: http://$host.local:$port/club"
    say "Add each table (it prints the table's token and what to do with it), with the"
    say "database URL of $CLUB_ENV:"
    say "  sudo -u $USER_NAME scorekeeper club add-table table-1 \\"
    say "    --db postgresql:///scorekeeper --url http://$host.local:$port"
    return
  fi
  install_rate_limit "$(configured_port)"
  if [[ $SYSTEMD -eq 1 ]]; then start_service; fi
  say "done. Open http://$host.local:$(configured_port)/ on a phone on this network."
  say "The admin link and its QR code (kept out of the journal): sudo scorekeeper admin-link"
}

main
