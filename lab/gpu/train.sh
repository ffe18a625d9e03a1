#!/usr/bin/env bash
# `make model`'s GPU plan on a GPU machine that has no package access (see models/README.md).
# Wheels, art and fonts are carried in .gpu/ (lab/gpu/setup.sh says what each is).
# INIT=models: a warm start from the shipped networks (the classifier keeps their width).
# DET_ARGS: more plan flags for the detector stage only, e.g. DET_ARGS="--imgsz 640" (the
# next run lab/RECORD.md proposes: small indices learnt at their size).
# Everything is fitted to BUDGET seconds: a smoke run first (fails in seconds, not minutes),
# then as many scenes as RENDER_S allows, then the classifier and the detector side by side,
# the detector on ultralytics' time budget. Outputs land in $OUT.
set -euo pipefail
BUDGET=${BUDGET:-540}
RENDER_S=${RENDER_S:-110}
FIRST=${FIRST:-1000}  # scenes rendered to measure the rate
OUT=${OUT:-/tmp/gpu-out}
mkdir -p "$OUT"
t0=$SECONDS
say() { echo "[gpu $((SECONDS - t0))s] $*"; }
# shellcheck source=lab/gpu/setup.sh
source lab/gpu/setup.sh
say "art and fonts unpacked"

TRAIN="python3 -m scorekeeper_lab.training.train --plan gpu --skip-art --no-eval"
say "smoke run"
$TRAIN --work /tmp/smoke --models /tmp/smoke/models --stages classifier --train-images 24 \
  --val-images 8 --cls-epochs 1 >"$OUT/smoke.log" 2>&1
smoke_detector() {
  $TRAIN --work /tmp/smoke --models /tmp/smoke/models --stages detector --train-images 24 \
    --val-images 8 --minutes 0.3 --epochs 3 --batch 8 >>"$OUT/smoke.log" 2>&1
}
if ! smoke_detector; then  # most likely loader workers without shared memory: load in-process
  tail -c 2000 "$OUT/smoke.log"
  export SCOREKEEPER_LOADER_WORKERS=0
  rm -rf /tmp/smoke/runs
  smoke_detector
fi
say "smoke ok"

WORK=${WORK:-data/model-work}
python3 - "$RENDER_S" "$WORK" "$FIRST" <<'PY'
import sys, time
from pathlib import Path
from scorekeeper_lab.training.train import PLANS, render
budget, work, first = float(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
plan = PLANS["gpu"]
start = time.time()
render("val", work / "val", plan.val_images, plan.size, plan.seed + 1)
had = len(list((work / "train" / "cards").glob("*.json")))
t = time.time()
render("train", work / "train", first, plan.size, plan.seed, font_decks=plan.font_decks)
rate = max(0, first - had) / (time.time() - t) if first > had else 10.0
count = int(min(20000, first + rate * max(0.0, budget - (time.time() - start))))
render("train", work / "train", count, plan.size, plan.seed, font_decks=plan.font_decks)
(work / "train_count").write_text(str(count))
print(f"rendered {count} train scenes at {rate:.0f}/s", file=sys.stderr)
PY
N=$(cat $WORK/train_count)
say "rendered $N"
left=$((BUDGET - (SECONDS - t0) - 75))
MIN=$(python3 -c "print(round($left / 60, 2))")
say "detector gets $MIN min"
# a models folder of its own: the repo's committed classifier must not count as trained
RUN="$TRAIN --work $WORK --models $WORK/models --train-images $N"
WARM=""
if [ -n "${INIT:-}" ]; then
  WARM="--init $INIT ${WARM_CLS:---cls-batch 256 --cls-lr 0.01}"
fi
$RUN $WARM --stages classifier >"$OUT/classifier.log" 2>&1 &
cls=$!
# shellcheck disable=SC2086  # DET_ARGS is a list of flags
$RUN $WARM ${DET_ARGS:-} --stages detector --minutes "$MIN" >"$OUT/detector.log" 2>&1 ||
  say "detector failed"
wait $cls || say "classifier failed"
say "trained"
cp $WORK/runs/detector/weights/best.pt "$OUT/cards-det.pt" || true
cp $WORK/runs/detector/results.csv "$OUT/results.csv" || true
cp $WORK/models/cards-cls.pt $WORK/models/cards-cls.json $WORK/models/cards-cls.onnx "$OUT/" || true
tail -c 3000 "$OUT/detector.log"; tail -c 1500 "$OUT/classifier.log"
say "done"
