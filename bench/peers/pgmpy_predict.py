"""Peer for bench/predict.ts: pgmpy v0.1.23's BayesianNetwork.predict on the first `limit` rows of a
case file (run with /usr/bin/python3 and PYTHONPATH=.cache/pgmpy; see bench/peers/pgmpy_setup.sh).

  python3 pgmpy_predict.py SPEC.json ROWS.csv TARGET LIMIT

pgmpy's predict takes a DataFrame whose absent columns are the variables to predict; a cell
cannot be missing (NaN evidence is refused). Our rows hide cells at random, so the rows are grouped
by the set of columns observed and predict is called once per group (n_jobs=1: one core, as ours)
with the group's observed columns. It answers the most probable joint state of every variable not
observed (VariableElimination.map_query over them), of which the target's value is kept: on a row
with hidden cells that can differ from the target's own most probable value, which bayes predict
gives (the bench prints how often they agree). Prints JSON: build and predict seconds, rows,
groups, the target's predicted state per row, and the peak RSS in MB.
"""
import csv
import json
import os
import resource
import sys
import time
import warnings

warnings.filterwarnings("ignore")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pandas as pd  # noqa: E402
from pgmpy_marginals import build_network  # noqa: E402


def main():
    spec = json.load(open(sys.argv[1]))
    rows_file, target, limit = sys.argv[2], sys.argv[3], int(sys.argv[4])
    t0 = time.perf_counter()
    model = build_network(spec)
    build_s = time.perf_counter() - t0
    with open(rows_file) as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [row for _, row in zip(range(limit), reader)]
    evidence = [name for name in header if name != target]
    groups = {}
    for i, row in enumerate(rows):
        seen = tuple(c for c, name in enumerate(header) if name != target and row[c] not in ("?", ""))
        groups.setdefault(seen, []).append(i)
    predicted = [None] * len(rows)
    t = time.perf_counter()
    for seen, members in groups.items():
        frame = pd.DataFrame([[rows[i][c] for c in seen] for i in members], columns=[header[c] for c in seen])
        result = model.predict(frame, n_jobs=1)
        for i, state in zip(members, result[target].tolist()):
            predicted[i] = state
    predict_s = time.perf_counter() - t
    json.dump({"build_s": build_s, "predict_s": predict_s, "rows": len(rows), "groups": len(groups),
               "evidence_columns": len(evidence), "predicted": predicted,
               "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}, sys.stdout)


if __name__ == "__main__":
    main()
