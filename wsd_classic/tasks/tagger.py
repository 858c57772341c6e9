"""The one Tagger: a trained system applied to targets, under every tagging command.

``bin/tag`` on plain text (through the spaCy component), ``bin/tag --senseval`` and
``--raganato``, ``bin/evaluate`` and the AmbiStory benchmark's all-words distributions all go
through ``Tagger``: it featurizes a target's context with the model's own featurizer (only where
the answer depends on it: ``reads_context``), predicts each lexelt's targets in one call, decides
(``decide``) and pulls the targets of one lexelt in one document together (``decided``).

Deciding, for an all-words model, restricts the system's distribution to the target's candidates
(the lemma's WordNet 3.0 senses for its part of speech). A lemma SemCor never tagged, or none of
whose SemCor senses is a candidate, gets the system's back-off: WordNet's first sense for ``svm``
and ``dlist`` (as IMS does). ``mfs`` is the published SemCor MFS baseline (Raganato et al. 2017),
which knows SemCor's counts only: it takes the candidate first in WordNet's database order
instead, since WordNet's first sense is the ``wn1`` baseline's answer (docs/choices.md:
``python -m bench semcor --mfs-back-offs``). Every target gets exactly one key. A lexical-sample
model's answer is its distribution, senses of no weight left out.
"""
from __future__ import annotations

import functools
import os
from collections import defaultdict
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import accumulate, chain
from pathlib import Path

from spacy.tokens import Doc, Token

from wsd_classic import modelstore, systems
from wsd_classic.corpora.allwords import (AllWordsCorpus, Sentence, Target, UNIVERSAL_POS,
                                          read_raganato_corpus, wordnet_lemma)
from wsd_classic.corpora.model import Instance, Lexelt, LexicalSample
from wsd_classic.errors import WsdError
from wsd_classic.features.featurizer import Featurizer, row, sentence_index
from wsd_classic.preprocess.document import ProcessedInstance
from wsd_classic.preprocess.pipeline import to_processed, with_looked_up_context
from wsd_classic.modelstore import TrainedSystem
from wsd_classic.pos import SPACY_TAGS
from wsd_classic.systems import BackOff, discourse
from wsd_classic.systems.personalised_pagerank import WALK_GROUP
from wsd_classic.wordnet import wordnet_senses
from wsd_classic.tasks import catalogue, engine
from wsd_classic.tasks.allwords_features import as_lexical_sample, featurize
from wsd_classic.tasks.catalogue import Task

Senses = list[tuple[str, float]]
PARTICLE_DEPENDENCY = "prt"


@dataclass(frozen=True)
class TaggedInstance:
    """A target's answer: ``senses`` is the distribution over its candidates, best first,
    summing to 1; ``key`` the chosen sense; ``rank`` its 1-based position in WordNet's order."""

    instance_id: str
    senses: Senses
    key: str
    rank: int


class Tagger:
    """A trained system that tags any number of corpora, texts or lexical samples.

    ``back_off`` and ``discourse_weight`` (how far the targets of one lexelt in one document are
    pulled towards each other's distributions, ``systems.discourse``) default to the system's
    and the model's; ``explain``: predictions carry the evidence behind the best sense.
    """

    def __init__(self, trained: TrainedSystem, back_off: BackOff | None = None,
                 discourse_weight: float | None = None, explain: bool = False):
        self.trained = trained
        self.system = systems.get(trained.system)
        if explain and not hasattr(self.system.estimator or self.system.scorer, "explain"):
            raise WsdError(f"the {trained.system} system cannot explain its choices; dlist, "
                           "svm, rank and ppr can")
        # A context scorer (ppr) answers a whole corpus from its model's resources.
        self.scorer = (self.system.scorer.from_resources(trained.params, trained.resources)
                       if self.system.scorer is not None else None)
        self.back_off = back_off or self.system.back_off
        self.discourse_weight = (trained.discourse_weight if discourse_weight is None
                                 else discourse_weight)
        self.explain = explain
        self.all_words = trained.kind == catalogue.ALL_WORDS
        self._reads_context: dict[str, bool] = {}

    @classmethod
    def load(cls, system: str, models_root: Path, task: str = catalogue.SEMCOR.name,
             explain: bool = False) -> "Tagger":
        """The ``task``/``system`` model of ``models_root``; a system with nothing to fit
        (``wn1``) has no model file and tags with the task's context rule, and no discourse
        weight: training chooses one."""
        if not systems.get(system).has_model_file:
            registered = catalogue.get(task)
            trained = TrainedSystem(task, system, {}, featurizer=Featurizer(registered.context),
                                    kind=registered.kind)
        else:
            trained = modelstore.load(models_root, task, system)
        return cls(trained, explain=explain)

    # --- predicting and deciding ---------------------------------------------------------------

    def reads_context(self, lexelt: str) -> bool:
        """Whether the system's answer for ``lexelt`` (one it has a model of) depends on the
        context: not for a lexelt trained on one sense, whose estimator saw no features."""
        reads = self._reads_context.get(lexelt)
        if reads is None:  # asked of every target: kept per lexelt
            reads = self._reads_context[lexelt] = (
                bool(self.system.feature_groups)
                and len(self.trained.models[lexelt].classes_) > 1)
        return reads

    def predict(self, lexelt: str, rows: list[list[str]]
                ) -> tuple[list[dict[str, float]], list | None]:
        """The model's ``{sense: weight}`` for each feature row of ``lexelt``'s targets, in one
        call, and with ``explain`` the evidence behind each one's best sense (else None)."""
        model = self.trained.models[lexelt]
        return engine.predict(model, rows), model.explain(rows) if self.explain else None

    def decide(self, lexelt: str, weights: dict[str, float] | None) -> tuple[Senses, int | None]:
        """The answer of a target of ``lexelt`` from the system's ``weights`` (None: it knows
        nothing of the lexelt), and for an all-words model the WordNet rank of its best sense
        (``engine.decide``)."""
        if self.all_words:
            lemma, pos = lexelt.rsplit(".", 1)
            return engine.decide(wordnet_senses(lemma, pos), weights, self.back_off)
        return sorted(((sense, weight) for sense, weight in weights.items() if weight > 0),
                      key=lambda pair: -pair[1]), None

    def decided(self, lexelts: Sequence[str], weights: Sequence[dict[str, float] | None],
                units: Sequence[Hashable]) -> list[tuple[Senses, int | None]]:
        """Each target's answer (``decide``), then pulled towards those of the others of its
        discourse unit (a ``(document, lexelt)``) by the discourse weight, and decided again."""
        answers = [self.decide(lexelt, own) for lexelt, own in zip(lexelts, weights)]
        pulled = discourse.pulled_together([senses for senses, _ in answers], units,
                                           self.discourse_weight)
        return [answer if moved is None else self.decide(lexelt, moved)
                for answer, lexelt, moved in zip(answers, lexelts, pulled)]

    # --- all-words corpora (--raganato, bin/evaluate, AmbiStory) -------------------------------

    def tag(self, corpus: AllWordsCorpus, jobs: int = 1,
            progress: bool | None = None) -> list[TaggedInstance]:
        """Every target of ``corpus``, in corpus order, with exactly one candidate key."""
        return self.answers(corpus, self.distributions(corpus, jobs, progress))

    def answers(self, corpus: AllWordsCorpus,
                distributions: dict[str, dict[str, float]]) -> list[TaggedInstance]:
        """Every target of ``corpus`` decided from the system's ``distributions`` (by target
        id), then pulled towards the others of its lexelt in its document."""
        targets = corpus.targets
        lexelts = [target.lexelt for target in targets]
        decided = self.decided(
            lexelts, [distributions.get(target.id) for target in targets],
            [(corpus.sentences[target.sentence].document, lexelt)
             for target, lexelt in zip(targets, lexelts)])
        return [TaggedInstance(target.id, senses, senses[0][0], rank)
                for target, (senses, rank) in zip(targets, decided)]

    def distributions(self, corpus: AllWordsCorpus, jobs: int = 1,
                      progress: bool | None = None) -> dict[str, dict[str, float]]:
        """The system's sense distribution of every target of a lexelt it has a model of (of
        every target, for a context scorer)."""
        if self.scorer is not None and self.system.estimator is None:
            return self.scorer.distributions(corpus, jobs=jobs, progress=progress)
        models = self.trained.models
        sample = as_lexical_sample(
            corpus, (target for target in corpus.targets if target.lexelt in models))
        featurized = featurize(corpus, sample, self.trained.featurizer,
                               lambda target: self.reads_context(target.lexelt), jobs, progress)
        own = {instance: weights for _, instance, weights in engine.tag(self.trained, featurized)}
        return own if self.scorer is None else self._mixed(corpus, own, jobs, progress)

    def _mixed(self, corpus: AllWordsCorpus, own: dict[str, dict[str, float]], jobs: int = 1,
               progress: bool | None = False) -> dict[str, dict[str, float]]:
        """A system with both lexelt models and a context scorer (``hybrid``): its models'
        distributions ``own`` (by target id) mixed with its scorer's over the corpus."""
        return self.scorer.mixed_distributions(
            corpus.targets, own,
            self.scorer.distributions(corpus, jobs=jobs, progress=progress, beliefs=own),
            # the corpus's lexelts only: each estimator asked for is built, and a loaded model
            # keeps a budget's worth (``modelstore.LazyModels``)
            {lexelt: self.trained.models[lexelt].support_
             for lexelt in {target.lexelt for target in corpus.targets}
             if lexelt in self.trained.models})

    # --- lexical samples (--senseval) ----------------------------------------------------------

    def tag_sample(self, sample: LexicalSample, jobs: int = 1, description: str = "spaCy"
                   ) -> Iterator[tuple[str, str, dict[str, float]]]:
        """``(lexelt, instance id, {sense: weight})`` for every instance of a lexelt the model
        knows, each in the context it comes with; with the evidence of the model's walk over
        all the sample's contexts at once when its estimators read it, as ``bin/train`` adds it."""
        docs = engine.analyse(sample, jobs, description)
        corpus = engine.featurize(sample, self.trained.featurizer, jobs, docs=docs)
        if self.trained.walk is not None:
            engine.add_walk_evidence([corpus], [docs], self.trained.walk, jobs)
        yield from engine.tag(self.trained, corpus)

    # --- spaCy docs (bin/tag on plain text, the spaCy component) -------------------------------

    @functools.cached_property
    def _lexelt_of(self) -> dict[tuple[str, str], str]:
        """A lexical-sample model's lexelts by lower-case lemma and coarse part of speech."""
        found = {}
        for item in self.trained.models:
            lexelt = Lexelt(item)
            # a lexelt of no known part of speech ("unk") matches a word of any
            for pos in ((SPACY_TAGS[lexelt.pos],) if lexelt.pos in SPACY_TAGS
                        else tuple(UNIVERSAL_POS)):
                found[(lexelt.lemma.lower(), pos)] = item
        return found

    def text_targets(self, doc: Doc) -> Iterator[tuple[Token, str]]:
        """Every target token of ``doc`` with its lexelt: for an all-words model, every noun,
        verb, adjective and adverb whose lemma WordNet 3.0 has for that part of speech; for a
        lexical-sample model, a token whose lemma and coarse part of speech match a lexelt of
        the model (``art.n``: lemma *art*, NOUN)."""
        for token in doc:
            if self.all_words:
                pos = UNIVERSAL_POS.get(token.pos_)
                lemma = wordnet_lemma(token.lemma_, pos) if pos else None
                item = f"{lemma}.{pos}" if lemma else None
            else:
                item = self._lexelt_of.get((token.lemma_.lower(), token.pos_))
            if item is not None:
                yield token, item

    def tag_docs(self, docs: Sequence[Doc]) -> list[list[TextTarget]]:
        """The targets of each doc, in order, with their answers; the targets of one lexelt in
        all ``docs`` are predicted in one call, and pulled together within their doc.

        A verb's particles (dependency ``prt``: *call off*) are the target's satellites, as
        ``<sat>`` elements are in training. Each target's context is the model's own context
        rule applied to the doc (``ContextCache``).

        Lexelt by lexelt: its estimator is built (or found among those kept) once, its targets
        featurized and predicted, and it may then be dropped (``modelstore.LazyModels``)."""
        if self.scorer is not None and self.system.estimator is None:
            return self._scored_docs(docs)
        found = [list(self._doc_targets(doc)) for doc in docs]
        by_lexelt: dict[str, list[tuple[int, TextTarget]]] = defaultdict(list)
        for number, targets in enumerate(found):
            for target in targets:
                if target.lexelt in self.trained.models:
                    by_lexelt[target.lexelt].append((number, target))
        groups = self.system.feature_groups
        contexts: dict[int, ContextCache] = {}  # per doc, made for its first target that reads it
        # The estimators kept from earlier batches are used first, before building others can
        # drop them: in the batches' order of first occurrence, a text whose lexelts recur
        # would otherwise drop each one just before it is needed again.
        kept = getattr(self.trained.models, "built", self.trained.models)
        for item in sorted(by_lexelt, key=lambda item: item not in kept):
            entries = by_lexelt[item]
            rows = [[] for _ in entries]
            if self.reads_context(item):
                for number, _ in entries:
                    if number not in contexts:
                        contexts[number] = ContextCache(self.trained.featurizer, docs[number],
                                                        looked_up=not self.all_words)
                rows = [row(features, groups) for features in self._features(
                    [contexts[number].instance(target.token, item, target.particles)
                     for number, target in entries])]
            weights, evidence = self.predict(item, rows)
            for position, ((_, target), own) in enumerate(zip(entries, weights)):
                target.weights = own
                target.evidence = None if evidence is None else evidence[position]
        if self.scorer is not None:
            self._rescored(docs, found, mix=True)
        self._decide_docs(found)
        return found

    def _features(self, contexts: list[ProcessedInstance]) -> list[dict[str, list]]:
        """Each context's features by group, from the model's featurizer and, when its
        estimators read it, its walk's evidence (``engine.walk_evidence``), walked together."""
        features = [self.trained.featurizer.by_group(context) for context in contexts]
        if self.trained.walk is not None:
            numbered = [replace(context, id=str(number))
                        for number, context in enumerate(contexts)]
            evidence = engine.walk_evidence(numbered, self.trained.walk)
            for context, groups in zip(numbered, features):
                groups[WALK_GROUP] = evidence[context.id]
        return features

    def _doc_targets(self, doc: Doc) -> Iterator[TextTarget]:
        """``text_targets`` with each verb's particles (dependency ``prt``)."""
        for token, item in self.text_targets(doc):
            yield TextTarget(token, item, [child for child in token.children
                                           if child.dep_ == PARTICLE_DEPENDENCY]
                             if token.pos_ == "VERB" else [])

    def _decide_docs(self, found: list[list[TextTarget]]) -> None:
        """Each doc's targets decided from their weights, pulled together within the doc."""
        for targets in found:
            lexelts = [target.lexelt for target in targets]
            for target, (senses, _) in zip(targets, self.decided(
                    lexelts, [target.weights for target in targets], lexelts)):
                target.senses = senses

    def _scored_docs(self, docs: Sequence[Doc]) -> list[list[TextTarget]]:
        """``tag_docs`` for a context scorer: the docs' targets as one all-words corpus, a doc
        a document and spaCy's sentences its sentences, scored at once."""
        found = [list(self._doc_targets(doc)) for doc in docs]
        corpus, flat = self._rescored(docs, found, mix=False)
        self._decide_docs(found)
        if self.explain:
            for target, text_target in zip(corpus.targets, flat):
                text_target.evidence = self.scorer.explain(corpus, target,
                                                           text_target.senses[0][0])
        return found

    def _rescored(self, docs: Sequence[Doc], found: list[list[TextTarget]],
                  mix: bool) -> tuple[AllWordsCorpus, list[TextTarget]]:
        """The docs' targets as one all-words corpus (``docs_corpus``), their weights the
        context scorer's (``mix``: mixed with those the lexelt models gave them, ``_mixed``);
        returns the corpus and the targets in its order."""
        corpus = docs_corpus(docs, found)
        flat = list(chain(*found))
        if mix:
            weights = self._mixed(corpus, {target.id: text_target.weights
                                           for target, text_target in zip(corpus.targets, flat)})
        else:
            weights = self.scorer.distributions(corpus, progress=False)
        for target, text_target in zip(corpus.targets, flat):
            text_target.weights = weights[target.id]
        return corpus, flat


def docs_corpus(docs: Sequence[Doc], found: Sequence[Sequence[TextTarget]]) -> AllWordsCorpus:
    """spaCy docs as an all-words corpus: doc ``d``'s sentences as document ``d``'s, and
    ``found[d]``, its targets (in doc order), as the corpus's targets."""
    sentences, targets = [], []
    for number, (doc, doc_targets) in enumerate(zip(docs, found)):
        starts = {}
        for sentence in doc.sents:
            starts[sentence.start] = len(sentences)
            sentences.append(Sentence(f"{number}.s{len(starts)}", str(number),
                                      tuple(token.text for token in sentence)))
        for target in doc_targets:
            sentence = target.token.sent
            lemma, pos = target.lexelt.rsplit(".", 1)
            targets.append(Target(f"{number}.t{target.token.i}", lemma, pos,
                                  starts[sentence.start], target.token.i - sentence.start))
    return AllWordsCorpus("text", sentences, targets)

def tag_raganato(path: str | os.PathLike, system: str, models_root: Path, *, jobs: int = 1,
                 progress: bool | None = None,
                 task: Task = catalogue.SEMCOR) -> Iterator[TaggedInstance]:
    """Tag every instance of a Raganato-format ``*.data.xml`` file, in file order."""
    tagger = Tagger.load(task.check_systems([system])[0], models_root, task.name)
    yield from tagger.tag(read_raganato_corpus(path), jobs, progress)


@dataclass
class TextTarget:
    """A target token of a spaCy doc: its lexelt and particles; the system's ``weights``
    (None: no model of the lexelt), the ``evidence`` behind them with ``explain``, and the
    answer, ``senses`` (best first, summing to 1)."""

    token: Token
    lexelt: str
    particles: list[Token]
    weights: dict[str, float] | None = None
    evidence: list | None = None
    senses: Senses = field(default_factory=list)


class ContextCache:
    """The processed context of each target of one doc; targets whose context rule gives the
    same span share one analysis, and differ only in which token is the target. ``looked_up``:
    lemmas outside the target's sentence from the lookup table, as a lexical sample's
    (``preprocess.pipeline.with_looked_up_context``).

    A context is turned into a ``ProcessedInstance`` by ``preprocess.pipeline.to_processed``,
    the function training uses, under the model's context rule; the Tagger featurizes it
    (``Tagger._features``).
    """

    def __init__(self, featurizer: Featurizer, doc: Doc, looked_up: bool = False):
        self.featurizer = featurizer
        self.looked_up = looked_up
        self.sentences = list(doc.sents)
        self.starts = [sentence.start for sentence in self.sentences]
        # The whole doc analysed once; a context is a slice of it. ``kept_before[i]``: the
        # tokens before doc token i that are not whitespace, which the analysis drops.
        first = next(token for token in doc if not token.is_space)
        self.analysis = to_processed(Instance("", "", doc.text, _char_span(first)), doc)
        self.kept_before = list(accumulate((not token.is_space for token in doc), initial=0))
        self.windows: dict[tuple[int, int], ProcessedInstance] = {}

    def instance(self, token: Token, item: str, particles: list[Token]) -> ProcessedInstance:
        """The processed context of target ``token`` of lexelt ``item`` (``particles``: its
        satellites), as training analyses its instances."""
        span = self.featurizer.context.window(
            self.sentences, sentence_index(self.starts, token.i), token.i)
        start, end = self.kept_before[span.start], self.kept_before[span.end]
        if (start, end) not in self.windows:
            self.windows[(start, end)] = self.analysis.window(start, end, start)
        doc = replace(self.windows[(start, end)], id=str(token.i), lexelt=item,
                      target=self.kept_before[token.i] - start,
                      sats=tuple(self.kept_before[particle.i] - start for particle in particles))
        return with_looked_up_context(doc) if self.looked_up else doc


def _char_span(token: Token) -> tuple[int, int]:
    return token.idx, token.idx + len(token.text)
