#!/bin/sh
# The timing tests (pytest -m timing) on a busy machine: two CPU hogs run beside them, as on
# a loaded CI host, for ROUNDS rounds (3 by default); the hogs end with the script.
#   tests/busy.sh [ROUNDS] [PYTEST ARGS...]      e.g. tests/busy.sh 1 -m 'timing and not slow'
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-3}
[ $# -gt 0 ] && shift
hogs=""
for _ in 1 2; do
    # timeout: a hog outlives no killed script by more than half an hour.
    timeout 1800 sh -c 'while :; do :; done' &
    hogs="$hogs $!"
done
# shellcheck disable=SC2086 # one pid a word
trap 'kill $hogs 2>/dev/null || true' EXIT INT TERM
status=0
round=1
while [ "$round" -le "$rounds" ]; do
    echo "== busy round $round of $rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
    python -m pytest -m timing -p no:cacheprovider -q "$@" || status=1
    round=$((round + 1))
done
exit "$status"
