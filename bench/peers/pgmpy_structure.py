"""pgmpy (v0.1.23, from .cache/pgmpy: bench/peers/pgmpy_setup.sh) on a CSV of state codes.

  python3 pgmpy_structure.py DATA.csv pc ALPHA   -> {"seconds", "edges": [[a, b], ...]} (skeleton, column indices)
  python3 pgmpy_structure.py DATA.csv hc         -> {"seconds", "parents": [[...], ...]} (BIC hill climbing)
Timed around the estimate call only (reading the CSV is not counted). PC: variant "stable",
ci_test "chi_square", one job (n_jobs=1; each side gets one core), no progress bar.
"""
import json
import sys
import time
import warnings

warnings.filterwarnings("ignore", category=FutureWarning)

import pandas as pd
from pgmpy.estimators import PC, BicScore, HillClimbSearch

path, what = sys.argv[1], sys.argv[2]
data = pd.read_csv(path).astype(str)
names = list(data.columns)
index = {n: i for i, n in enumerate(names)}
if what == "pc":
    alpha = float(sys.argv[3])
    t0 = time.perf_counter()
    skeleton, _ = PC(data).build_skeleton(ci_test="chi_square", significance_level=alpha, variant="stable",
                                          n_jobs=1, show_progress=False)
    seconds = time.perf_counter() - t0
    print(json.dumps({"seconds": seconds, "edges": sorted(sorted([index[a], index[b]]) for a, b in skeleton.edges())}))
else:
    t0 = time.perf_counter()
    dag = HillClimbSearch(data).estimate(scoring_method=BicScore(data), show_progress=False)
    seconds = time.perf_counter() - t0
    parents = [[] for _ in names]
    for a, b in dag.edges():
        parents[index[b]].append(index[a])
    print(json.dumps({"seconds": seconds, "parents": [sorted(p) for p in parents]}))
