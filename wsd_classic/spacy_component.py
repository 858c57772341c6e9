"""The ``wsd_classic`` spaCy pipeline component: sense distributions for a trained model's words.

    nlp = spacy.load("en_core_web_sm")
    nlp.add_pipe("wsd_classic", config={"task": "senseval2-ls", "system": "svm"})
    for token in nlp(text):
        if token._.wsd_senses:
            print(token.text, token._.wsd_lexelt, token._.wsd_senses[0])

The factory is registered through the ``spacy_factories`` entry point, so installing the package
is enough. A target is a token whose lemma and coarse part of speech match a lexelt of the model
(``art.n``: lemma *art*, NOUN; ``call.v``: VERB; ``.a``: ADJ). A verb's particles (dependency
``prt``: *call off*) become the instance's satellites, as ``<sat>`` elements are in training,
so the ``syn:sat=`` feature and the phrasal-verb sense filter work exactly as they were trained.

Each target's context is a ``ProcessedInstance`` built by ``preprocess.pipeline.to_processed``
(the function training uses) from a window of whole sentences, and its features come from the
same extractors. The pipeline needs a tagger, lemmatizer and parser before this component.
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Iterable, Iterator, Optional

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from wsd_classic import features, modelstore, settings, systems
from wsd_classic.corpora.model import Instance, Lexelt
from wsd_classic.errors import WsdError
from wsd_classic.preprocess.pipeline import to_processed

# SENSEVAL-2 lexical-sample contexts hold the target's sentence and the sentences before it,
# about 100 words before the target (median) and the rest of its sentence after: the window
# mirrors that, so bag-of-words features see as much text as they did in training.
CONTEXT_TOKENS_BEFORE = 120
PARTICLE_DEPENDENCY = "prt"
COARSE_POS = {"n": ("NOUN",), "v": ("VERB",), "a": ("ADJ",), "r": ("ADV",),
              "unk": ("NOUN", "VERB", "ADJ", "ADV")}

# Token attributes the component sets (None on tokens that are not targets).
for _name in ("wsd_lexelt", "wsd_senses", "wsd_particles", "wsd_evidence"):
    if not Token.has_extension(_name):
        Token.set_extension(_name, default=None)
if not Doc.has_extension("wsd_targets"):
    Doc.set_extension("wsd_targets", getter=lambda doc: [t for t in doc if t._.wsd_senses])


@Language.factory("wsd_classic", default_config={
    "task": "senseval2-ls", "system": "svm", "models_dir": None, "explain": False})
def make_wsd_tagger(nlp: Language, name: str, task: str, system: str,
                    models_dir: Optional[str], explain: bool) -> "WsdTagger":
    return WsdTagger(task, system, settings.models_dir(models_dir), explain)


class WsdTagger:
    """Sets, on every target token, ``wsd_lexelt``, ``wsd_senses`` (``[(sense key, weight)]``,
    best first, weights summing to 1), ``wsd_particles`` (token indices of its particles) and,
    with ``explain``, ``wsd_evidence`` (``[(feature, score)]`` behind the best sense)."""

    def __init__(self, task: str, system: str, models_root: Path, explain: bool = False):
        estimator = systems.SYSTEMS[systems.check_systems([system])[0]][0]
        if explain and not hasattr(estimator, "explain"):
            raise WsdError(f"the {system} system cannot explain its choices; dlist and svm can")
        self.trained = modelstore.load(models_root, task, system)
        self.explain = explain
        self.groups = estimator.feature_groups
        self.lexelt_of: dict[tuple[str, str], str] = {}
        for item in self.trained.models:
            lexelt = Lexelt(item)
            for pos in COARSE_POS[lexelt.pos]:
                self.lexelt_of[(lexelt.lemma.lower(), pos)] = item

    def __call__(self, doc: Doc) -> Doc:
        self._annotate([doc])
        return doc

    def pipe(self, docs: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        """Batches predict each lexelt's targets in one call, rather than one call per doc."""
        batch = []
        for doc in docs:
            batch.append(doc)
            if len(batch) >= batch_size:
                self._annotate(batch)
                yield from batch
                batch = []
        self._annotate(batch)
        yield from batch

    def targets(self, doc: Doc) -> Iterator[tuple[Token, str]]:
        for token in doc:
            item = self.lexelt_of.get((token.lemma_.lower(), token.pos_))
            if item is not None:
                yield token, item

    def _annotate(self, docs: list[Doc]) -> None:
        by_lexelt: dict[str, list[tuple[Token, list[str]]]] = defaultdict(list)
        for doc in docs:
            text = doc.text
            for token, item in self.targets(doc):
                particles = [child for child in token.children
                             if child.dep_ == PARTICLE_DEPENDENCY] if token.pos_ == "VERB" else []
                instance = Instance(str(token.i), item, text, _char_span(token),
                                    tuple(_char_span(particle) for particle in particles))
                processed = to_processed(instance, context_window(token))
                by_lexelt[item].append((token, features.extract(processed, self.groups)))
                token._.wsd_lexelt = item
                token._.wsd_particles = [particle.i for particle in particles]
        for item, found in by_lexelt.items():
            model = self.trained.models[item]
            rows = [row for _, row in found]
            proba = model.predict_proba(rows)
            evidence = model.explain(rows) if self.explain else [None] * len(rows)
            for (token, _), weights, reasons in zip(found, proba, evidence):
                ranked = sorted(((sense, float(weight)) for sense, weight
                                 in zip(model.classes_.tolist(), weights) if weight > 0),
                                key=lambda pair: -pair[1])
                token._.wsd_senses = ranked
                token._.wsd_evidence = reasons


def _char_span(token: Token) -> tuple[int, int]:
    return token.idx, token.idx + len(token.text)


def context_window(token: Token) -> Span:
    """The target's sentence and as many whole sentences before it as fit the window."""
    doc = token.doc
    sentence = token.sent
    start = sentence.start
    while start > 0:
        previous = doc[start - 1].sent
        if token.i - previous.start > CONTEXT_TOKENS_BEFORE:
            break
        start = previous.start
    return doc[start:sentence.end]
