"""Peer for bench/predict.ts: pomegranate 0.14's BayesianNetwork.predict_proba (loopy belief
propagation) on the first `limit` rows of a case file, the target column hidden. Reads the network
exported as JSON by the bench (built as pomegranate_marginals.py builds it), prints JSON: build and
predict seconds, rows, the target's P(state) for each row, and the process's peak RSS in MB.
Run with /usr/bin/python3 (Debian's python3-pomegranate)."""
import csv
import json
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pomegranate_marginals import build  # noqa: E402


def main():
    spec = json.load(open(sys.argv[1]))
    rows_file, target, limit = sys.argv[2], sys.argv[3], int(sys.argv[4])
    t0 = time.perf_counter()
    model = build(spec)
    build_s = time.perf_counter() - t0
    names = [s.name for s in model.states]
    with open(rows_file) as f:
        reader = csv.reader(f)
        header = next(reader)
        column = {name: header.index(name) for name in names if name in header}
        X = []
        for i, row in enumerate(reader):
            if i >= limit:
                break
            X.append([None if name == target or name not in column or row[column[name]] in ("?", "")
                      else row[column[name]] for name in names])
    t = time.perf_counter()
    result = model.predict_proba(X)
    predict_s = time.perf_counter() - t
    at = names.index(target)
    states = spec["variables"][[v["name"] for v in spec["variables"]].index(target)]["states"]
    probabilities = [[float(r[at].parameters[0][s]) for s in states] for r in result]
    json.dump({"build_s": build_s, "predict_s": predict_s, "rows": len(X), "probabilities": probabilities,
               "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}, sys.stdout)


if __name__ == "__main__":
    main()
