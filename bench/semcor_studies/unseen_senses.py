"""``python -m bench semcor --unseen-senses``: senses unseen in training, simulated on SemCor.

A development protocol that needs no test set. For the first set of held-out SemCor files
(every 5th file, trained on the others), a seeded random ``--unseen-share`` of the senses the
training files tag in polysemous lexelts is removed: every training instance tagged with one of
them leaves the training data (WordNet's examples stay: a sense SemCor lacks still has them).
The svm and the sense ranker (``systems.sense_ranking``) are trained on what remains and score
the held-out targets:

- (a) those tagged with a removed sense;
- (b) those tagged with a rare sense: at most ``RARE`` SemCor training instances (0 included);
- (c) all of them;

each by accuracy (the answer is one of the gold keys) and by the macro F1 over gold senses of
Maru et al.'s challenge sets (``scoring.raganato.score_macro``). WordNet's sense order
and counts come from SemCor itself: as published, a removed sense keeps the rank and count its
SemCor instances earned. The study therefore takes them as they would be had SemCor tagged
neither the held-out files nor the removed senses (``as_if_untagged``); the stacked ranker's
figures with them as published, and its figures without those features, are kept beside.

The ranker's coefficients are one logistic regression on (context, candidate) pairs across
lexelts. Here they are fitted on the held-out targets themselves, cross-fitted: on the
documents of one half of the held-out files, scored on the other half, and the other way round,
so that every figure is held out. Ways of combining it with the svm are measured: the ranker
stacked on the svm's probability (one of its features), on all the pair features and without
each group of them (``FEATURE_SETS``); a back-off that gives the svm n / (n + h) of the weight,
n the lexelt's training weight, for each h of ``HALF_WEIGHTS``; and the stacked ranker leaning
towards scarce senses (a bonus on ``1 / (1 + training weight)``, ``BONUSES``) and gated (the
svm answers alone where its best sense has probability ``GATES`` or more), the lean and gate of
each half chosen on the other half (those of every setting are shown too, not held out).
The registered combination is the one with the best (a) whose (c) loses at most
``MAX_LOSS`` against the svm; its coefficients, fitted on all the held-out targets, go into
the task's parameters (``tasks.catalogue``). Every system answers as ``engine.decide`` does (a
lemma training never saw: WordNet's first sense); one sense per discourse is left out for all.
The held-out table (pair features, svm probabilities) is cached per share, seed and feature
set, so studies of the combination alone rerun in seconds. Writes
bench/results/semcor_unseen_senses.json.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

from wsd_classic import settings
from wsd_classic.atomic import atomic_file
from wsd_classic.corpora.model import Lexelt, LexicalSample
from wsd_classic.features.featurizer import row
from wsd_classic.scoring.raganato import score_macro
from wsd_classic.systems.first_sense import first_sense
from wsd_classic.systems.sense_ranking import (
    BASE_FEATURES, INTERACTIONS, PAIR_FEATURES, RELATIVES, SVM_FEATURES, WORDNET_ORDER_FEATURES,
    lemma_senses, pair_model, wordnet_count, wordnet_order_features, with_interactions)
from wsd_classic.tasks import allwords, engine
from wsd_classic.tasks.engine import FeaturizedCorpus
from wsd_classic.wordnet import wordnet_senses

from .held_out import TASK, held_out_split, semcor_training

SHARE = 0.15
SEED = 0
RARE = 3
MAX_LOSS = 0.002  # 0.2 points of (c) accuracy
HALF_WEIGHTS = (1.0, 3.0, 10.0, 30.0, 100.0)
BONUSES = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0)
GATES = (0.5, 0.8)
LEANING = "scarce bonus and svm gate chosen on the other half"
RELATIVE_FEATURES = tuple(feature for relative in RELATIVES
                          for feature in (relative, f"{relative} - best", f"has {relative}"))
SCARCITY_FEATURES = ("scarce", "scarce x svm top", "scarce x svm entropy")
# The stacked ranker on each feature set, by label: all, and without each addition
FEATURE_SETS = {"": (), " without products": tuple(f"{factor} x {feature}"
                                                    for factor, feature in INTERACTIONS),
                " without relatives": RELATIVE_FEATURES,
                " without relatives and scarcity": (*RELATIVE_FEATURES, *SCARCITY_FEATURES),
                " without WordNet's order and counts": WORDNET_ORDER_FEATURES}
STACKED, BACK_OFF = "stacked", "back-off"


@dataclass
class HeldOutTarget:
    """A held-out target and what every system needs to answer it: its lexelt model's classes,
    their pair features and candidate mask (None: the model reads no features), the svm's
    distribution over them (None: no model, the back-off answers)."""

    id: str
    document: str
    lemma: str
    pos: str
    keys: tuple[str, ...]
    classes: tuple[str, ...]
    svm: np.ndarray | None
    features: np.ndarray | None = None
    candidates: np.ndarray | None = None
    lexelt_weight: float = 0.0


def removed_senses(sample: LexicalSample, share: float, seed: int) -> set[str]:
    """A seeded random ``share`` of the senses the sample tags in its polysemous lexelts."""
    senses = sorted({sense for lexelt in sample.lexelts
                     if len(wordnet_senses(*lexelt.item.rsplit(".", 1))) >= 2
                     for instance in lexelt.instances for sense in instance.answers})
    chosen = np.random.default_rng(seed).choice(len(senses), round(share * len(senses)),
                                                replace=False)
    return {senses[index] for index in chosen}


def without_senses(data: allwords.TrainingData, removed: set[str]) -> allwords.TrainingData:
    """``data`` without the SemCor instances tagged with a ``removed`` sense."""
    sample = data.featurized.sample
    return dataclasses.replace(data, featurized=FeaturizedCorpus(LexicalSample(
        [Lexelt(lexelt.item, [instance for instance in lexelt.instances
                              if not removed.intersection(instance.answers)])
         for lexelt in sample.lexelts], sample.source),
        data.featurized.features, data.featurized.featurizer))


def sense_counts(sample: LexicalSample) -> Counter:
    """Training instances per sense."""
    return Counter(sense for instance in sample.instances() for sense in set(instance.answers))


def held_out_table(data: allwords.TrainingData, training: allwords.TrainingData, testing,
                   jobs: int) -> list[HeldOutTarget]:
    """Train the svm and the ranker on ``training``; every ``testing`` target with its
    lexelt's pair features and svm distribution."""
    started = time.perf_counter()
    svm = allwords.train_system("svm", training, jobs)
    print(f"svm trained in {time.perf_counter() - started:.0f}s", file=sys.stderr, flush=True)
    # In this process: fitted from the svm's models, a lexelt's ranker only counts its rows,
    # which costs less than handing the models to worker processes and back.
    ranker = allwords.train_system("rank", training, 1, fitted={"svm": svm})
    table = []
    by_lexelt: dict[str, list] = {}
    for target in testing:
        by_lexelt.setdefault(target.lexelt, []).append(target)
    for lexelt, targets in by_lexelt.items():
        model = ranker.models.get(lexelt)
        common = [(target.id, data.corpus.sentences[target.sentence].document, target.lemma,
                   target.pos, target.keys) for target in targets]
        if model is None:
            table += [HeldOutTarget(*fields, classes=(), svm=None) for fields in common]
            continue
        classes = tuple(model.classes_.tolist())
        if len(classes) == 1:
            table += [HeldOutTarget(*fields, classes=classes, svm=np.ones(1))
                      for fields in common]
            continue
        rows = [row(data.featurized.features[target.id], model.feature_groups)
                for target in targets]
        features, candidates = model.pair_features(rows)
        svm_proba = model.svm_proba(rows)
        table += [HeldOutTarget(*fields, classes=classes, svm=svm_proba[index],
                                features=features[index, :, :len(BASE_FEATURES)].astype(
                                    np.float32),
                                candidates=candidates[index],
                                lexelt_weight=float(model.weights_.sum()))
                  for index, fields in enumerate(common)]
    return table


def simulate(data: allwords.TrainingData, split: Callable, share: float, seed: int,
             jobs: int) -> tuple[list[HeldOutTarget], dict]:
    """The held-out table of the first set of held-out files after the removal, and what the
    removal did (the removed senses, the remaining training instances per sense)."""
    subset, testing = split(data, 0)
    removed = removed_senses(subset.featurized.sample, share, seed)
    reduced = without_senses(subset, removed)
    table = held_out_table(data, reduced, testing, jobs)
    return table, {"removed_senses": sorted(removed),
                   "training_counts": dict(sense_counts(reduced.featurized.sample)),
                   "training_instances": {
                       "before": len(list(subset.featurized.sample.instances())),
                       "after": len(list(reduced.featurized.sample.instances()))}}


def table_path(args, task=TASK):
    """The cache file of ``simulate``'s table: named by what changes it, the svm's word vectors
    (``task.embedding``) included."""
    key = hashlib.sha256(repr((args.unseen_share, args.unseen_seed, BASE_FEATURES,
                               task.system_params("svm"), task.embedding)).encode()).hexdigest()
    return settings.cache_dir() / "bench" / f"unseen-senses-{key[:16]}.npz"


def cached_table(args) -> tuple[list[HeldOutTarget], dict]:
    """``simulate`` on SemCor, from the cache or computed."""
    path = table_path(args)
    if path.is_file():
        return load_table(path)
    data = semcor_training(args.data_dir, args.jobs,
                           featurizer=TASK.featurizer(["svm"]))
    simulated = simulate(data, held_out_split, args.unseen_share, args.unseen_seed, args.jobs)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_table(path, *simulated)
    return simulated


TABLE_ARRAYS = ("svm", "features", "candidates")


def save_table(path, table: list[HeldOutTarget], removal: dict) -> None:
    """The table and the removal as JSON and arrays in an npz: no pickle, so a cache file never
    runs code. Each array field is stacked over the targets that have it (a row per class)."""
    targets = [{**{field: getattr(target, field) for field in
                   ("id", "document", "lemma", "pos", "keys", "classes", "lexelt_weight")},
                "arrays": [name for name in TABLE_ARRAYS if getattr(target, name) is not None]}
               for target in table]
    arrays = {name: np.concatenate([getattr(target, name) for target in table
                                    if getattr(target, name) is not None])
              for name in TABLE_ARRAYS if any(getattr(t, name) is not None for t in table)}
    text = json.dumps({"targets": targets, "removal": removal}, default=float)
    with atomic_file(path) as stream:
        np.savez(stream, text=np.frombuffer(text.encode(), dtype=np.uint8), **arrays)


def load_table(path) -> tuple[list[HeldOutTarget], dict]:
    """What ``save_table`` wrote."""
    with np.load(path, allow_pickle=False) as saved:
        content = json.loads(saved["text"].tobytes().decode())
        arrays = {name: saved[name] for name in TABLE_ARRAYS if name in saved.files}
    starts = dict.fromkeys(arrays, 0)
    table = []
    for target in content["targets"]:
        rows = len(target["classes"])
        given = dict.fromkeys(TABLE_ARRAYS)
        for name in target.pop("arrays"):
            given[name] = arrays[name][starts[name]:starts[name] + rows]
            starts[name] += rows
        table.append(HeldOutTarget(**{**target, "keys": tuple(target["keys"]),
                                      "classes": tuple(target["classes"])}, **given))
    return table, content["removal"]


def as_if_untagged(table: list[HeldOutTarget], removed: set[str]) -> list[HeldOutTarget]:
    """The table with WordNet's order and counts as they would be had SemCor tagged neither the
    held-out files nor any instance of a removed sense.

    WordNet counts a sense's tags in SemCor (``cntlist``) and orders a lemma's senses by those
    counts, so as published they tell the ranker how often each removed sense occurs, which a
    sense unseen in training reveals nowhere else. Here a removed sense counts 0 and a sense
    counts its tags less those of the held-out targets; a sense whose count falls to 0 so moves
    behind its lemma's others, keeping their order."""
    held_out = Counter(key for target in table for key in set(target.keys))

    def count(key: str) -> float:
        return 0.0 if key in removed else max(0.0, wordnet_count(key) - held_out[key])

    def rank(key: str) -> int:
        senses = lemma_senses(key)
        if key not in senses:
            return 1
        lost = [wordnet_count(sense) > 0 and count(sense) == 0 for sense in senses]
        order = sorted(range(len(senses)), key=lambda index: (lost[index], index))
        return order.index(senses.index(key)) + 1

    columns = [PAIR_FEATURES.index(name) for name in WORDNET_ORDER_FEATURES]
    changed = []
    for target in table:
        if target.features is not None:
            features = target.features.copy()
            features[:, columns] = wordnet_order_features(
                np.array([count(key) for key in target.classes]),
                np.array([rank(key) for key in target.classes], dtype=float))
            target = dataclasses.replace(target, features=features)
        changed.append(target)
    return changed


# --- the ranker's coefficients and the systems ---------------------------------------------------

def pairs(table: Sequence[HeldOutTarget]) -> tuple[np.ndarray, np.ndarray]:
    """Every candidate pair of the targets that have pair features, and whether it is gold."""
    ranked = [target for target in table if target.features is not None]
    features = np.concatenate([target.features[target.candidates] for target in ranked])
    gold = np.concatenate([np.isin(np.array(target.classes)[target.candidates], target.keys)
                           for target in ranked])
    return features, gold


def columns_without(*names: str) -> list[int]:
    """The columns of ``PAIR_FEATURES`` but ``names`` and the products of one of them."""
    return [index for index, name in enumerate(PAIR_FEATURES)
            if name not in names and not set(name.split(" x ")) & set(names)]


def interacting(table: list[HeldOutTarget]) -> list[HeldOutTarget]:
    """The table (``BASE_FEATURES``) with the ``INTERACTIONS`` products added."""
    return [target if target.features is None else dataclasses.replace(
        target, features=with_interactions(target.features).astype(np.float32))
        for target in table]


def halves(table: Sequence[HeldOutTarget]) -> list[int]:
    """Each target's half (0 or 1) of the held-out data: its document's, the documents taken
    alternately in sorted order; with a single held-out document (a miniature), its targets
    alternately."""
    documents = sorted({target.document for target in table})
    if len(documents) < 2:
        return [index % 2 for index in range(len(table))]
    half = {document: index % 2 for index, document in enumerate(documents)}
    return [half[target.document] for target in table]


def cross_fitted(table: list[HeldOutTarget], columns: list[int]) -> dict[str, np.ndarray]:
    """Coefficients for each target id, fitted on the held-out targets of the other half."""
    sides = halves(table)
    coefs = {}
    for side in (0, 1):
        coef = pair_model(*pairs([t for t, s in zip(table, sides) if s != side]), columns)
        coefs.update({t.id: coef for t, s in zip(table, sides) if s == side})
    return coefs


def boosted_answers(table: list[HeldOutTarget], columns: list[int]) -> dict[str, str]:
    """The answers of a gradient-boosted model of the candidate pairs in place of the logistic
    regression, cross-fitted as ``cross_fitted`` (a nonlinear ranker, measured for
    comparison: the registered system holds linear coefficients)."""
    sides = halves(table)
    answers = {}
    for side in (0, 1):
        features, gold = pairs([t for t, s in zip(table, sides) if s != side])
        model = HistGradientBoostingClassifier(random_state=0).fit(features[:, columns], gold)
        scored = [t for t, s in zip(table, sides) if s == side and t.features is not None]
        decisions = np.split(model.decision_function(pairs(scored)[0][:, columns]),
                             np.cumsum([t.candidates.sum() for t in scored])[:-1])
        weights_of = {}
        for target, decision in zip(scored, decisions):
            scores = np.full(len(target.classes), -np.inf)
            scores[target.candidates] = decision
            weights_of[target.id] = np.exp(scores - scores.max())
        for target in (t for t, s in zip(table, sides) if s == side):
            answers[target.id] = answer(target, weights_of.get(target.id, target.svm))
    return answers


def answer(target: HeldOutTarget, weights: np.ndarray | None) -> str:
    """The key ``engine.decide`` chooses from a distribution over the target's classes."""
    given = None if weights is None else dict(zip(target.classes, weights.tolist()))
    return engine.decide(wordnet_senses(target.lemma, target.pos), given, first_sense)[0][0][0]


def ranked(target: HeldOutTarget, coef: np.ndarray) -> np.ndarray:
    scores = np.where(target.candidates, target.features @ coef, -np.inf)
    scores = np.exp(scores - scores.max())
    return scores / scores.sum()


def system_answers(table: list[HeldOutTarget], coefs: dict[str, np.ndarray] | None,
                   half_weight: float | None, gate: float | None = None) -> dict[str, str]:
    """Each target's answer: the svm's (``coefs`` None), the ranker's (``half_weight`` None),
    or the back-off mixture with half weight ``half_weight`` (``systems.sense_ranking``); with
    ``gate``, the svm's wherever its probability of its best sense is at least ``gate``."""
    answers = {}
    for target in table:
        weights = target.svm
        if (coefs is not None and target.features is not None
                and (gate is None or target.svm.max() < gate)):
            weights = ranked(target, coefs[target.id])
            if half_weight is not None:
                seen = target.lexelt_weight
                share = seen / (seen + half_weight)
                weights = share * target.svm + (1 - share) * weights
        answers[target.id] = answer(target, weights)
    return answers


def figures(table: list[HeldOutTarget], answers: dict[str, str]) -> dict:
    gold = {target.id: target.keys for target in table}
    right = sum(answers[target.id] in target.keys for target in table)
    macro = score_macro(gold, {identifier: [answers[identifier]] for identifier in gold})
    return {"targets": len(table), "accuracy": right / max(len(table), 1),
            "macro_f1": macro.f1, "senses": macro.senses}


def unseen_senses(args) -> dict:
    """The study on SemCor's first set of held-out files."""
    started = time.perf_counter()
    table, removal = cached_table(args)
    removed = set(removal["removed_senses"])
    result = study(interacting(as_if_untagged(table, removed)), removal)
    table = interacting(table)
    published = system_answers(table, cross_fitted(table, columns_without()), None)
    return {**result, "protocol": {**result["protocol"], "unseen_share": args.unseen_share,
                                   "seed": args.unseen_seed,
                                   "wordnet_order_and_counts": as_if_untagged.__doc__.split(
                                       "\n")[0]},
            f"rank {STACKED} with published wordnet order and counts": {
                "a_removed_senses": figures([target for target in table
                                             if removed.intersection(target.keys)], published),
                "c_all": figures(table, published)},
            "seconds": time.perf_counter() - started}


def with_bonus(coefs: dict[str, np.ndarray], bonus: float) -> dict[str, np.ndarray]:
    """The coefficients with ``bonus`` added to the scarce senses' (``1 / (1 + training
    weight)``): a lean towards senses training shows little or not at all."""
    column = PAIR_FEATURES.index("scarce")
    shifted = {}
    for identifier, coef in coefs.items():
        key = id(coef)  # one array per half: shift each once
        if key not in shifted:
            shifted[key] = coef.copy()
            shifted[key][column] += bonus
    return {identifier: shifted[id(coef)] for identifier, coef in coefs.items()}


def accuracy_of(targets: Sequence[HeldOutTarget], answers: dict[str, str]) -> float:
    return sum(answers[target.id] in target.keys for target in targets) / max(len(targets), 1)


def leans(table: list[HeldOutTarget], stacked: dict[str, np.ndarray]) -> dict[tuple, dict]:
    """The stacked ranker's answers with each scarce bonus of ``BONUSES`` (0 included) and each
    svm gate of ``GATES`` (None: no gate), by ``(bonus, gate)``."""
    return {(bonus, gate): system_answers(table, with_bonus(stacked, bonus), None, gate)
            for bonus in (0.0, *BONUSES) for gate in (None, *GATES)}


def best_leaning(targets: Sequence[HeldOutTarget], answers: dict[tuple, dict],
                 removed: set[str]) -> tuple:
    """The ``(bonus, gate)`` of ``answers`` best on the removed senses of ``targets`` among
    those whose accuracy on them stays within ``MAX_LOSS`` of the svm's."""
    floor = accuracy_of(targets, system_answers(targets, None, None)) - MAX_LOSS
    removed_targets = [target for target in targets if removed.intersection(target.keys)]
    eligible = [setting for setting, given in answers.items()
                if accuracy_of(targets, given) >= floor] or [(0.0, None)]
    return max(eligible, key=lambda setting: accuracy_of(removed_targets, answers[setting]))


def cross_chosen(table: list[HeldOutTarget], answers: dict[tuple, dict], removed: set[str]
                 ) -> tuple[dict[str, str], list[tuple]]:
    """Each target's answer with the ``best_leaning`` of the other half, and the choice each
    half got."""
    sides = halves(table)
    chosen = [best_leaning([target for target, half in zip(table, sides) if half != side],
                           answers, removed) for side in (0, 1)]
    return ({target.id: answers[chosen[half]][target.id] for target, half in zip(table, sides)},
            chosen)


def study(table: list[HeldOutTarget], removal: dict) -> dict:
    """Every system's figures on (a), (b) and (c), the chosen combination and its
    coefficients fitted on all of ``table``."""
    removed, counts = set(removal["removed_senses"]), Counter(removal["training_counts"])
    subsets = {
        "a_removed_senses": [t for t in table if removed.intersection(t.keys)],
        "b_rare_senses": [t for t in table if min(counts[key] for key in t.keys) <= RARE],
        "c_all": table}
    # name: the answers, and how to register it: (the pair features' columns, half weight,
    # scarce bonus, gate); only settings whose figures are held out are chosen from
    answers, registrable = {"svm": system_answers(table, None, None)}, {}
    stacked = {}
    for label, excluded in FEATURE_SETS.items():
        columns = columns_without(*excluded)
        stacked[label] = cross_fitted(table, columns)
        answers[f"rank {STACKED}{label}"] = system_answers(table, stacked[label], None)
        registrable[f"rank {STACKED}{label}"] = (columns, None, 0.0, None)
    answers[f"rank {STACKED}, gradient boosting"] = boosted_answers(table, columns_without())
    columns = columns_without(*SVM_FEATURES)
    alone = cross_fitted(table, columns)
    answers["rank alone"] = system_answers(table, alone, None)
    registrable["rank alone"] = (columns, None, 0.0, None)
    for half_weight in HALF_WEIGHTS:
        answers[f"rank {BACK_OFF} h={half_weight:g}"] = system_answers(table, alone, half_weight)
        registrable[f"rank {BACK_OFF} h={half_weight:g}"] = (columns, half_weight, 0.0, None)
    # The lean towards scarce senses and the gate, each chosen on the other half
    leaning = leans(table, stacked[""])
    for (bonus, gate), given in leaning.items():
        if bonus or gate:
            answers[f"rank {STACKED}, scarce bonus {bonus:g}"
                    + (f", svm below {gate:g}" if gate else "") + " (not held out)"] = given
    answers[f"rank {STACKED}, {LEANING}"], leaning_by_half = cross_chosen(table, leaning,
                                                                          removed)
    registrable[f"rank {STACKED}, {LEANING}"] = (columns_without(), None, None, None)
    results = {}
    for name, given in answers.items():
        results[name] = {subset: figures(targets, given) for subset, targets in subsets.items()}
        print(f"{name}: " + ", ".join(f"{subset} {100 * scores['accuracy']:.2f} %"
                                      for subset, scores in results[name].items()),
              file=sys.stderr, flush=True)
    floor = results["svm"]["c_all"]["accuracy"] - MAX_LOSS
    eligible = [name for name in registrable if "without" not in name
                and results[name]["c_all"]["accuracy"] >= floor]
    chosen = max(eligible, key=lambda name: results[name]["a_removed_senses"]["accuracy"],
                 default=None)
    registered = None
    if chosen is not None:
        columns, half_weight, bonus, gate = registrable[chosen]
        coef = pair_model(*pairs(table), columns)
        if bonus is None:  # chosen per half: on all the targets for the registration
            bonus, gate = best_leaning(table, leaning, removed)
            coef = with_bonus({"all": coef}, bonus)["all"]
        registered = {"coef": [round(float(value), 4) for value in coef],
                      "svm_half_weight": half_weight, "svm_gate": gate,
                      "scarce_bonus (in coef)": bonus}
    return {
        "protocol": {"held_out": "every 5th SemCor file (sorted), the first set; trained on the "
                                 "rest",
                     "rare": f"at most {RARE} SemCor training instances (0 included)",
                     "ranker": "cross-fitted on the two halves of the held-out documents",
                     "discourse": "left out for every system"},
        "removed_senses": len(removed), "training_instances": removal["training_instances"],
        "pair_features": list(PAIR_FEATURES), "systems": results,
        "leaning_chosen_by_half": leaning_by_half,
        "chosen": chosen, "rule": f"best (a) accuracy with (c) at most {100 * MAX_LOSS:.1f} "
                                  "points below the svm's",
        "registered": registered}
