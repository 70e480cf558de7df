# Peer for categorical naive Bayes: scikit-learn CategoricalNB with Laplace smoothing (alpha=1) and
# every attribute's full domain (min_categories), so a value absent from the training rows is still
# smoothed over the same k values as ours. predict_proba over all C classes (a class absent from the
# training rows gets probability 0).
import numpy as np
from sklearn.naive_bayes import CategoricalNB


def categorical_nb(x_train, y_train, k):
    return CategoricalNB(alpha=1.0, min_categories=k).fit(x_train, y_train)


def posteriors(nb, x, n_classes):
    p = np.zeros((len(x), n_classes))
    p[:, nb.classes_] = nb.predict_proba(x)
    return p
