"""Peer for bench/inference.ts: all posterior marginals with pgmpy (v0.1.23 from .cache/pgmpy, put
there by bench/peers/pgmpy_setup.sh; run with /usr/bin/python3 and PYTHONPATH=.cache/pgmpy).

  python3 pgmpy_marginals.py SPEC.json REPEATS ve|bp

Reads the network and evidence sets exported as JSON by the bench (bench/peers/exportNetwork.ts) and
prints JSON like bench/peers/pomegranate_marginals.py: build seconds and, per evidence set, the best
of REPEATS timings and the marginals of every variable (observed ones too, as 1/0), plus the peak
RSS of the process in MB (resource.getrusage ru_maxrss). Both methods are exact:
  ve: VariableElimination, one `query([v], evidence=..., show_progress=False)` per unobserved
      variable with pgmpy's default elimination_order ("greedy": the factors reduced by the
      evidence and contracted by opt_einsum's greedy path, after pgmpy prunes barren nodes).
      build = the BayesianNetwork with its TabularCPDs + VariableElimination (which checks the model).
  bp: BeliefPropagation, pgmpy's junction tree (Lauritzen-Spiegelhalter belief update). pgmpy's
      BeliefPropagation.query rebuilds the junction tree of the pruned model on every call, so the
      tree is calibrated once per evidence set instead: the evidence is entered as 0/1 indicator
      factors multiplied into a clique potential holding the variable, calibrate() runs once, and each
      marginal is its smallest calibrated clique belief summed out and normalized.
      build = the BayesianNetwork + BeliefPropagation (moralize, triangulate, junction tree, potentials).
Our table layout is row-major with the parents first (first parent slowest) and the child's state last;
pgmpy's TabularCPD wants values of shape (child card, product of parent cards) with the evidence
listed in the same order (first slowest), so values = table.reshape(rows, card).T.
"""
import json
import resource
import sys
import time
import warnings

warnings.filterwarnings("ignore")

import numpy as np
from pgmpy.factors.discrete import DiscreteFactor, TabularCPD
from pgmpy.inference import BeliefPropagation, VariableElimination
from pgmpy.models import BayesianNetwork


def build_network(spec):
    """The exported network as a pgmpy BayesianNetwork with named states."""
    variables = spec["variables"]
    names = [v["name"] for v in variables]
    model = BayesianNetwork()
    model.add_nodes_from(names)
    model.add_edges_from((names[p], names[v]) for v, cpt in enumerate(spec["cpts"]) for p in cpt["parents"])
    cpds = []
    for v in spec["order"]:
        var, cpt = variables[v], spec["cpts"][v]
        k = len(var["states"])
        parents = cpt["parents"]
        table = np.asarray(cpt["table"], dtype=float).reshape(-1, k).T
        state_names = {var["name"]: list(var["states"])}
        for p in parents:
            state_names[names[p]] = list(variables[p]["states"])
        cpds.append(
            TabularCPD(
                var["name"],
                k,
                table,
                evidence=[names[p] for p in parents] or None,
                evidence_card=[len(variables[p]["states"]) for p in parents] or None,
                state_names=state_names,
            )
        )
    model.add_cpds(*cpds)
    return model


def ve_marginals(engine, spec, evidence):
    """One VariableElimination query per unobserved variable."""
    out = {}
    for var in spec["variables"]:
        name = var["name"]
        if name in evidence:
            continue
        phi = engine.query([name], evidence=evidence, show_progress=False)
        out[name] = {s: float(phi.get_value(**{name: s})) for s in var["states"]}
    return out


def bp_marginals(engine, spec, evidence):
    """Evidence as indicator factors in the junction tree, one calibration, every marginal from a clique belief."""
    jt = engine.junction_tree
    cliques = sorted(jt.nodes(), key=len)
    home = {}
    for clique in cliques:
        for name in clique:
            home.setdefault(name, clique)
    states = {v["name"]: v["states"] for v in spec["variables"]}
    saved = {}
    for name, state in evidence.items():
        clique = home[name]
        factor = jt.get_factors(clique)
        saved.setdefault(clique, factor.copy())
        indicator = np.array([1.0 if s == state else 0.0 for s in states[name]])
        factor.product(
            DiscreteFactor([name], [len(indicator)], indicator, state_names={name: list(states[name])}), inplace=True
        )
    engine.clique_beliefs, engine.sepset_beliefs = {}, {}
    engine.calibrate()
    out = {}
    for name, clique in home.items():
        if name in evidence:
            continue
        belief = engine.clique_beliefs[clique].marginalize([n for n in clique if n != name], inplace=False)
        belief.normalize()
        out[name] = {s: float(p) for s, p in zip(states[name], belief.values)}  # state numbers in our order
    for clique, factor in saved.items():  # the next evidence set starts from the CPDs' potentials again
        current = jt.get_factors(clique)
        current.values = factor.values
    return out


def main():
    spec = json.load(open(sys.argv[1]))
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    method = sys.argv[3] if len(sys.argv) > 3 else "ve"
    t0 = time.perf_counter()
    model = build_network(spec)
    engine = VariableElimination(model) if method == "ve" else BeliefPropagation(model)
    build_s = time.perf_counter() - t0
    answer = ve_marginals if method == "ve" else bp_marginals
    out = {"method": method, "build_s": build_s, "cases": []}
    for evidence in spec["evidence_sets"]:
        best, marginals = float("inf"), None
        for _ in range(repeats):
            t = time.perf_counter()
            marginals = answer(engine, spec, evidence)
            best = min(best, time.perf_counter() - t)
        for name, state in evidence.items():
            marginals[name] = {s: 1.0 if s == state else 0.0 for s in states_of(spec, name)}
        out["cases"].append({"seconds": best, "marginals": marginals})
    out["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    json.dump(out, sys.stdout)


def states_of(spec, name):
    return next(v["states"] for v in spec["variables"] if v["name"] == name)


if __name__ == "__main__":  # pgmpy_predict.py imports build_network
    main()
