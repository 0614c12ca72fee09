#!/usr/bin/env bash
# One GPU lease (run there from the repo root, detached, after vision/gpu/prepare.sh here):
#   setsid nohup env T_RAND=300 T_MIX=390 T_BONUS=560 CH=1000 W=16 HOURS=0.18 DEVICE=0 \
#       bash .gpu/lease.sh >/dev/null 2>&1 </dev/null &
# renders hands scenes (randomised, then the other training styles) and close-ups of flowers and
# seasons on every core until each phase's deadline, cuts the crops, then fine-tunes the classifier
# and the second look side by side on the GPU for HOURS each. Later calls: `bash .gpu/poll.sh 570`.
# Env: T_RAND T_MIX T_BONUS (seconds after the start at which each rendering phase stops), HOURS,
#      DEVICE, W (render workers), CH (scenes per chunk), OUTD (work folder), CLS_FROM / SECOND_FROM
#      (checkpoints in .gpu/weights), CLS_NAME / SECOND_NAME (run names).
set -u
CLS_FROM=${CLS_FROM:-cls19.pt} SECOND_FROM=${SECOND_FROM:-second7.pt}
CLS_NAME=${CLS_NAME:-cls20} SECOND_NAME=${SECOND_NAME:-second9}
S=$(date +%s); el() { echo $(( $(date +%s) - S )); }
OUTD=${OUTD:-/tmp/gpuw}; mkdir -p $OUTD; LOG=$OUTD/driver.log
exec >>$LOG 2>&1
echo "start $(date)"; nproc; nvidia-smi -L || true
python3 -m pip install -q --no-index --no-deps --no-compile --target $OUTD/site .gpu/whl/*.whl || { echo FAIL pip; exit 1; }
mkdir -p $OUTD/site/polars && echo 'def read_csv(*a, **k): raise RuntimeError("no polars here")' > $OUTD/site/polars/__init__.py
export PYTHONPATH=$OUTD/site:$PWD YOLO_OFFLINE=1 MAHJONG_ART_DIR=$PWD/.gpu/art PYTHONUNBUFFERED=1
mkdir -p $HOME/.fonts && cp .gpu/fonts/* $HOME/.fonts/
python3 -c "import ultralytics, datasets.synth, vision.train; from datasets.randomized import installed_fonts; print('fonts', len(installed_fonts()))" || { echo FAIL import; exit 1; }
# every training style but randomized; the held-out ones (unicode_symbola, xmahjongg_dorothys) stay out
MIX=procedural,procedural_bold,font_kai,font_ming,font_noto_serif,font_noto_sans,kmahjongg_traditional,kmahjongg_default,kmahjongg_classic,kmahjongg_jade,gnome_smooth,gnome_postmodern,xmahjongg_real,mahjong_learner
gen() {  # dir seed styles until [focus]
  local k=0
  while [ $(el) -lt $4 ]; do
    python3 -m datasets.synth --out $1 --n $CH --start $((k*CH)) --seed $2 --styles $3 ${5:+--focus $5} --workers $W 2>/dev/null | tail -1
    k=$((k+1)); echo "gen $1 chunk $k at $(el) s"
  done
}
gen $OUTD/hr 31 randomized $T_RAND
gen $OUTD/hm 32 $MIX $T_MIX
gen $OUTD/bo 33 randomized $T_BONUS bonus
for d in hr hm bo; do echo "$d $(ls $OUTD/$d/meta | wc -l) scenes"; done
python3 -m vision.train data --scenes $OUTD/hr --out $OUTD/dhr --seed 51 --negatives-per-scene 3 > $OUTD/data_hr.log 2>&1 &
python3 -m vision.train data --scenes $OUTD/hm --out $OUTD/dhm --seed 52 --negatives-per-scene 3 > $OUTD/data_hm.log 2>&1 &
python3 -m vision.train second-look-data --scenes $OUTD/bo --out $OUTD/dbo --size 160 --min-side 60 --seed 53 > $OUTD/data_bo.log 2>&1 &
wait; echo "data done at $(el) s"; for f in $OUTD/data_*.log; do tail -n 2 $f; done
python3 -m vision.train merge --out $OUTD/cls --from $OUTD/dhr $OUTD/dhm --seed 54 || { echo FAIL merge; exit 1; }
for d in cls dbo; do echo "$d train $(find $OUTD/$d/classifier/train -type f -o -type l | wc -l) val $(find $OUTD/$d/classifier/val -type f -o -type l | wc -l)"; done
python3 -m vision.train classifier --data $OUTD/cls --epochs 30 --batch 256 --name $CLS_NAME --project $OUTD/runs \
  --weights .gpu/weights/$CLS_FROM --optimizer AdamW --lr0 4e-4 --warmup-epochs 0.2 --device $DEVICE --workers 9 --hours $HOURS > $OUTD/$CLS_NAME.log 2>&1 &
python3 -m vision.train classifier --data $OUTD/dbo --epochs 30 --imgsz 160 --batch 128 --name $SECOND_NAME --project $OUTD/runs \
  --weights .gpu/weights/$SECOND_FROM --optimizer AdamW --lr0 4e-4 --warmup-epochs 0.2 --crop-cut 0.05 --device $DEVICE --workers 6 --hours $HOURS > $OUTD/$SECOND_NAME.log 2>&1 &
wait; echo "train done at $(el) s"; echo DONE
