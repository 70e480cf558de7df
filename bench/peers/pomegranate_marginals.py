"""Peer for bench/inference.ts: all posterior marginals with pomegranate 0.14 (loopy belief
propagation in BayesianNetwork.predict_proba). Reads the network and evidence sets exported as
JSON by the bench, prints JSON: build/bake seconds and, per evidence set, the best of `repeats`
predict_proba timings and the marginals, and the process's peak RSS in MB (maxrss_mb). Run with
/usr/bin/python3 (Debian's python3-pomegranate)."""
import itertools
import json
import resource
import sys
import time

from pomegranate import BayesianNetwork, ConditionalProbabilityTable, DiscreteDistribution, State


def build(spec):
    variables = spec["variables"]
    dists, states = {}, {}
    for v in spec["order"]:
        var, cpt = variables[v], spec["cpts"][v]
        k = len(var["states"])
        if not cpt["parents"]:
            dist = DiscreteDistribution({s: cpt["table"][x] for x, s in enumerate(var["states"])})
        else:
            rows = []
            parent_states = [variables[p]["states"] for p in cpt["parents"]]
            for r, assignment in enumerate(itertools.product(*parent_states)):
                for x, s in enumerate(var["states"]):
                    rows.append(list(assignment) + [s, cpt["table"][r * k + x]])
            dist = ConditionalProbabilityTable(rows, [dists[p] for p in cpt["parents"]])
        dists[v] = dist
        states[v] = State(dist, name=var["name"])
    model = BayesianNetwork(spec["name"])
    model.add_states(*[states[v] for v in spec["order"]])
    for v in spec["order"]:
        for p in spec["cpts"][v]["parents"]:
            model.add_edge(states[p], states[v])
    model.bake()
    return model


def main():
    spec = json.load(open(sys.argv[1]))
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    t0 = time.perf_counter()
    model = build(spec)
    build_s = time.perf_counter() - t0
    names = [s.name for s in model.states]
    out = {"build_s": build_s, "cases": []}
    for evidence in spec["evidence_sets"]:
        best, result = float("inf"), None
        for _ in range(repeats):
            t = time.perf_counter()
            result = model.predict_proba(evidence)
            best = min(best, time.perf_counter() - t)
        marginals = {}
        for name, r in zip(names, result):
            if hasattr(r, "parameters"):
                marginals[name] = {str(k): float(p) for k, p in r.parameters[0].items()}
            else:
                marginals[name] = {str(r): 1.0}
        out["cases"].append({"seconds": best, "marginals": marginals})
    out["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
