"""Classifier combination (Florian & Yarowsky 2002): svm, dlist and lesk-corpus stacked per lexelt.

Each member is fitted on K-1 inner folds of the lexelt's training data and predicts the held-out
fold (an instance's rows share a fold), which gives, for every held-out instance and sense, the
``EVIDENCE``: the svm's decision value, dlist's and lesk-corpus's probabilities, the training
prior and the gloss similarity of the sense (``features.gloss``) and, with ``ppr``, the
knowledge-based ``ppr``'s probability of the sense (``PPR_PREFIX``). The combiner takes one of two
forms (``POOLS``). The linear pool is Florian & Yarowsky's interpolation of the members'
distributions:

    p(s | x) = λ_svm softmax(z / T)_s + λ_dlist p_dlist(s) + λ_lesk p_lesk(s) + λ_prior prior(s)
               + λ_gloss softmax(β g)_s [+ λ_ppr p_ppr(s)]

the λ a softmax of ``EVIDENCE`` logits; with λ_svm + λ_prior = 1 it is the svm's own
calibration. The geometric pool is a product of the members' distributions, a conditional logit
over the senses:

    p(s | x) ∝ exp(w_svm z_s + w_lacks [the fold's svm lacks s] + w_dlist log(p_dlist(s) + ε)
                   + w_lesk log(p_lesk(s) + ε) + w_prior log(prior(s) + ε) + w_gloss g_s
                   [+ w_ppr log(p_ppr(s) + ε)])

Either is taken over the senses the candidate filter allows. Its parameters minimise the held-out
log-loss plus ``shrinkage`` x their squared distance to ``default_params`` per unit of held-out
weight (the defaults chosen by cross-validation across the SENSEVAL-2 training lexelts,
``bench/tune_combo.py``): a small lexelt keeps nearly the defaults, one with fewer instances than
folds keeps them. The members are then refitted on all the data. Defaults registered before
``ppr`` was a component (one parameter short) take the pool's neutral start for it.

Neither pool's top sense is as probable as it is often right: on SENSEVAL-2's held-out training
folds the linear pool (a linear pool of calibrated forecasts is under-dispersed, Ranjan & Gneiting
2010) gave its top sense 66.4 % for 68.4 % right, the geometric pool too little below 55 % and
too much above 75 %. ``top_sense_map`` corrects that: the top sense's probability is mapped
through a monotone curve given by its values at ``TOP_SENSE_GRID`` (``fit_top_sense_map``:
isotonic regression of held-out correctness on the top probability), and the other senses share
the rest in their proportions; a row whose top sense the map would let another overtake keeps
its distribution, so the answer never changes.

The svm member runs uncalibrated (T is the combiner's). With ``unseen_senses`` the combination
also answers the candidates no training instance shows, through the gloss component. Where the
sense ids are not WordNet keys, only svm and dlist (and the prior) are combined.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize
from scipy.special import softmax
from sklearn.isotonic import IsotonicRegression

from wsd_classic import tuned
from wsd_classic.features import PREFIXES, select_groups
from wsd_classic.features.gloss import PREFIX as GLOSS_PREFIX
from wsd_classic.systems import candidates
from wsd_classic.systems.base import (SenseClassifier, held_out_folds, prefixed_senses,
                                      prefixed_values)
from wsd_classic.systems.dlist import DecisionList
from wsd_classic.systems.lesk import Lesk
from wsd_classic.systems.svm import LinearSVM

# The members' estimators; each is made with its registered parameters (``member_defaults``,
# which the registry hands in), these overrides and the combination's ``member_params``: the
# svm's calibration is the combiner's job.
MEMBERS = {"svm": LinearSVM, "dlist": DecisionList, "lesk-corpus": Lesk}
MEMBER_OVERRIDES = {"svm": {"calibrate": False}}
WORDNET_MEMBERS = ("lesk-corpus",)
EVIDENCE = (*MEMBERS, "prior", "gloss", "ppr")
# The block of ``ppr``'s probabilities of a row's candidate senses (``Weighted``): the ``ppr``
# group, which a lexical-sample run fills (``tasks.lexical_sample_run``).
PPR_PREFIX = PREFIXES["ppr"]
# The linear pool's: log T, log β, then one logit per component.
PARAMETERS = ("log_temperature", "log_gloss_sharpness", *(f"logit_{name}" for name in EVIDENCE))
PARAMETER_BOUNDS = [(-4.0, 3.0), (-3.0, 5.0), *[(-10.0, 10.0)] * len(EVIDENCE)]
# The geometric pool's terms, ``EVIDENCE`` with "svm lacks the sense" after the svm's
LOG_LINEAR_TERMS = ("svm", "svm_lacks", *EVIDENCE[1:])
# ε of the geometric pool's log-probabilities: CV on the SENSEVAL-2 training lexelts
# (wsd_classic/tuned/systems.json, docs/choices.md).
LOG_SMOOTHING = tuned.value("systems", "combo_log_smoothing")
SMALLEST = 1e-12  # a probability below counts as this in the log-loss
TOP_SENSE_GRID = np.linspace(0.0, 1.0, 21)  # where ``top_sense_map`` gives the curve's values


def wordnet_keys(senses) -> bool:
    senses = list(senses)
    return sum("%" in sense for sense in senses) >= 0.5 * len(senses)


def gloss_values(X, classes: np.ndarray) -> np.ndarray:
    """The gloss similarity of each class for each row (0 for a class no candidate spells)."""
    return prefixed_values(X, classes, GLOSS_PREFIX)[0]


def ppr_values(X, classes: np.ndarray) -> np.ndarray:
    """ppr's probability of each class for each row; a class its block does not name (a sense
    WordNet 3.0 lacks, ``U``, ``P``) gets the row's smallest named probability (0 where the row
    names none)."""
    values, named = prefixed_values(X, classes, PPR_PREFIX)
    floor = np.where(named, values, np.inf).min(axis=1, initial=np.inf)
    return np.where(named, values, np.where(np.isfinite(floor), floor, 0.0)[:, None])


def _normalised(values: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """Rows of ``values`` over the allowed senses, summing to 1 (even where all are 0)."""
    kept = np.where(allowed, values, 0.0)
    totals = kept.sum(axis=1, keepdims=True)
    even = allowed / np.maximum(allowed.sum(axis=1, keepdims=True), 1)
    return np.where(totals > 0, kept / np.where(totals > 0, totals, 1), even)


def _softmax(scores: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """Softmax over the allowed senses that have a finite score (even where none has)."""
    usable = allowed & np.isfinite(scores)
    shifted = np.where(usable, scores, -np.inf)
    rows = usable.any(axis=1)
    result = np.zeros_like(scores)
    result[rows] = softmax(shifted[rows], axis=1)
    return np.where(rows[:, None], result, _normalised(np.ones_like(scores), allowed))


def linear_mixture(evidence: np.ndarray, allowed: np.ndarray, params: np.ndarray,
                   used: np.ndarray) -> np.ndarray:
    """The linear pool's distribution (instances x senses) for parameters ``params``
    (``PARAMETERS``), its components limited to the ``used`` ones."""
    temperature, sharpness = np.exp(params[0]), np.exp(params[1])
    logits = np.where(used, params[2:], -np.inf)
    weights = softmax(logits)
    parts = {
        "svm": lambda: _softmax(evidence[:, :, 0] / temperature, allowed),
        "gloss": lambda: _softmax(sharpness * evidence[:, :, EVIDENCE.index("gloss")], allowed),
    }
    proba = np.zeros(allowed.shape)
    for index, name in enumerate(EVIDENCE):
        if weights[index] > 0:
            part = parts[name]() if name in parts else _normalised(evidence[:, :, index], allowed)
            proba += weights[index] * part
    return proba


def _log_linear_freed(used: np.ndarray) -> np.ndarray:
    """Which of ``LOG_LINEAR_TERMS`` the ``used`` components bring."""
    return np.insert(used, 1, used[0])


def geometric_mixture(evidence: np.ndarray, allowed: np.ndarray, params: np.ndarray,
                      used: np.ndarray) -> np.ndarray:
    """The geometric pool's distribution for weights ``params`` (one per ``LOG_LINEAR_TERMS``),
    the terms of unused components left out."""
    decision = evidence[:, :, 0]
    lacks = ~np.isfinite(decision)
    probabilities = [np.log(evidence[:, :, EVIDENCE.index(name)] + LOG_SMOOTHING)
                     for name in ("dlist", "lesk-corpus", "prior")]
    terms = np.stack([np.where(lacks, 0.0, decision), lacks, *probabilities,
                      evidence[:, :, EVIDENCE.index("gloss")],
                      np.log(evidence[:, :, EVIDENCE.index("ppr")] + LOG_SMOOTHING)], axis=2)
    return _softmax(terms @ np.where(_log_linear_freed(used), params, 0.0), allowed)


@dataclass(frozen=True)
class Pool:
    """A form of the combiner: its parameters, their bounds and a neutral start, which of them
    the used components of ``EVIDENCE`` free, and its distribution."""

    parameters: tuple[str, ...]
    bounds: tuple[tuple[float, float], ...]
    start: tuple[float, ...]
    freed: Callable[[np.ndarray], np.ndarray]
    distribution: Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]


POOLS = {
    "linear": Pool(PARAMETERS, tuple(PARAMETER_BOUNDS), (0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0),
                   lambda used: np.concatenate([[True, True], used]), linear_mixture),
    "geometric": Pool(tuple(f"weight_{term}" for term in LOG_LINEAR_TERMS),
                      ((-50.0, 50.0),) * len(LOG_LINEAR_TERMS),
                      (1.0, -5.0, 0.0, 0.0, 0.0, 1.0, 0.0),
                      _log_linear_freed, geometric_mixture),
}


def mixture(evidence: np.ndarray, allowed: np.ndarray, params: np.ndarray, used: np.ndarray,
            pool: str = "linear") -> np.ndarray:
    """The combination's distribution (instances x senses) in the form ``pool``."""
    return POOLS[pool].distribution(evidence, allowed, params, used)


def fit_params(evidence: np.ndarray, allowed: np.ndarray, truth: np.ndarray,
               sample_weight: np.ndarray, used: np.ndarray, default: np.ndarray,
               shrinkage: float, pool: str = "linear") -> np.ndarray:
    """The parameters of form ``pool`` minimising the weighted held-out log-loss plus
    ``shrinkage`` x the squared distance to ``default`` per unit of weight (those of unused
    components stay at their defaults)."""
    total = sample_weight.sum()
    rows = np.arange(len(truth))
    form = POOLS[pool]
    free = form.freed(used)

    def loss(values):
        params = default.copy()
        params[free] = values
        proba = form.distribution(evidence, allowed, params, used)[rows, truth]
        distance = values - default[free]
        return (-np.dot(sample_weight, np.log(np.maximum(proba, SMALLEST))) / total
                + shrinkage * np.dot(distance, distance) / total)

    bounds = [bound for bound, keep in zip(form.bounds, free) if keep]
    result = minimize(loss, default[free], method="L-BFGS-B", bounds=bounds)
    params = default.copy()
    params[free] = result.x
    return params


def fit_top_sense_map(confidence: np.ndarray, correct: np.ndarray) -> tuple[float, ...]:
    """The curve's values at ``TOP_SENSE_GRID``: isotonic regression of whether the top sense
    was right on its probability, over held-out distributions."""
    curve = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(
        confidence, correct.astype(float))
    return tuple(round(float(value), 4) for value in curve.predict(TOP_SENSE_GRID))


def mapped_top_sense(proba: np.ndarray, top_sense_map: Sequence[float]) -> np.ndarray:
    """``proba`` with each row's top sense given the probability the curve ``top_sense_map``
    (values at ``TOP_SENSE_GRID``) maps it to, the other senses scaled to share the rest; rows
    where the top sense holds everything, or would no longer be the top, stay as they are."""
    if not top_sense_map or not len(proba):
        return proba
    rows = np.arange(len(proba))
    top = proba.argmax(axis=1)
    confidence = proba[rows, top]
    mapped = np.interp(confidence, TOP_SENSE_GRID, top_sense_map)
    rest = 1.0 - confidence
    scale = np.divide(1.0 - mapped, rest, out=np.ones_like(rest), where=rest > 0)
    result = proba * scale[:, None]
    result[rows, top] = mapped
    runner_up = (np.partition(result, -2, axis=1)[:, -2] if proba.shape[1] > 1
                 else np.zeros(len(proba)))
    keep = (rest <= 0) | (runner_up >= mapped)
    result[keep] = proba[keep]
    return result


class Combination(SenseClassifier):
    member_systems = tuple(MEMBERS)
    feature_groups = tuple(dict.fromkeys(
        [*(group for estimator in MEMBERS.values() for group in estimator.feature_groups),
         "gloss", "ppr"]))
    state_fields = ("members", "member_params", "mixture", "plain_senses")

    def __init__(self, pool: str = "linear", default_params: tuple[float, ...] | None = None,
                 shrinkage: float = 1.0, folds: int = 5, unseen_senses: bool = False,
                 member_params: dict | None = None, random_state: int = 0,
                 top_sense_map: tuple[float, ...] = (), member_defaults: dict | None = None,
                 ppr: bool = False):
        self.pool = pool
        # Whether ppr's probabilities (the rows' ``PPR_PREFIX`` block) are a component.
        self.ppr = ppr
        self.default_params = default_params
        self.shrinkage = shrinkage
        self.folds = folds
        self.unseen_senses = unseen_senses
        self.member_params = member_params
        self.random_state = random_state
        self.top_sense_map = top_sense_map
        # Each member's registered parameters, by name (``systems.System.make``); without them
        # the members run on their estimators' defaults.
        self.member_defaults = member_defaults

    @classmethod
    def load_resources(cls) -> None:
        for estimator in MEMBERS.values():
            estimator.load_resources()

    def _member_names(self, senses) -> list[str]:
        return [name for name in MEMBERS if name not in WORDNET_MEMBERS or wordnet_keys(senses)]

    def components(self) -> list[str]:
        """The mixture's components: the members, the prior and, over WordNet keys, the gloss
        (and ppr's probabilities when asked for)."""
        used = {*self.members_, "prior"} | ({"gloss", *(["ppr"] if self.ppr else [])}
                                            if wordnet_keys(self.classes_) else set())
        return [name for name in EVIDENCE if name in used]

    def _used(self) -> np.ndarray:
        return np.isin(EVIDENCE, self.components())

    def _member_rows(self, X) -> dict[str, list]:
        """Each member's rows: its own groups' features of ``X``."""
        return {name: [select_groups(row, MEMBERS[name].feature_groups) for row in X]
                for name in self.members_}

    def _fit_member(self, name: str, rows, y, weights):
        return MEMBERS[name](**self.member_params_[name]).fit(rows, y, sample_weight=weights)

    def fit(self, X, y, sample_weight=None, fitted_members: dict | None = None):
        """``fitted_members``: systems already fitted on these very rows, by member name
        (``member_systems``); each one whose parameters are its member's is used as that
        member, and the svm's held-out decision values on the combination's folds as its
        evidence, instead of fitting them again."""
        self.defaults()  # refuse a wrong form before the members' fits
        evidence, allowed, truth, weights = self.fit_members(X, y, sample_weight, fitted_members)
        return self.fit_combiner(evidence, allowed, truth, weights, self.shrinkage)

    def fit_members(self, X, y, sample_weight=None, fitted_members: dict | None = None):
        """Fit the members on all the data, and return their held-out evidence (instances x
        senses x ``EVIDENCE``), the senses allowed, the true senses and the rows' weights
        (empty when the lexelt has fewer distinct instances than folds)."""
        self.prior_ = self._prior(y, sample_weight)
        y = np.asarray(y)
        weights = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
        seen = self.classes_
        if self.unseen_senses and wordnet_keys(seen):
            self.classes_ = np.array(sorted({*seen, *prefixed_senses(X, GLOSS_PREFIX)}))
            self.prior_ = self._prior_of(y, weights)
        self.plain_senses_ = sorted({*candidates.senses_seen_without_particles(X, y),
                                     *(sense for sense in self.classes_ if sense not in seen
                                       and "_" not in sense.partition("%")[0])})
        self.members_ = self._member_names(seen)
        self.member_params_ = {name: {**(self.member_defaults or {}).get(name, {}),
                                      **MEMBER_OVERRIDES.get(name, {}),
                                      **(self.member_params or {}).get(name, {})}
                               for name in self.members_}
        fitted = self._usable(fitted_members or {})
        folds = held_out_folds(X, self.folds, self.random_state)
        svm_held_out = self._svm_held_out(fitted.get("svm"), folds)
        member_rows = self._member_rows(X)
        held_out = np.zeros((len(y), len(self.classes_), len(EVIDENCE)))
        for fold in range(self.folds if folds is not None else 0):
            train, test = np.flatnonzero(folds != fold), np.flatnonzero(folds == fold)
            fold_prior = self._prior_of(y[train], weights[train])
            models = {name: self._fit_member(name, [rows[i] for i in train], y[train],
                                             weights[train])
                      for name, rows in member_rows.items()
                      if not (name == "svm" and svm_held_out is not None)}
            held_out[test] = self._evidence(
                [X[i] for i in test], {name: [rows[i] for i in test]
                                       for name, rows in member_rows.items()},
                models, fold_prior)
            if svm_held_out is not None:
                held_out[test, :, 0] = svm_held_out[test]
        scored = np.arange(len(y) if folds is not None else 0)
        self.models_ = {name: fitted[name] if name in fitted
                        else self._fit_member(name, rows, y, weights)
                        for name, rows in member_rows.items()}
        allowed = candidates.allowed_mask(X, self.classes_, self.plain_senses_)
        return (held_out[scored], allowed[scored], np.searchsorted(self.classes_, y[scored]),
                weights[scored])

    def _usable(self, fitted_members: dict) -> dict:
        """The fitted systems that are members as this combination makes them: the same
        parameters, the svm's calibration set aside (the combiner has its own)."""
        usable = {}
        for name, model in fitted_members.items():
            if name in self.members_ and isinstance(model, MEMBERS[name]):
                if isinstance(model, LinearSVM):
                    model = model.uncalibrated()
                if model.get_params() == MEMBERS[name](**self.member_params_[name]).get_params():
                    usable[name] = model
        return usable

    def _svm_held_out(self, svm: LinearSVM | None, folds: np.ndarray | None) -> np.ndarray | None:
        """The svm member's held-out decision values over ``classes_`` (-inf for senses its
        fold lacks), when the fitted ``svm`` cross-fitted itself on these folds with the
        member's parameters; else None."""
        if (svm is None or folds is None or getattr(svm, "held_out_folds_", None) is None
                or not np.array_equal(svm.held_out_folds_, folds)
                or svm.held_out_params_ != LinearSVM(**self.member_params_["svm"]).get_params()):
            return None
        values = np.full((len(folds), len(self.classes_)), -np.inf)
        values[:, np.searchsorted(self.classes_, svm.classes_)] = svm.held_out_decisions_
        return values

    def fit_combiner(self, evidence, allowed, truth, weights, shrinkage: float):
        """The mixture's parameters from held-out evidence (``fit_members``); the defaults when
        there is none."""
        default = self.defaults()
        self.mixture_ = (fit_params(evidence, allowed, truth, weights, self._used(), default,
                                    shrinkage, self.pool) if len(truth) else default).tolist()
        return self

    def defaults(self) -> np.ndarray:
        """``default_params``, or the pool's neutral start when there are none."""
        if self.pool not in POOLS:
            raise ValueError(f"combo's pool is linear or geometric, not {self.pool!r}")
        form = POOLS[self.pool]
        default = np.asarray(form.start if self.default_params is None else self.default_params,
                             float)
        if len(default) == len(form.parameters) - 1:  # registered before ppr's component
            default = np.append(default, form.start[-1])
        if len(default) != len(form.parameters):
            raise ValueError(f"the {self.pool} pool takes {len(form.parameters)} default "
                             f"parameters ({', '.join(form.parameters)}), not {len(default)}")
        return default

    def _prior_of(self, y, weights) -> np.ndarray:
        counts = np.bincount(np.searchsorted(self.classes_, y), weights=weights,
                             minlength=len(self.classes_))
        return counts / counts.sum()

    def _evidence(self, X, member_rows: dict[str, list], models: dict,
                  prior: np.ndarray) -> np.ndarray:
        """Instances x senses x ``EVIDENCE``: the svm's decision values (-inf for senses it
        lacks), the other members' probabilities (0 for senses they lack), ``prior`` and the
        gloss similarities."""
        evidence = np.zeros((len(X), len(self.classes_), len(EVIDENCE)))
        evidence[:, :, 0] = -np.inf
        for name, model in models.items():
            rows = member_rows[name]
            values = model.decision_function(rows) if name == "svm" else model.predict_proba(rows)
            columns = np.searchsorted(self.classes_, model.classes_)
            evidence[:, columns, EVIDENCE.index(name)] = values
        evidence[:, :, EVIDENCE.index("prior")] = prior
        evidence[:, :, EVIDENCE.index("gloss")] = gloss_values(X, self.classes_)
        if self.ppr:
            evidence[:, :, EVIDENCE.index("ppr")] = ppr_values(X, self.classes_)
        return evidence

    def predict_proba(self, X) -> np.ndarray:
        if len(self.classes_) == 1:
            return np.ones((len(X), 1))
        allowed = candidates.allowed_mask(X, self.classes_, self.plain_senses_)
        evidence = self._evidence(X, self._member_rows(X), self.models_, self.prior_)
        return mapped_top_sense(
            mixture(evidence, allowed, np.asarray(self.mixture_), self._used(), self.pool),
            self.top_sense_map)

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
