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
#   pomegranate is imported on its first run, not at start: when it is missing or does not import
#   (an ImportError, or a build that fails against this numpy), {"run": "pomegranate"} answers
#   {"unavailable": "pomegranate missing (reason)"} and scikit-learn still runs.
# Each side's time covers, per part: selecting the training rows (x[train]), fit, and predict.
import json, sys, time, warnings
import numpy as np

warnings.filterwarnings('ignore')


def import_pomegranate():
    """pomegranate's classes, or the reason it cannot be used here."""
    try:
        from pomegranate import NaiveBayes, DiscreteDistribution
        return NaiveBayes, DiscreteDistribution
    except Exception as e:  # noqa: BLE001 - any failure to import means the peer is unavailable
        return f'pomegranate missing ({type(e).__name__}: {e})'


def run_sklearn(x, y, parts, k, n_classes):
    out = []
    for train, test in parts:
        out.append(categorical_nb(x[train], y[train], k).predict(x[test]))
    return np.concatenate(out)


def run_pomegranate(x, y, parts, k, n_classes):
    NaiveBayes, DiscreteDistribution = pomegranate
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
pomegranate = None  # its classes once imported, or why it cannot be
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
    if request['run'] == 'pomegranate':
        if pomegranate is None:
            pomegranate = import_pomegranate()
        if isinstance(pomegranate, str):
            print(json.dumps({'unavailable': pomegranate}), flush=True)
            continue
    t0 = time.perf_counter()
    predicted = peers[request['run']](*data)
    seconds = time.perf_counter() - t0
    print(json.dumps({'seconds': seconds, 'predicted': predicted.tolist()}), flush=True)
