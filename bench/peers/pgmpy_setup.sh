#!/bin/sh
# pgmpy as a benchmark peer, without PyPI: its source from a local git mirror (no network here),
# release v0.1.23 (the last one whose imports do not need torch), checked out into .cache/pgmpy
# (gitignored, never committed). Its dependencies come from Debian:
#   apt-get install python3-numpy python3-scipy python3-pandas python3-networkx python3-sklearn \
#     python3-statsmodels python3-tqdm python3-joblib python3-pyparsing
# opt_einsum (pure Python, pgmpy's factor products; not in Debian) comes the same way from its own git
# (github.com/dgasmith/opt_einsum, v3.3.0) into the same folder.
# Usage: bench/peers/pgmpy_setup.sh PGMPY.git OPT_EINSUM.git   (bare clones or mirrors; nothing is downloaded here)
# bench/structure.ts and test/slow/structureAlarm.test.ts put .cache/pgmpy on PYTHONPATH when it exists
# and skip pgmpy with a message otherwise.
set -eu
MIRROR=${1:?usage: pgmpy_setup.sh PGMPY.git OPT_EINSUM.git}
EINSUM=${2:?usage: pgmpy_setup.sh PGMPY.git OPT_EINSUM.git}
TAG=${PGMPY_TAG:-v0.1.23}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEST="$ROOT/.cache/pgmpy"
rm -rf "$DEST"
mkdir -p "$DEST"
git --git-dir="$MIRROR" archive "$TAG" pgmpy | tar -x -C "$DEST"
git --git-dir="$EINSUM" archive "${OPT_EINSUM_TAG:-v3.3.0}" opt_einsum | tar -x -C "$DEST"
echo "pgmpy $TAG, opt_einsum ${OPT_EINSUM_TAG:-v3.3.0}" > "$DEST/VERSION"
PYTHONPATH="$DEST" /usr/bin/python3 -c 'import pgmpy.estimators as e; print("pgmpy", e.PC.__module__, "ok")'
