#!/usr/bin/env bash
# Serve the frozen first release, the yardstick of every strength claim, from its own
# checkout and virtual environment (never the working tree), on a fresh machine too:
#
#   bench/baseline.sh                      # v0.1.0 on 127.0.0.1:50061
#   TAG=v0.1.0 PORT=50061 SEARCHES=2 bench/baseline.sh
#   TAG=$(git rev-parse --short HEAD) PORT=50078 bench/baseline.sh --heuristic-weights "$PWD/fit.json"
#
# then enter it in a tournament as a remote bot at equal time per move, e.g.
#   regent tournament --game royal-cities --players 2 --sprt 0 50 --games 2000 --seed 1 \
#     --bot new=mo-ismcts:seconds=0.25,threads=1 \
#     --bot base=grpc://127.0.0.1:50061?bot=mo-ismcts\&seconds=0.25\&threads=1
set -euo pipefail
TAG=${TAG:-v0.1.0}
PORT=${PORT:-50061}
SEARCHES=${SEARCHES:-2}
ROOT=${BASELINE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/regent-baseline}/$TAG
REPO=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
# The first release is commit 41f6754; a clone that came without its tag gets it back.
if [ "$TAG" = v0.1.0 ] && ! git -C "$REPO" rev-parse -q --verify "refs/tags/v0.1.0" >/dev/null; then
    git -C "$REPO" tag v0.1.0 41f6754
fi

if [ ! -d "$ROOT/src" ]; then
    mkdir -p "$ROOT"
    git -C "$REPO" archive --format=tar --prefix=src/ "$TAG" | tar -x -C "$ROOT"
fi
if [ ! -x "$ROOT/venv/bin/regent" ]; then
    python3 -m venv "$ROOT/venv"
    "$ROOT/venv/bin/pip" install --quiet --upgrade pip
    "$ROOT/venv/bin/pip" install --quiet "$ROOT/src"
fi
cd "$ROOT"
exec "$ROOT/venv/bin/regent" serve --address "127.0.0.1:$PORT" --no-web \
    --max-searches "$SEARCHES" --max-seconds 60 "$@"
