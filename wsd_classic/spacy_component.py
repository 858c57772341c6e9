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
  Tagger's (``tasks.tagger``): restricted to the candidates, the system's back-off for a
  lemma it never saw, weight 1 for a word with one sense. ``wn1`` needs no model file.
- lexical sample (``senseval2-ls``, a ``bin/train --train`` run): a token whose lemma and coarse
  part of speech match a lexelt of the model (``art.n``: lemma *art*, NOUN). A verb's particles
  (dependency ``prt``: *call off*) become the instance's satellites, as ``<sat>`` elements are in
  training, so the ``syn:sat=`` feature and the phrasal-verb sense filter work as trained.

The component is a spaCy wrapper around ``tasks.tagger.Tagger``, which finds the targets,
featurizes each one's context with the model's own context rule and featurizer, predicts and
decides. For an all-words model, the targets of one lexelt in one doc are then pulled towards
each other's distributions by the model's discourse weight (one sense per discourse,
``systems.discourse``), as a document's are in ``--raganato``; ``bin/tag`` makes a doc of each
paragraph of plain text (``tasks.text_input``), so there a paragraph is the discourse.
``wsd_evidence`` stays the target's own: what its context says, before the pull. The pipeline
needs a tagger, lemmatizer and parser before this component.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Iterator, Optional

from spacy.language import Language
from spacy.tokens import Doc, Token

from wsd_classic import settings
from wsd_classic.tasks import catalogue
from wsd_classic.tasks.tagger import Tagger

# Tokens of the docs annotated together (see ``WsdTagger.pipe``): what 64 of bin/tag's largest
# blocks hold (``text_input.MAX_BLOCK_CHARS``), whose analyses spaCy has made anyway. Counted in
# tokens, not docs, so that short paragraphs make batches as large as long ones: a batch costs
# a call per lexelt it holds (SENSEVAL-2's contexts, 123 tokens each, made 98,339 calls in
# batches of 64 docs).
BATCH_TOKENS = 64_000

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
        self.tagger = Tagger.load(system, models_root, task, explain)

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

    def _annotate(self, docs: list[Doc]) -> None:
        for targets in self.tagger.tag_docs(docs):
            for target in targets:
                extension = target.token._  # a new object at every ``token._``
                extension.wsd_lexelt = target.lexelt
                extension.wsd_particles = [particle.i for particle in target.particles]
                extension.wsd_senses = target.senses
                extension.wsd_evidence = target.evidence
