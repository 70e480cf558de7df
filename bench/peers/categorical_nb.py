# Peers for bench/nb.ts: scikit-learn CategoricalNB and pomegranate 0.14.8 NaiveBayes, in one
# long-lived process so their runs alternate with ours. Line protocol (JSON per line):
#   {"load": {"x": file, "y": file, "m": attributes, "k": [...], "C": classes, "parts": [{"train", "test"}]}}
#       X and y are raw little-endian int32 files (rows × m and rows); answers {"rows": n}.
#   {"run": "sklearn" | "pomegranate"}: trains and predicts on every part; answers
#       {"seconds": train + predict, all parts, "predicted": the test rows' classes, parts in order}.
# sklearn: CategoricalNB(alpha=1, min_categories=k) (the helper the unit test uses).
# pomegranate: NaiveBayes.from_samples(DiscreteDistribution, X, y, pseudocount=0): maximum
#   likelihood. In 0.14.8 a pseudocount smooths the class prior only (bayes.pyx passes it to a
#   component only when that component is itself a DiscreteDistribution, and here each class is an
#   IndependentComponentsDistribution), so Laplace cannot be asked of it; we compare with our
#   unsmoothed model. A row with probability 0 under every class is reported as -1.
#   When pomegranate is not installed, {"run": "pomegranate"} answers {"unavailable": reason} and
#   scikit-learn still runs.
import json, sys, time, warnings
import numpy as np
try:
    from pomegranate import NaiveBayes, DiscreteDistribution
    pomegranate_missing = None
except ImportError as e:
    pomegranate_missing = f'pomegranate is not installed ({e})'

warnings.filterwarnings('ignore')


def run_sklearn(x, y, parts, k, n_classes):
    out = []
    for train, test in parts:
        out.append(categorical_nb(x[train], y[train], k).predict(x[test]))
    return np.concatenate(out)


def run_pomegranate(x, y, parts, k, n_classes):
    out = []
    for train, test in parts:
        model = NaiveBayes.from_samples(DiscreteDistribution, x[train], y[train], pseudocount=0)
        log_p = model.predict_log_proba(x[test])
        predicted = np.argmax(np.nan_to_num(log_p, nan=-np.inf), axis=1)
        predicted[~np.isfinite(log_p).any(axis=1)] = -1
        out.append(predicted)
    return np.concatenate(out)


peers = {'sklearn': run_sklearn, 'pomegranate': run_pomegranate}
data = None
print('ready', flush=True)
for line in sys.stdin:
    request = json.loads(line)
    if 'load' in request:
        d = request['load']
        y = np.fromfile(d['y'], dtype='<i4')
        x = np.fromfile(d['x'], dtype='<i4').reshape(len(y), d['m'])
        parts = [(np.array(p['train']), np.array(p['test'])) for p in d['parts']]
        data = (x, y, parts, d['k'], d['C'])
        print(json.dumps({'rows': len(y)}), flush=True)
        continue
    if request['run'] == 'pomegranate' and pomegranate_missing:
        print(json.dumps({'unavailable': pomegranate_missing}), flush=True)
        continue
    t0 = time.perf_counter()
    predicted = peers[request['run']](*data)
    seconds = time.perf_counter() - t0
    print(json.dumps({'seconds': seconds, 'predicted': predicted.tolist()}), flush=True)
