#!/usr/bin/env bash
# A detector trained further on a GPU machine on scenes rendered there, by
# scorekeeper_lab.analyses.train_detector: readable random scenes of the training designs (half of them
# printed in font decks) and tight fans, every corner a person can still read labelled.
# CLASSES=cards (default) trains a detector whose classes are the 53 cards and the card,
# from the shipped detector's weights (its head re-learnt); CLASSES=detector the shipped
# kind. What comes back in $OUT: cards-det.pt (export it to ONNX here, as
# the card-naming hand detector was (lab/RECORD.md), and name it in a model.json), results.csv, the log.
#   BUDGET=480 RENDER_S=100 bash lab/gpu/detector.sh
# A second call on the still-warm machine trains further on the same scenes (left in $W):
#   SKIP_INSTALL=1 SKIP_RENDER=1 INIT=PATH/cards-det.pt LR0=0.005 BUDGET=285 bash ...
# Training the shipped card-naming detector further, on scenes it has not seen:
#   CLASSES=cards INIT=models/cards-named.pt SEED=171 LR0=0.005 BUDGET=560 bash ...
# Wheels, art and fonts are carried in .gpu/ (lab/gpu/setup.sh). With them the tree is
# over the 64 MiB a device call takes: move the files the run does not read out of it for
# the call (models/*.onnx, the NCNN model, cards-cls.pt; INIT's .pt must stay).
set -euo pipefail
BUDGET=${BUDGET:-520}
RENDER_S=${RENDER_S:-150}
CLASSES=${CLASSES:-cards}
IMGSZ=${IMGSZ:-640}
BATCH=${BATCH:-64}
INIT=${INIT:-models/cards-det.pt}
LR0=${LR0:-0.01}
SEED=${SEED:-71}  # fresh scenes for a run that trains further: another seed
JOBS=${JOBS:-$(nproc)}
OUT=${OUT:-/tmp/gpu-out}
W=${W:-/tmp/gpu-work}
mkdir -p "$OUT" "$W"
t0=$SECONDS
say() { echo "[gpu $((SECONDS - t0))s] $*"; }
# shellcheck source=lab/gpu/setup.sh
source lab/gpu/setup.sh
say "set up"

SYNTH="python3 -m scorekeeper_lab.training.synth"
if [ -z "${SKIP_RENDER:-}" ]; then
  # validation: few scenes, scored once at the end of the time budget
  $SYNTH fans --out "$W/val" --count 60 --decks train --seed 61 2>/dev/null
  say "validation rendered"
  # the rest of RENDER_S: half the cores on random scenes, the other half one fan render each;
  # a scene cut off by the deadline has no labels and is left out
  half=$((JOBS / 2))
  timeout "$RENDER_S" $SYNTH render --out "$W/random" --count 40000 --size 640 --decks train \
    --seed "$SEED" --workers "$half" --font-decks 12 --readable 2>/dev/null &
  for k in $(seq 1 "$half"); do
    fonts=0; [ $((k % 2)) = 0 ] && fonts=12
    timeout "$RENDER_S" $SYNTH fans --out "$W/fans$k" --count 5000 --decks train \
      --seed $((SEED + 9 + k)) --font-decks $fonts 2>/dev/null &
  done
  wait || true
  pkill -f "scorekeeper_lab.training.synth" || true  # pool workers the deadline orphaned
  for d in "$W"/random "$W"/fans*; do echo "$d $(ls "$d/cards" | wc -l)"; done
  say "rendered"
fi
rm -rf "$W/det/runs"  # a fresh schedule from INIT

left=$((BUDGET - (SECONDS - t0) - 45))
MIN=$(python3 -c "print(round($left / 60, 2))")
say "detector gets $MIN min"
train() {
  python3 -m scorekeeper_lab.analyses.train_detector --out "$OUT/model" --work "$W/det" --classes "$CLASSES" \
    --scenes "$W"/random "$W"/fans* --val "$W/val" --readable --init "$INIT" \
    --minutes "$1" --imgsz "$IMGSZ" --batch "$BATCH" --optimizer SGD --lr0 "$LR0" --no-export \
    >>"$OUT/detector.log" 2>&1
}
if ! train "$MIN"; then  # most likely loader workers without shared memory: load in-process
  tail -c 3000 "$OUT/detector.log"
  export SCOREKEEPER_LOADER_WORKERS=0
  rm -rf "$W/det/runs"
  left=$((BUDGET - (SECONDS - t0) - 30))
  train "$(python3 -c "print(round($left / 60, 2))")" || say "detector failed"
fi
cp "$OUT/model/cards-det.pt" "$OUT/cards-det.pt" || true
cp "$W"/det/runs/*/results.csv "$OUT/results.csv" || true
rm -rf "$OUT/model"
tail -c 2500 "$OUT/detector.log"
say "done"
