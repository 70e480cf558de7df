"""An independent forward-backward over the joint state of a whole slice (numpy), the peer of
engine/dynamic: reads a 2-slice network and findings as JSON, prints the log-likelihood, the
filtered and smoothed marginals of every variable, and the Viterbi log-probability."""
import itertools, json, sys
import numpy as np

d = json.load(sys.stdin)
cards = d["cards"]
n = len(cards)
states = list(itertools.product(*[range(k) for k in cards]))
S = len(states)

def prob(cpt, cur, prev):
    row = 0
    for p in cpt["parents"]:
        row = row * cards[p % n] + (cur[p] if p < n else prev[p - n])
    return cpt["table"][row * cards[cpt["child"]] + cur[cpt["child"]]]

prior = np.array([np.prod([prob(c, x, None) for c in d["initial"]]) for x in states])
A = np.array([[np.prod([prob(c, x, y) for c in d["transition"]]) for x in states] for y in states])

def emission(f):
    e = np.ones(S)
    for i, x in enumerate(states):
        for v, s in f["evidence"]:
            if x[v] != s:
                e[i] = 0
        for v, lam in f.get("likelihoods", []):
            e[i] *= lam[x[v]]
    return e

E = [emission(f) for f in d["findings"]]
T = len(E)
alpha = np.zeros((T, S)); scale = np.zeros(T)
a = prior
for t in range(T):
    a = (a @ A) * E[t]; scale[t] = a.sum(); a = a / scale[t]; alpha[t] = a
beta = np.ones(S); smooth = np.zeros((T, S))
for t in range(T - 1, -1, -1):
    g = alpha[t] * beta; smooth[t] = g / g.sum()
    beta = A @ (E[t] * beta); beta = beta / beta.sum()

# Viterbi in logs (slice 0 maxed over, as the engine's most likely sequence includes it).
with np.errstate(divide="ignore"):
    lA = np.log(A); delta = np.log(prior)
    for t in range(T):
        delta = (delta[:, None] + lA).max(axis=0) + np.log(E[t])

def per_variable(joint):
    out = []
    for v in range(n):
        m = np.zeros(cards[v])
        for i, x in enumerate(states):
            m[x[v]] += joint[i]
        out.append(m.tolist())
    return out

print(json.dumps({
    "logLikelihood": float(np.log(scale).sum()),
    "filtered": [per_variable(alpha[t]) for t in range(T)],
    "smoothed": [per_variable(smooth[t]) for t in range(T)],
    "viterbi": float(delta.max()),
}))
