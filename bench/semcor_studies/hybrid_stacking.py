"""The hybrid's stacked form (docs/choices.md, "The hybrid, further forms", 9): per part of
speech, a logistic regression over (target, candidate) pairs of the svm's and ppr's evidence,
the target answered by its candidate of highest score; cross-fitted by document on the
held-out targets, fitted on all of them for the development set.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.linear_model import LogisticRegression

from wsd_classic.systems.hybrid import POS_LETTERS

from .hybrid import Table

FOLDS = 5
SVM_FLOOR = 1e-3
PPR_FLOOR = 1e-6
SUPPORT_BUCKETS = (1, 5, 20)  # lower bounds of the support buckets after 0


@dataclass
class Pairs:
    """A table's (target, candidate) pairs: their features, whether gold, and each pair's
    target and candidate position (rows of the table, columns of its padded arrays)."""

    features: np.ndarray
    gold: np.ndarray
    target: np.ndarray
    column: np.ndarray


def pair_features(t: Table, widths: np.ndarray) -> Pairs:
    """The pairs of every target's ``widths`` candidates: log p_svm and log p_ppr (floored),
    each alone, times the svm's margin (best less second probability) and times an indicator
    of each bucket of the lemma's SemCor support (0, 1-4, 5-19, 20+), and whether the svm
    gives the candidate any weight."""
    target, column = np.nonzero(np.arange(t.svm.shape[1])[None, :] < widths[:, None])
    svm = t.svm[target, column]
    logs = np.stack([np.log(np.maximum(svm, SVM_FLOOR)),
                     np.log(np.maximum(t.ppr[target, column], PPR_FLOOR))], axis=1)
    ordered = np.sort(t.svm, axis=1)
    margin = (ordered[:, -1] - ordered[:, -2] if t.svm.shape[1] > 1 else ordered[:, -1])[target]
    bucket = np.searchsorted(SUPPORT_BUCKETS, t.support[target], side="right")
    indicators = np.eye(len(SUPPORT_BUCKETS) + 1)[bucket]
    features = np.hstack([logs, logs * margin[:, None],
                          (logs[:, :, None] * indicators[:, None, :]).reshape(len(target), -1),
                          (svm > 0)[:, None].astype(float)])
    return Pairs(features, t.gold[target, column], target, column)


def fitted(pairs: list[Pairs], masks: list[np.ndarray]) -> LogisticRegression | None:
    """One logistic regression on the pairs whose targets ``masks`` select (None when they
    hold one label only)."""
    features = np.vstack([p.features[m[p.target]] for p, m in zip(pairs, masks)])
    gold = np.concatenate([p.gold[m[p.target]] for p, m in zip(pairs, masks)])
    if len(set(gold.tolist())) < 2:
        return None
    return LogisticRegression(C=1.0, max_iter=1000).fit(features, gold)


def scored(t: Table, pairs: Pairs, model: LogisticRegression | None,
           within: np.ndarray, into: np.ndarray) -> None:
    """The model's scores of the pairs of the targets ``within`` written into ``into``
    (targets x candidates); without a model, the svm's distribution."""
    chosen = within[pairs.target]
    if model is None:
        into[within] = t.svm[within]
    elif chosen.any():
        into[pairs.target[chosen], pairs.column[chosen]] = model.decision_function(
            pairs.features[chosen])


def stacked_scores(tables: dict[str, Table], widths: dict[str, np.ndarray],
                   folds: dict[str, np.ndarray], with_removed: bool) -> dict[str, np.ndarray]:
    """Each table's pair scores (padding at -inf): held out and removed cross-fitted by the
    ``folds`` of their targets (a document's fold), each fold scored by the model of the
    other folds' targets of the held-out table (and the removed one, ``with_removed``);
    development by the model of all of them."""
    training = ("held_out", "removed") if with_removed else ("held_out",)
    pairs = {name: pair_features(t, widths[name]) for name, t in tables.items()}
    found = {name: np.full(t.svm.shape, -np.inf) for name, t in tables.items()}
    for letter in POS_LETTERS:
        own = {name: t.pos == letter for name, t in tables.items()}
        for fold in range(FOLDS):
            model = fitted([pairs[name] for name in training],
                           [own[name] & (folds[name] != fold) for name in training])
            for name in ("held_out", "removed"):
                scored(tables[name], pairs[name], model, own[name] & (folds[name] == fold),
                       found[name])
        model = fitted([pairs[name] for name in training], [own[name] for name in training])
        scored(tables["development"], pairs["development"], model, own["development"],
               found["development"])
    return found


def document_folds(rows: list[dict]) -> np.ndarray:
    """Each row's fold: its document's place among the sorted documents, modulo ``FOLDS``."""
    documents = {document: number % FOLDS
                 for number, document in enumerate(sorted({row["document"] for row in rows}))}
    return np.array([documents[row["document"]] for row in rows])
