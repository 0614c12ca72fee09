#!/usr/bin/env bash
# One GPU lease, run there in the foreground from the repo root (after vision/gpu/prepare.sh here),
# all of it inside one device call:
#   env END=540 T_RAND=150 T_MIX=200 CLS_FROM=cls31r.pt DET_FROM=det8r.pt bash .gpu/lease.sh
# Renders hand scenes on every core (randomised sets until T_RAND s after the start, then the other
# training styles until T_MIX s, then, with T_GLASS, every training style on glass tables until T_GLASS
# s: ghost tiles and things under the glass), with T_TURN every training style shot from any angle and
# roll until T_TURN s (hands whose rows run every way across the frame), cuts each chunk's crops and detector set in parallel,
# then fine-tunes the classifier and the detector side by side on the GPU until END s after the start.
# A copier puts the newest weights (optimiser state dropped, so each file stays under the tool's
# 16 MiB) and logs in $OUT every 20 s: a call stopped at its limit still brings them back.
# Env: END T_RAND T_MIX T_GLASS (empty: no glass chunks) CH (scenes per chunk) W (render workers)
#      T_TURN (empty: no turned chunks) CL (the share of every chunk's scenes with clutter; default 0) CK (its kinds, `datasets.synth --clutter-kinds`; default chrome,bag,paper) CW DW (the classifier's and the detector's loaders) CLS_LR DET_LR (their AdamW rates) DEVICE
#      SEED (the first scene seed; the next three too) CLS_SIZE (the classifier's crop side and input, px) CLS_FROM DET_FROM (in .gpu/weights; empty: that model is not trained) CLS_SCALE (with CLS_FROM empty: a classifier of this YOLO11 size, s or m, from random init) OUTD (work folder) OUT (what comes back).
set -u
END=${END:-540} T_RAND=${T_RAND:-150} T_MIX=${T_MIX:-200} T_GLASS=${T_GLASS:-} T_TURN=${T_TURN:-} CH=${CH:-250} W=${W:-16} DEVICE=${DEVICE:-0}
CW=${CW:-7} DW=${DW:-7} CLS_LR=${CLS_LR:-4e-4} DET_LR=${DET_LR:-5e-4} CLS_SIZE=${CLS_SIZE:-96} SEED=${SEED:-251} CLS_FROM=${CLS_FROM-cls31r.pt} CLS_SCALE=${CLS_SCALE:-} DET_FROM=${DET_FROM-det8r.pt} CL=${CL:-0} CK=${CK:-chrome,bag,paper}
S=$(date +%s); el() { echo $(( $(date +%s) - S )); }
OUTD=${OUTD:-/tmp/gpuw}; OUT=${OUT:-$OUTD/out}; mkdir -p "$OUTD" "$OUT"; LOG=$OUTD/driver.log
exec >>"$LOG" 2>&1
echo "start $(date)"; nproc; nvidia-smi -L || true
for wheel in .gpu/whl/*.whl; do  # one at a time: a wheel for another Python (a CPU dry run) is skipped
  python3 -m pip install -q --no-index --no-deps --no-compile --target "$OUTD/site" "$wheel" || echo "skipped $wheel"
done
mkdir -p "$OUTD/site/polars" && echo 'def read_csv(*a, **k): raise RuntimeError("no polars here")' > "$OUTD/site/polars/__init__.py"
[ -d "$OUTD/site/pillow_heif" ] || { mkdir -p "$OUTD/site/pillow_heif" && echo 'def register_heif_opener(): pass' > "$OUTD/site/pillow_heif/__init__.py"; }
export PYTHONPATH=$OUTD/site:$PWD YOLO_OFFLINE=1 MAHJONG_ART_DIR=$PWD/.gpu/art PYTHONUNBUFFERED=1
mkdir -p "$HOME/.fonts" && cp .gpu/fonts/* "$HOME/.fonts/"
python3 -c "import ultralytics, datasets.synth, vision.train; from datasets.randomized import installed_fonts; print('fonts', len(installed_fonts()))" || { echo FAIL import; exit 1; }

snapshot() {  # the newest weights without the optimiser, the results and the logs, into $OUT
  for run in cls det; do
    local weights=$OUTD/runs/$run/weights/last.pt
    if [ -f "$weights" ] && [ "$weights" -nt "$OUT/$run.pt" ]; then
      python3 -m vision.gpu.slim "$weights" "$OUT/$run.pt"
    fi
    [ -f "$OUTD/runs/$run/results.csv" ] && cp "$OUTD/runs/$run/results.csv" "$OUT/$run.csv"
    [ -f "$OUTD/$run.log" ] && tail -c 4000 "$OUTD/$run.log" | tr '\r' '\n' | grep -av '^ *$' | tail -30 > "$OUT/$run.log"
  done
  cp "$LOG" "$OUT/driver.log"
}
(while true; do sleep 20; snapshot; done) &
COPIER=$!
trap 'kill "$COPIER" 2>/dev/null' EXIT

# every training style but randomized; the held-out ones (unicode_symbola, xmahjongg_dorothys) stay out
MIX=procedural,procedural_bold,font_kai,font_ming,font_noto_serif,font_noto_sans,font_cwkai,kmahjongg_traditional,kmahjongg_default,kmahjongg_classic,kmahjongg_jade,gnome_smooth,gnome_postmodern,xmahjongg_real,mahjong_learner,xmahjongg_gnome2
chunks=()
gen() {  # name seed styles until [surface] [aim]: chunks of CH scenes, each in its own folder, one at least
  local k=0
  while [ "$k" -eq 0 ] || [ "$(el)" -lt "$4" ]; do
    python3 -m datasets.synth --out "$OUTD/$1_$k" --n "$CH" --start $((k * CH)) --seed "$2" --styles "$3" \
        ${5:+--surface "$5"} ${6:+--aim "$6"} --clutter "$CL" --clutter-kinds "$CK" --workers "$W" 2>"$OUTD/gen_$1_$k.err" | tail -1
    if [ -d "$OUTD/$1_$k/meta" ]; then chunks+=("$1_$k"); else echo "FAIL gen $1: $(tail -n 1 "$OUTD/gen_$1_$k.err")"; return; fi
    k=$((k + 1)); echo "gen $1 chunk $k at $(el) s"
  done
}
gen hr "$SEED" randomized "$T_RAND"
gen hm $((SEED + 1)) "$MIX" "$T_MIX"
if [ -n "$T_GLASS" ]; then gen hg $((SEED + 2)) "$MIX,randomized" "$T_GLASS" glass; fi
if [ -n "$T_TURN" ]; then gen ht $((SEED + 3)) "$MIX,randomized" "$T_TURN" "" any; fi
sources=()
for i in "${!chunks[@]}"; do
  c=${chunks[$i]}
  python3 -m vision.train data --scenes "$OUTD/$c" --out "$OUTD/d_$c" --seed $((260 + i)) --negatives-per-scene 3 --crop-size "$CLS_SIZE" > "$OUTD/data_$c.log" 2>&1 &
  sources+=("$OUTD/d_$c::10")  # every training image, 10 val images a chunk (the val pass is short)
done
wait_jobs() { for job in $(jobs -p); do [ "$job" = "$COPIER" ] || wait "$job"; done; }
wait_jobs; echo "data done at $(el) s"; tail -qn 1 "$OUTD"/data_*.log | head -4
python3 -m vision.train merge --out "$OUTD/mix" --from "${sources[@]}" --seed 269 || { echo FAIL merge; exit 1; }
hours=$(python3 -c "print(round(max(0.02, ($END - $(el) - 45) / 3600), 4))")
echo "training for $hours h from $(el) s"
if [ -n "$CLS_FROM" ] || [ -n "$CLS_SCALE" ]; then
  TRAIN_THREADS=4 python3 -m vision.train classifier --data "$OUTD/mix" --epochs 60 --imgsz "$CLS_SIZE" --batch 256 --name cls --project "$OUTD/runs" \
    ${CLS_FROM:+--weights ".gpu/weights/$CLS_FROM"} ${CLS_SCALE:+--scale "$CLS_SCALE"} --optimizer AdamW --lr0 "$CLS_LR" --warmup-epochs 0.2 --device "$DEVICE" --workers "$CW" \
    --hours "$hours" > "$OUTD/cls.log" 2>&1 &
fi
if [ -n "$DET_FROM" ]; then
  TRAIN_THREADS=4 python3 -m vision.train detector --data "$OUTD/mix" --epochs 60 --imgsz 512 --batch 32 --name det --project "$OUTD/runs" \
    --weights ".gpu/weights/$DET_FROM" --optimizer AdamW --lr0 "$DET_LR" --warmup-epochs 0.2 --device "$DEVICE" --workers "$DW" \
    --hours "$hours" > "$OUTD/det.log" 2>&1 &
fi
wait_jobs; echo "train done at $(el) s"
kill "$COPIER" 2>/dev/null; snapshot; echo DONE; cp "$LOG" "$OUT/driver.log"
