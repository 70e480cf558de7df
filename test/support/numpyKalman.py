"""An independent numpy oracle for linear Gaussian networks over time (test/unit/engine/dynamic/kalman.test.ts).

Reads JSON {n, initial, transition, observations: [[[v, x], ...] per step], predict, brute} on stdin.
- "kf": a textbook Kalman filter (explicit gain K = P Hᵀ S⁻¹ with H selecting the observed variables,
  covariance update (I − K H) P, solved with numpy.linalg) and RTS smoother (G = P Aᵀ (P⁻)⁻¹), with
  A, c, Q from (I − B)⁻¹ as matrices.
- "brute" (when asked): the unrolled network of slices 0…T+K as ONE joint Gaussian (mean and
  covariance through (I − B_unrolled)⁻¹), conditioned with the Schur complement on the observations
  up to t (filtering), on all of them (smoothing, prediction), its log density by the multivariate
  normal formula, and the most likely sequence as the maximiser of the joint density through the
  precision matrix (Λ_UU x_U = Λ_UU μ_U − Λ_UO (y − μ_O)).
"""
import json, sys
import numpy as np

d = json.load(sys.stdin)
n = d["n"]
obs = [dict((int(v), float(x)) for v, x in step) for step in d["observations"]]
T = len(obs)
K = d.get("predict", 0)


def slice_matrices(tables):
    B = np.zeros((n, n)); C = np.zeros((n, n)); b = np.zeros(n); D = np.zeros(n)
    for t in tables:
        i = t["child"]; b[i] = t["mean"]; D[i] = t["variance"]
        for p, w in zip(t["parents"], t["coefficients"]):
            if p < n: B[i, p] += w
            else: C[i, p - n] += w
    return B, C, b, D


B0, _, b0, D0 = slice_matrices(d["initial"])
B1, C1, b1, D1 = slice_matrices(d["transition"])
M0 = np.linalg.inv(np.eye(n) - B0); M1 = np.linalg.inv(np.eye(n) - B1)
mu0 = M0 @ b0; S0 = M0 @ np.diag(D0) @ M0.T
A = M1 @ C1; c = M1 @ b1; Q = M1 @ np.diag(D1) @ M1.T


def kf():
    m, P = mu0, S0
    ms, Ps, fm, fv = [m], [P], [], []
    ll = 0.0
    for y in obs:
        m = A @ m + c; P = A @ P @ A.T + Q
        if y:
            idx = sorted(y)
            H = np.zeros((len(idx), n)); H[np.arange(len(idx)), idx] = 1
            S = H @ P @ H.T
            r = np.array([y[i] for i in idx]) - H @ m
            Kg = np.linalg.solve(S, H @ P).T
            m = m + Kg @ r
            P = (np.eye(n) - Kg @ H) @ P
            P = 0.5 * (P + P.T)
            sign, logdet = np.linalg.slogdet(S)
            ll += -0.5 * (len(idx) * np.log(2 * np.pi) + logdet + r @ np.linalg.solve(S, r))
        ms.append(m); Ps.append(P)
        fm.append(m.tolist()); fv.append(np.diag(P).tolist())
    sm = [None] * (T + 1); sP = [None] * (T + 1)
    sm[T], sP[T] = ms[T], Ps[T]
    for t in range(T - 1, 0, -1):
        mp = A @ ms[t] + c; Pp = A @ Ps[t] @ A.T + Q
        G = np.linalg.solve(Pp, A @ Ps[t]).T
        sm[t] = ms[t] + G @ (sm[t + 1] - mp)
        sP[t] = Ps[t] + G @ (sP[t + 1] - Pp) @ G.T
    pm, pv = [], []
    m, P = ms[T], Ps[T]
    for _ in range(K):
        m = A @ m + c; P = A @ P @ A.T + Q
        pm.append(m.tolist()); pv.append(np.diag(P).tolist())
    return {
        "filteredMeans": fm, "filteredVariances": fv,
        "smoothedMeans": [sm[t].tolist() for t in range(1, T + 1)],
        "smoothedVariances": [np.diag(sP[t]).tolist() for t in range(1, T + 1)],
        "predictedMeans": pm, "predictedVariances": pv, "logLikelihood": ll,
    }


def brute():
    S = T + K + 1; N = S * n
    B = np.zeros((N, N)); b = np.zeros(N); D = np.zeros(N)
    for s in range(S):
        for t in (d["initial"] if s == 0 else d["transition"]):
            i = s * n + t["child"]; b[i] = t["mean"]; D[i] = t["variance"]
            for p, w in zip(t["parents"], t["coefficients"]):
                B[i, s * n + p if p < n else (s - 1) * n + p - n] += w
    M = np.linalg.inv(np.eye(N) - B)
    mu = M @ b; Sig = M @ np.diag(D) @ M.T

    def given(upto):
        O = [s * n + v for s in range(1, upto + 1) for v in sorted(obs[s - 1])]
        y = np.array([obs[s - 1][v] for s in range(1, upto + 1) for v in sorted(obs[s - 1])])
        if not O: return mu, Sig, O, y
        So = Sig[np.ix_(O, O)]; Sxo = Sig[:, O]
        W = np.linalg.solve(So, Sxo.T).T
        m = mu + W @ (y - mu[O]); P = Sig - W @ Sxo.T
        return m, P, O, y

    fm, fv = [], []
    for t in range(1, T + 1):
        m, P, _, _ = given(t)
        fm.append(m[t * n:(t + 1) * n].tolist()); fv.append(np.diag(P)[t * n:(t + 1) * n].tolist())
    m, P, O, y = given(T)
    sm = [m[t * n:(t + 1) * n].tolist() for t in range(1, T + 1)]
    sv = [np.diag(P)[t * n:(t + 1) * n].tolist() for t in range(1, T + 1)]
    pm = [m[t * n:(t + 1) * n].tolist() for t in range(T + 1, T + K + 1)]
    pv = [np.diag(P)[t * n:(t + 1) * n].tolist() for t in range(T + 1, T + K + 1)]
    ll = 0.0
    if O:
        So = Sig[np.ix_(O, O)]; r = y - mu[O]
        ll = -0.5 * (len(O) * np.log(2 * np.pi) + np.linalg.slogdet(So)[1] + r @ np.linalg.solve(So, r))
    # The mode of the joint density over the unobserved variables of slices 1…T (slice 0 and the
    # forecast slices are unobserved too and are maximised over with them).
    L = np.linalg.inv(Sig); Os = set(O); U = [i for i in range(N) if i not in Os]
    x = mu.copy()
    if O:
        rhs = L[np.ix_(U, U)] @ mu[U] - L[np.ix_(U, O)] @ (y - mu[O])
        x[U] = np.linalg.solve(L[np.ix_(U, U)], rhs); x[O] = y
    ml = [x[t * n:(t + 1) * n].tolist() for t in range(1, T + 1)]
    # ln p(x*_U, y) over slices 1…T: the unrolled joint's marginal of those slices at (mode, readings).
    idx = list(range(n, (T + 1) * n))
    Sm = Sig[np.ix_(idx, idx)]; r = x[idx] - mu[idx]
    mode_ld = -0.5 * (len(idx) * np.log(2 * np.pi) + np.linalg.slogdet(Sm)[1] + r @ np.linalg.solve(Sm, r))
    return {
        "filteredMeans": fm, "filteredVariances": fv, "smoothedMeans": sm, "smoothedVariances": sv,
        "predictedMeans": pm, "predictedVariances": pv, "logLikelihood": float(ll), "mostLikely": ml, "modeLogDensity": float(mode_ld),
    }


out = {"kf": kf()}
if d.get("brute"): out["brute"] = brute()
print(json.dumps(out))
