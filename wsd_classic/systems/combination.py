"""Classifier combination (Florian & Yarowsky 2002): svm, dlist and lesk-corpus stacked per lexelt.

Each member is fitted on K-1 inner folds of the lexelt's training data and predicts the held-out
fold (an instance's rows share a fold), which gives, for every held-out instance and sense, the
``EVIDENCE``: the log of each member's probability, the log of the training prior, the gloss
similarity of the sense (``features.gloss``) and -1 for a sense the training data lacks (whose
member and prior evidence is the lowest its row gives a known sense). A log-linear combiner
p(s | x) ∝ exp(Σ_e w_e · evidence_e(x, s)) is fitted to minimise the held-out log-loss, its
weights pulled towards ``default_weights`` (chosen by cross-validation across the SENSEVAL-2
training lexelts, ``bench/tune_combo.py``) with strength ``shrinkage`` per held-out instance: a
small lexelt keeps nearly the default weights. The members are then refitted on all the data.

The svm member runs uncalibrated: its weight is the inverse of a temperature, and the prior's
weight does what its prior share would. With ``unseen_senses`` the combination also answers the
candidates no training instance shows, on their gloss evidence (their other evidence is the
floor). Where the sense ids are not WordNet keys, only svm and dlist are combined.
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import minimize
from scipy.special import logsumexp
from sklearn.model_selection import GroupKFold

from wsd_classic.features import select_groups
from wsd_classic.features.gloss import PREFIX as GLOSS_PREFIX
from wsd_classic.features.weighted import binary_names
from wsd_classic.systems import candidates
from wsd_classic.systems.base import SenseClassifier
from wsd_classic.systems.dlist import DecisionList
from wsd_classic.systems.lesk import Lesk
from wsd_classic.systems.svm import LinearSVM

# The members' estimators; each is made with its registered parameters (``systems.SYSTEMS``),
# these overrides and the combination's ``member_params``: the svm's calibration is the
# combiner's job.
MEMBERS = {"svm": LinearSVM, "dlist": DecisionList, "lesk-corpus": Lesk}
MEMBER_OVERRIDES = {"svm": {"calibrate": False}}
WORDNET_MEMBERS = ("lesk-corpus",)
EVIDENCE = (*MEMBERS, "prior", "gloss", "unseen")
FLOOR = 1e-6  # probabilities below count as this: log(0) would make one member a veto
WEIGHT_BOUNDS = (0.0, 50.0)


def wordnet_keys(senses) -> bool:
    senses = list(senses)
    return sum("%" in sense for sense in senses) >= 0.5 * len(senses)


def gloss_values(X, classes: np.ndarray) -> np.ndarray:
    """The gloss similarity of each class for each row (0 for a class no candidate spells)."""
    column = {sense: index for index, sense in enumerate(classes)}
    values = np.zeros((len(X), len(classes)))
    for row, features in enumerate(X):
        for block in features:
            if not isinstance(block, str) and block.names[0].startswith(GLOSS_PREFIX):
                for name, value in zip(block.names, block.values):
                    index = column.get(name[len(GLOSS_PREFIX):])
                    if index is not None:
                        values[row, index] = value
    return values


def fit_weights(evidence: np.ndarray, allowed: np.ndarray, truth: np.ndarray,
                sample_weight: np.ndarray, used: np.ndarray, default: np.ndarray,
                shrinkage: float) -> np.ndarray:
    """Weights of the evidence kinds (``used`` ones; the others 0) minimising the weighted
    held-out log-loss of the log-linear combination plus ``shrinkage`` x the squared distance
    to ``default`` per unit of weight; ``evidence`` is instances x senses x kinds."""
    total = sample_weight.sum()
    rows = np.arange(len(truth))
    features = evidence[:, :, used]
    target = features[rows, truth]

    def loss(weights):
        scores = np.where(allowed, features @ weights, -np.inf)
        log_norm = logsumexp(scores, axis=1)
        proba = np.exp(scores - log_norm[:, None])
        nll = np.dot(sample_weight, log_norm - target @ weights) / total
        expected = np.einsum("ns,nsk->nk", proba, features)
        gradient = sample_weight @ (expected - target) / total
        distance = weights - default[used]
        return (nll + shrinkage * np.dot(distance, distance) / total,
                gradient + 2 * shrinkage * distance / total)

    result = minimize(loss, default[used], jac=True, method="L-BFGS-B",
                      bounds=[WEIGHT_BOUNDS] * int(used.sum()))
    weights = np.zeros(len(default))
    weights[used] = result.x
    return weights


class Combination(SenseClassifier):
    feature_groups = tuple(dict.fromkeys(
        [*(group for estimator in MEMBERS.values() for group in estimator.feature_groups),
         "gloss"]))
    uses_candidate_filter = True
    state_fields = ("members", "member_params", "weights", "plain_senses")

    def __init__(self, default_weights: tuple[float, ...] = (1.0, 1.0, 1.0, 0.0, 0.0, 0.0),
                 shrinkage: float = 1.0, folds: int = 5, unseen_senses: bool = False,
                 member_params: dict | None = None, random_state: int = 0):
        self.default_weights = default_weights
        self.shrinkage = shrinkage
        self.folds = folds
        self.unseen_senses = unseen_senses
        self.member_params = member_params
        self.random_state = random_state

    def _member_names(self, senses) -> list[str]:
        return [name for name in MEMBERS if name not in WORDNET_MEMBERS or wordnet_keys(senses)]

    def _used(self) -> np.ndarray:
        kinds = {*self.members_, "prior", "unseen"} | (
            {"gloss"} if wordnet_keys(self.classes_) else set())
        return np.array([kind in kinds for kind in EVIDENCE])

    def _fit_member(self, name: str, X, y, weights):
        estimator = MEMBERS[name]
        return estimator(**self.member_params_[name]).fit(
            [select_groups(row, estimator.feature_groups) for row in X], y, sample_weight=weights)

    def fit(self, X, y, sample_weight=None):
        evidence, allowed, truth, weights = self.fit_members(X, y, sample_weight)
        self.fit_combiner(evidence, allowed, truth, weights, self.shrinkage)
        return self

    def fit_members(self, X, y, sample_weight=None):
        """Fit the members on all the data, and return their held-out evidence (instances x
        senses x ``EVIDENCE``), the senses allowed, the true senses and the rows' weights
        (empty when the lexelt has fewer distinct instances than folds)."""
        self.prior_ = self._prior(y, sample_weight)
        y = np.asarray(y)
        weights = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
        seen = self.classes_
        if self.unseen_senses and wordnet_keys(seen):
            self.classes_ = np.array(sorted({*seen, *self._gloss_keys(X)}))
            self.prior_ = self._prior_of(y, weights)
        self.plain_senses_ = sorted({*candidates.senses_seen_without_particles(X, y),
                                     *(sense for sense in self.classes_ if sense not in seen
                                       and "_" not in sense.partition("%")[0])})
        self.members_ = self._member_names(seen)
        from wsd_classic import systems  # the registry imports this module

        self.member_params_ = {name: {**systems.get(name).params, **MEMBER_OVERRIDES.get(name, {}),
                                      **(self.member_params or {}).get(name, {})}
                               for name in self.members_}
        groups = np.unique([" ".join(sorted(set(binary_names(row)))) for row in X],
                           return_inverse=True)[1]
        held_out = np.zeros((len(y), len(self.classes_), len(EVIDENCE)))
        if groups.max() + 1 >= self.folds:
            folds = GroupKFold(self.folds, shuffle=True, random_state=self.random_state)
            for train, test in folds.split(X, y, groups):
                fold_prior = self._prior_of(y[train], weights[train])
                models = {name: self._fit_member(name, [X[i] for i in train], y[train],
                                                 weights[train]) for name in self.members_}
                held_out[test] = self._evidence([X[i] for i in test], models, fold_prior)
            scored = np.arange(len(y))
        else:
            scored = np.arange(0)
        self.models_ = {name: self._fit_member(name, X, y, weights) for name in self.members_}
        allowed = candidates.allowed_mask(X, self.classes_, self.plain_senses_)
        return (held_out[scored], allowed[scored], np.searchsorted(self.classes_, y[scored]),
                weights[scored])

    def fit_combiner(self, evidence, allowed, truth, weights, shrinkage: float):
        """The combiner's weights from held-out evidence (``fit_members``); the defaults when
        there is none."""
        default = np.asarray(self.default_weights, float)
        used = self._used()
        self.weights_ = (fit_weights(evidence, allowed, truth, weights, used, default, shrinkage)
                         if len(truth) else np.where(used, default, 0.0)).tolist()
        return self

    @staticmethod
    def _gloss_keys(X) -> set[str]:
        return {name[len(GLOSS_PREFIX):] for row in X for block in row
                if not isinstance(block, str) and block.names[0].startswith(GLOSS_PREFIX)
                for name in block.names}

    def _prior_of(self, y, weights) -> np.ndarray:
        counts = np.bincount(np.searchsorted(self.classes_, y), weights=weights,
                             minlength=len(self.classes_))
        return counts / counts.sum()

    def _evidence(self, X, models: dict, prior: np.ndarray) -> np.ndarray:
        """Instances x senses x ``EVIDENCE`` (members absent from ``models``: 0); the senses
        ``prior`` gives no weight are the unseen ones."""
        evidence = np.zeros((len(X), len(self.classes_), len(EVIDENCE)))
        seen = prior > 0
        for name, model in models.items():
            estimator = MEMBERS[name]
            known = np.log(np.maximum(model.predict_proba(
                [select_groups(row, estimator.feature_groups) for row in X]), FLOOR))
            values = np.repeat(known.min(axis=1, keepdims=True), len(self.classes_), axis=1)
            values[:, np.searchsorted(self.classes_, model.classes_)] = known
            evidence[:, :, EVIDENCE.index(name)] = values
        log_prior = np.log(np.where(seen, prior, 1.0))
        evidence[:, :, EVIDENCE.index("prior")] = np.where(seen, log_prior, log_prior[seen].min())
        evidence[:, :, EVIDENCE.index("gloss")] = gloss_values(X, self.classes_)
        evidence[:, :, EVIDENCE.index("unseen")] = -(~seen).astype(float)
        return evidence

    def predict_proba(self, X) -> np.ndarray:
        if len(self.classes_) == 1:
            return np.ones((len(X), 1))
        scores = self._evidence(X, self.models_, self.prior_) @ np.asarray(self.weights_)
        scores = np.where(candidates.allowed_mask(X, self.classes_, self.plain_senses_),
                          scores, -np.inf)
        return np.exp(scores - logsumexp(scores, axis=1, keepdims=True))

    def get_state(self) -> tuple[dict, dict[str, np.ndarray]]:
        meta, arrays = super().get_state()
        meta["member_states"] = {}
        for name, model in self.models_.items():
            member_meta, member_arrays = model.get_state()
            meta["member_states"][name] = member_meta
            arrays.update({f"{name}/{key}": array for key, array in member_arrays.items()})
        return meta, arrays

    @classmethod
    def from_state(cls, params: dict, meta: dict, arrays: dict[str, np.ndarray]):
        model = super().from_state(params, meta, arrays)
        model.models_ = {}
        for name in model.members_:
            prefix = f"{name}/"
            model.models_[name] = MEMBERS[name].from_state(
                model.member_params_[name], meta["member_states"][name],
                {key[len(prefix):]: array for key, array in arrays.items()
                 if key.startswith(prefix)})
        return model
