#!/usr/bin/env bash
# On the lent GPU: wait up to $1 s (less when lease.sh is DONE or FAILed), then copy the newest
# weights and metrics to $OUT. Every call must carry .gpu (a call that does not removes it there).
OUTD=${OUTD:-/tmp/gpuw}; end=$(( $(date +%s) + $1 ))
while [ $(date +%s) -lt $end ]; do
  grep -q "^DONE\|^FAIL" $OUTD/driver.log 2>/dev/null && break
  sleep 10
done
for r in ${CLS_NAME:-cls20} ${SECOND_NAME:-second9}; do
  [ -f $OUTD/runs/$r/weights/last.pt ] && cp $OUTD/runs/$r/weights/last.pt $OUT/$r.pt
  [ -f $OUTD/runs/$r/results.csv ] && cp $OUTD/runs/$r/results.csv $OUT/$r.csv
  [ -f $OUTD/$r.log ] && tail -c 3000 $OUTD/$r.log | tr '\r' '\n' | grep -v "^ *$" | tail -4 | cut -c1-160
done
cp $OUTD/driver.log $OUT/ 2>/dev/null; tail -25 $OUTD/driver.log
