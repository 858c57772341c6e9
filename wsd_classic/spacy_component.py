"""The ``wsd_classic`` spaCy pipeline component: sense distributions for the words of a text.

    nlp = spacy.load("en_core_web_sm")
    nlp.add_pipe("wsd_classic", config={"task": "semcor", "system": "svm"})
    for token in nlp(text):
        if token._.wsd_senses:
            print(token.text, token._.wsd_lexelt, token._.wsd_senses[0])

The factory is registered through the ``spacy_factories`` entry point, so installing the package
is enough. What a target is depends on the model's task kind:

- all-words (``semcor``): every noun, verb, adjective and adverb whose lemma WordNet 3.0 has
  for that part of speech; its candidates are those WordNet senses, and the answer is the
  engine's (``tasks.engine.decide``): restricted to the candidates, the system's back-off for a
  lemma it never saw, weight 1 for a word with one sense. ``wn1`` needs no model file.
- lexical sample (``senseval2-ls``, a ``bin/train --train`` run): a token whose lemma and coarse
  part of speech match a lexelt of the model (``art.n``: lemma *art*, NOUN). A verb's particles
  (dependency ``prt``: *call off*) become the instance's satellites, as ``<sat>`` elements are in
  training, so the ``syn:sat=`` feature and the phrasal-verb sense filter work as trained.

For an all-words model, the targets of one lexelt in one doc are then pulled towards each
other's distributions by the task's discourse weight for the system (one sense per discourse,
``systems.discourse``), as ``tasks.allwords`` does within a document; ``bin/tag`` makes a doc of
each paragraph of plain text (``tasks.text_input``), so there a paragraph is the discourse.
``wsd_evidence`` stays the target's own: what its context says, before the pull.

Each target's context is the model's own context rule (``features.featurizer``, read from the
model header) applied to the doc, turned into a ``ProcessedInstance`` by
``preprocess.pipeline.to_processed`` (the function training uses), and featurized by the same
featurizer. For a lexical-sample model, the lemmas outside the target's sentence are then the
lookup lemmas its training contexts had (``preprocess.pipeline.with_looked_up_context``). The
pipeline needs a tagger, lemmatizer and parser before this component.
"""
from __future__ import annotations

from collections import defaultdict
from itertools import accumulate
from dataclasses import replace
from pathlib import Path
from typing import Iterable, Iterator, Optional

from spacy.language import Language
from spacy.tokens import Doc, Token

from wsd_classic import modelstore, settings, systems
from wsd_classic.corpora.model import Instance, Lexelt
from wsd_classic.errors import WsdError
from wsd_classic.features.featurizer import Featurizer, row, sentence_index
from wsd_classic.preprocess.document import ProcessedInstance
from wsd_classic.preprocess.pipeline import to_processed, with_looked_up_context
from wsd_classic.systems import discourse
from wsd_classic.wordnet import wordnet_senses
from wsd_classic.tasks import catalogue, engine
from wsd_classic.corpora.allwords import UNIVERSAL_POS, wordnet_lemma

PARTICLE_DEPENDENCY = "prt"
# Tokens of the docs annotated together (see ``WsdTagger.pipe``): what 64 of bin/tag's largest
# blocks hold (``text_input.MAX_BLOCK_CHARS``), whose analyses spaCy has made anyway. Counted in
# tokens, not docs, so that short paragraphs make batches as large as long ones: a batch costs
# a call per lexelt it holds (SENSEVAL-2's contexts, 123 tokens each, made 98,339 calls in
# batches of 64 docs).
BATCH_TOKENS = 64_000
COARSE_POS = {"n": ("NOUN",), "v": ("VERB",), "a": ("ADJ",), "r": ("ADV",),
              "unk": ("NOUN", "VERB", "ADJ", "ADV")}

# Token attributes the component sets (None on tokens that are not targets).
for _name in ("wsd_lexelt", "wsd_senses", "wsd_particles", "wsd_evidence"):
    if not Token.has_extension(_name):
        Token.set_extension(_name, default=None)
if not Doc.has_extension("wsd_targets"):
    Doc.set_extension("wsd_targets", getter=lambda doc: [t for t in doc if t._.wsd_senses])


@Language.factory("wsd_classic", default_config={
    "task": catalogue.SEMCOR.name, "system": "svm", "models_dir": None, "explain": False})
def make_wsd_tagger(nlp: Language, name: str, task: str, system: str,
                    models_dir: Optional[str], explain: bool) -> "WsdTagger":
    return WsdTagger(task, system, settings.models_dir(models_dir), explain)


class WsdTagger:
    """Sets, on every target token, ``wsd_lexelt``, ``wsd_senses`` (``[(sense key, weight)]``,
    best first, weights summing to 1), ``wsd_particles`` (token indices of its particles) and,
    with ``explain``, ``wsd_evidence`` (``[(feature, score)]`` behind the best sense)."""

    def __init__(self, task: str, system: str, models_root: Path, explain: bool = False):
        self.system = systems.get(system)
        if explain and not hasattr(self.system.estimator, "explain"):
            raise WsdError(f"the {system} system cannot explain its choices; dlist and svm can")
        if self.system.estimator is None:  # wn1: the task's own settings, no model file
            registered = catalogue.get(task)
            self.trained, self.kind = None, registered.kind
            self.featurizer = Featurizer(registered.context)
        else:
            self.trained = modelstore.load(models_root, task, system)
            self.kind, self.featurizer = self.trained.kind, self.trained.featurizer
        self.explain = explain
        self.all_words = self.kind == catalogue.ALL_WORDS
        registered = catalogue.TASKS.get(task)
        self.discourse_weight = (registered.discourse_weights.get(system, 0.0)
                                 if self.all_words and registered else 0.0)
        self.lexelt_of: dict[tuple[str, str], str] = {}
        if not self.all_words:
            for item in self.trained.models:
                lexelt = Lexelt(item)
                for pos in COARSE_POS[lexelt.pos]:
                    self.lexelt_of[(lexelt.lemma.lower(), pos)] = item

    def __call__(self, doc: Doc) -> Doc:
        self._annotate([doc])
        return doc

    def pipe(self, docs: Iterable[Doc], batch_size: int | None = None) -> Iterator[Doc]:
        """Batches predict each lexelt's targets in one call, rather than one call per doc.

        ``batch_size`` (spaCy's, set for its own memory: 8 blocks in ``bin/tag``) is not
        used: a batch costs a call per lexelt it holds, so docs of ``BATCH_TOKENS`` tokens
        make one."""
        batch, tokens = [], 0
        for doc in docs:
            batch.append(doc)
            tokens += len(doc)
            if tokens >= BATCH_TOKENS:
                self._annotate(batch)
                yield from batch
                batch, tokens = [], 0
        self._annotate(batch)
        yield from batch

    def targets(self, doc: Doc) -> Iterator[tuple[Token, str]]:
        """Every target token of ``doc`` with its lexelt."""
        for token in doc:
            if self.all_words:
                pos = UNIVERSAL_POS.get(token.pos_)
                lemma = wordnet_lemma(token.lemma_, pos) if pos else None
                item = f"{lemma}.{pos}" if lemma else None
            else:
                item = self.lexelt_of.get((token.lemma_.lower(), token.pos_))
            if item is not None:
                yield token, item

    def _reads_context(self, item: str) -> bool:
        """Whether the model answers ``item`` from the context (else from no features at all:
        an all-words lexelt trained on one sense, as ``tasks.allwords`` tags it)."""
        model = self.trained.models[item]
        return not self.all_words or (bool(self.system.feature_groups)
                                      and len(model.classes_) > 1)

    def _annotate(self, docs: list[Doc]) -> None:
        by_lexelt: dict[str, list[tuple[Token, list[str]]]] = defaultdict(list)
        targets_of_docs: list[list[tuple[Token, str]]] = []
        for doc in docs:
            contexts = None  # made for the first target that reads its context
            targets_of_docs.append(list(self.targets(doc)))
            for token, item in targets_of_docs[-1]:
                particles = [child for child in token.children
                             if child.dep_ == PARTICLE_DEPENDENCY] if token.pos_ == "VERB" else []
                extension = token._  # a new object at every ``token._``
                extension.wsd_lexelt = item
                extension.wsd_particles = [particle.i for particle in particles]
                if self.trained is None or item not in self.trained.models:
                    self._answer(token, item, None, None)
                    continue
                features = []
                if self._reads_context(item):
                    contexts = contexts or ContextCache(self.featurizer, doc,
                                                        looked_up=not self.all_words)
                    features = row(contexts.features(token, item, particles),
                                   self.system.feature_groups)
                by_lexelt[item].append((token, features))
        for item, found in by_lexelt.items():
            model = self.trained.models[item]
            rows = [features for _, features in found]
            evidence = model.explain(rows) if self.explain else [None] * len(rows)
            for (token, _), weights, reasons in zip(found, engine.predict(model, rows), evidence):
                self._answer(token, item, weights, reasons)
        if self.discourse_weight:
            for targets in targets_of_docs:
                self._pull_together(targets)

    def _pull_together(self, targets: list[tuple[Token, str]]) -> None:
        """The ``(token, lexelt)`` targets of one doc, those of one lexelt pulled towards each
        other's distributions, as the all-words tagger does within a document
        (``systems.discourse``)."""
        pulled = discourse.pulled_together([token._.wsd_senses for token, _ in targets],
                                           [item for _, item in targets],
                                           self.discourse_weight)
        for (token, item), weights in zip(targets, pulled):
            if weights is not None:
                token._.wsd_senses = self._senses(item, weights)

    def _answer(self, token: Token, item: str, weights: dict[str, float] | None,
                evidence) -> None:
        extension = token._
        extension.wsd_senses, extension.wsd_evidence = self._senses(item, weights), evidence

    def _senses(self, item: str, weights: dict[str, float] | None) -> list[tuple[str, float]]:
        if self.all_words:
            lemma, pos = item.rsplit(".", 1)
            return engine.decide(wordnet_senses(lemma, pos), weights, self.system.back_off)[0]
        return sorted(((sense, weight) for sense, weight in weights.items() if weight > 0),
                      key=lambda pair: -pair[1])


class ContextCache:
    """The processed context of each target of one doc; targets whose context rule gives the
    same span share one analysis, and differ only in which token is the target. ``looked_up``:
    lemmas outside the target's sentence from the lookup table, as a lexical sample's."""

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

    def features(self, token: Token, item: str, particles: list[Token]) -> dict[str, list[str]]:
        span = self.featurizer.context.window(
            self.sentences, sentence_index(self.starts, token.i), token.i)
        start, end = self.kept_before[span.start], self.kept_before[span.end]
        if (start, end) not in self.windows:
            self.windows[(start, end)] = self.analysis.window(start, end, start)
        doc = replace(self.windows[(start, end)], id=str(token.i), lexelt=item,
                      target=self.kept_before[token.i] - start,
                      sats=tuple(self.kept_before[particle.i] - start for particle in particles))
        return self.featurizer.by_group(with_looked_up_context(doc) if self.looked_up else doc)


def _char_span(token: Token) -> tuple[int, int]:
    return token.idx, token.idx + len(token.text)
