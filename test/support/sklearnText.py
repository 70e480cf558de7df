# Peer pipeline for text naive Bayes: scikit-learn CountVectorizer (default tokenisation) and
# MultinomialNB(alpha=1), with the vocabulary pruned as Mitchell §6.10 does (drop the most frequent
# words, ties alphabetical, and those seen fewer than min_count times in the training texts).
import numpy as np
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.naive_bayes import MultinomialNB


def fit_predict(train_docs, train_labels, test_docs, drop_most_frequent, min_count):
    cv = CountVectorizer()
    x_train = cv.fit_transform(train_docs)
    totals = np.asarray(x_train.sum(axis=0)).ravel()
    names = cv.get_feature_names_out()
    order = np.lexsort((names, -totals))
    keep = totals >= min_count
    keep[order[:drop_most_frequent]] = False
    columns = np.flatnonzero(keep)
    nb = MultinomialNB(alpha=1.0).fit(x_train[:, columns], train_labels)
    x_test = cv.transform(test_docs)[:, columns]
    return nb, x_test, names[columns]
