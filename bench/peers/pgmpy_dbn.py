"""pgmpy's DBNInference (v0.1.23, the interface algorithm on its 1.5-slice junction tree) as the
peer of bench/dynamic.ts: reads a 2-slice network and observations as JSON on stdin (the form of
test/support/numpyForwardBackward.py: cards, initial and transition tables with parents < n in
the slice, >= n in the slice before, findings per step 1..T), builds the same network as a
DynamicBayesianNetwork and prints, as JSON, the filtered marginals of every variable at every step
(forward_inference), the smoothed ones (backward_inference) and the seconds of each call. Slice 0
is the prior (no findings), as in the engine; pgmpy's slice t is the engine's step t.
DBNInference needs every variable in an arc (it builds its slices from the arcs).
With the argument `unrolled`, the same tables unrolled into a BayesianNetwork of slices 0..T and
pgmpy's VariableElimination give the exact filtered and smoothed marginals instead (small T: a
check of the conversion and of DBNInference's answers).
Run with .cache/pgmpy on PYTHONPATH (bench/peers/pgmpy_setup.sh)."""
import json, sys, time
import numpy as np
from pgmpy.models import DynamicBayesianNetwork as DBN
from pgmpy.factors.discrete import TabularCPD
from pgmpy.inference import DBNInference, VariableElimination
from pgmpy.models import BayesianNetwork

d = json.load(sys.stdin)
cards = d["cards"]
n = len(cards)
name = lambda v: "V%d" % v


def node(p, t):
    # A table's parent p: this slice's X_p (p < n) or the slice before's X_{p-n}.
    return (name(p), t) if p < n else (name(p - n), t - 1)


def cpd(c, t):
    k = cards[c["child"]]
    parents = [node(p, t) for p in c["parents"]]
    rows = len(c["table"]) // k
    # The engine's layout: one row of k per parent configuration, the first parent slowest, as
    # TabularCPD's columns are: values[state][row].
    values = np.array(c["table"], dtype=float).reshape(rows, k).T
    ev = dict(evidence=parents, evidence_card=[cards[p % n] for p in c["parents"]]) if parents else {}
    return TabularCPD((name(c["child"]), t), k, values, **ev)


T = len(d["findings"])
evidence = {(name(v), t + 1): s for t, f in enumerate(d["findings"]) for v, s in f["evidence"]}
wanted = [(name(v), t) for t in range(1, T + 1) for v in range(n) if (name(v), t) not in evidence]


def table(result):
    out = []
    for t in range(1, T + 1):
        row = []
        for v in range(n):
            f = result.get((name(v), t))
            row.append(None if f is None else f.values.tolist())
        out.append(row)
    return out


def unrolled():
    cpds = [cpd(c, 0) for c in d["initial"]] + [cpd(c, t) for t in range(1, T + 1) for c in d["transition"]]
    bn = BayesianNetwork()
    bn.add_nodes_from([c.variable for c in cpds])
    bn.add_edges_from([(p, c.variable) for c in cpds for p in c.variables[1:]])
    bn.add_cpds(*cpds)
    ve = VariableElimination(bn)
    ask = lambda q, e: ve.query([q], evidence=e, show_progress=False)
    filtered = {q: ask(q, {k: s for k, s in evidence.items() if k[1] <= q[1]}) for q in wanted}
    smoothed = {q: ask(q, evidence) for q in wanted}
    print(json.dumps({"filtered": table(filtered), "smoothed": table(smoothed)}))
    sys.exit(0)


if sys.argv[1:] == ["unrolled"]:
    unrolled()

build = time.perf_counter()
dbn = DBN()
dbn.add_nodes_from([name(v) for v in range(n)])
edges = [(node(p, 1), (name(c["child"]), 1)) for c in d["transition"] for p in c["parents"]]
# pgmpy adds slice 0's copy of each arc inside slice 1, and asks for intra-slice arcs at slice 0.
dbn.add_edges_from([((a[0], 0), (b[0], 0)) if a[1] == 1 else (a, b) for a, b in edges])
dbn.add_cpds(*[cpd(c, 0) for c in d["initial"]], *[cpd(c, 1) for c in d["transition"]])
dbn.initialize_initial_state()
inference = DBNInference(dbn)
build = time.perf_counter() - build
# Said at once: when a run is stopped by the time limit, this line tells whether it compiled.
print("compiled in %.2f s" % build, file=sys.stderr, flush=True)

start = time.perf_counter()
filtered = inference.forward_inference(wanted, evidence or None)
forward = time.perf_counter() - start
start = time.perf_counter()
smoothed = inference.backward_inference(wanted, evidence or None)
backward = time.perf_counter() - start
print(
    json.dumps(
        {
            "seconds": {"build": build, "forward": forward, "backward": backward},
            "filtered": table(filtered),
            "smoothed": table(smoothed),
        }
    )
)
