"""Peer for bench/structure.ts: BayesianNetwork.from_samples with pomegranate 0.14. Reads a CSV of
integer state codes (header = variable names) and an algorithm name ('greedy', 'chow-liu'; optional
max_parents), prints JSON: the seconds from_samples took and each column's parents (column indices),
or the error that stopped it. Its address space is capped at MEMORY_CAP: greedy search with the
default max_parents keeps every parent graph and grows by gigabytes on a shared machine.
Run with /usr/bin/python3 (Debian's python3-pomegranate)."""
import json
import resource
import sys
import time

import numpy
from pomegranate import BayesianNetwork

MEMORY_CAP = 8 << 30


def main():
    path, algorithm = sys.argv[1], sys.argv[2]
    max_parents = int(sys.argv[3]) if len(sys.argv) > 3 else -1
    X = numpy.loadtxt(path, delimiter=",", skiprows=1, dtype="int64")
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    t = time.perf_counter()
    try:
        model = BayesianNetwork.from_samples(X, algorithm=algorithm, max_parents=max_parents)
    except MemoryError:
        print(json.dumps({"error": f"out of memory ({MEMORY_CAP >> 30} GB cap) after {time.perf_counter() - t:.0f} s"}))
        return
    seconds = time.perf_counter() - t
    print(json.dumps({"seconds": seconds, "parents": [list(map(int, ps)) for ps in model.structure]}))


if __name__ == "__main__":
    main()
