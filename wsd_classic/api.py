"""The Python API: a trained system as an object that tags text or one word (docs/api.md).

    import wsd_classic
    tagger = wsd_classic.load("semcor", "svm")     # the models of bin/train, under models/
    for span in tagger.tag("She sat on the bank of the river."):
        print(span.text, span.key, span.synset, span.gloss)
    span = tagger.disambiguate(["She", "sat", "on", "the", "bank"], 4)

A thin layer over what ``bin/tag`` runs: ``tag`` cuts the text into the blocks ``bin/tag`` cuts a
file into (``tasks.text_input``) and tags them through the same spaCy pipeline and component
(``tasks.tagging``, ``spacy_component``), so a text gets the answers ``bin/tag`` gives the same
file; ``disambiguate`` runs that pipeline on given tokens. Problems are the one-line ``WsdError``
of the commands.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from spacy.tokens import Doc

from wsd_classic import modelstore, settings, systems, wordnet
from wsd_classic.errors import WsdError
from wsd_classic.pos import SPACY_TAGS, UNIVERSAL_POS
from wsd_classic.tasks import catalogue, tagging
from wsd_classic.tasks.text_input import text_blocks

COMPONENT = "wsd_classic"
# The document name of a text given to ``tag``, which its one-line errors start with.
TEXT_NAME = "<text>"
# ``disambiguate``'s ``pos``: WordNet's letters (``s``: an adjective satellite) or spaCy's tags.
SPACY_POS = {**SPACY_TAGS, **{tag: tag for tag in UNIVERSAL_POS}}


@dataclass(frozen=True)
class Sense:
    """A candidate sense: its key (a WordNet 3.0 sense key, or a lexical sample's sense id), its
    weight in the distribution, and, where WordNet 3.0 knows the key, its synset's NLTK name
    (``bank.n.01``) and gloss (else None)."""

    key: str
    weight: float
    synset: str | None
    gloss: str | None


@dataclass(frozen=True)
class Span:
    """A target word of a text: ``start``/``end`` are character offsets into that text (for
    ``disambiguate``, the tokens joined by spaces), ``senses`` the distribution over its
    candidates, best first, weights summing to 1; ``particles`` a verb's particles (``call
    off``) as ``(start, end, text)``; ``evidence`` with ``explain``, ``[(feature, score)]``
    behind the best sense (``bin/tag --explain``)."""

    text: str
    start: int
    end: int
    lexelt: str
    senses: tuple[Sense, ...]
    particles: tuple[tuple[int, int, str], ...] = ()
    evidence: tuple[tuple[str, float], ...] | None = None

    @property
    def key(self) -> str:
        """The best sense's key."""
        return self.senses[0].key

    @property
    def synset(self) -> str | None:
        return self.senses[0].synset

    @property
    def gloss(self) -> str | None:
        return self.senses[0].gloss


@dataclass(frozen=True)
class Installed:
    """A system ``load`` accepts: ``path`` its model file (None: it needs none, ``wn1``);
    ``on_request``: not one of the task's default systems (``bin/train --systems`` names it)."""

    task: str
    system: str
    path: Path | None
    on_request: bool


class Disambiguator:
    """A trained system of a task, loaded once, that tags texts (``tag``) and words
    (``disambiguate``). ``nlp`` is its spaCy pipeline, ending in the ``wsd_classic``
    component."""

    def __init__(self, task: str, system: str, models_dir: str | os.PathLike | None = None,
                 explain: bool = False):
        self.task, self.system = task, system
        self.models_dir = settings.models_dir(models_dir)
        # An ad-hoc lexical sample (bin/train --train) has models but no catalogue entry.
        if not _tags(task):
            raise WsdError(f"task {task} does not tag words; tasks that do: "
                           f"{', '.join(name for name in catalogue.TASKS if _tags(name))}")
        if task in catalogue.TASKS:
            catalogue.get(task).check_systems([system])
        else:
            systems.check_systems([system])
        self.nlp = tagging.tagging_pipeline(task, system, self.models_dir, explain)

    def __repr__(self) -> str:
        return f"Disambiguator(task={self.task!r}, system={self.system!r}, " \
               f"models_dir={str(self.models_dir)!r})"

    def tag(self, text: str) -> list[Span]:
        """Every target of ``text``, in order; each paragraph (text up to a blank line) is one
        discourse, whose targets of one lemma are pulled towards each other's senses."""
        if not isinstance(text, str):
            raise WsdError(f"tag() takes a str, not {type(text).__name__}")
        return [_span(target.text, target.start, target.end, target.lexelt, target.senses,
                      target.particles, target.evidence)
                for block in tagging.tag_blocks(self.nlp, text_blocks(text, TEXT_NAME))
                for target in block.targets]

    def disambiguate(self, tokens: Sequence[str], index: int, lemma: str | None = None,
                     pos: str | None = None) -> Span | None:
        """The senses of ``tokens[index]`` in the sentence ``tokens``; ``lemma`` and ``pos``
        (``n``, ``v``, ``a``, ``r`` or ``NOUN``, ``VERB``, ``ADJ``, ``ADV``) replace spaCy's for
        that token. None when the word is no target of the model: WordNet 3.0 has no such
        lemma for that part of speech (all-words), or the model has no such lexelt."""
        words = _checked_tokens(tokens)
        if not isinstance(index, int) or not 0 <= index < len(words):
            raise WsdError(f"token index {index!r} is not one of 0..{len(words) - 1}")
        doc = Doc(self.nlp.vocab, words=words)
        for name, component in self.nlp.pipeline:
            if name == COMPONENT:
                break
            doc = component(doc)
        token = doc[index]
        if pos is not None:
            if pos not in SPACY_POS:
                raise WsdError(f"part of speech {pos!r}: one of {', '.join(SPACY_POS)}")
            token.pos_ = SPACY_POS[pos]
        if lemma is not None:
            if not isinstance(lemma, str) or not lemma.strip():
                raise WsdError(f"lemma {lemma!r}: a non-empty str")
            token.lemma_ = lemma
        self.nlp.get_pipe(COMPONENT)(doc)
        extension = token._
        if extension.wsd_senses is None:
            return None
        particles = [doc[position] for position in extension.wsd_particles]
        return _span(token.text, token.idx, token.idx + len(token.text), extension.wsd_lexelt,
                     extension.wsd_senses,
                     [(p.idx, p.idx + len(p.text), p.text) for p in particles],
                     extension.wsd_evidence)


def load(task: str, system: str, models_dir: str | os.PathLike | None = None,
         explain: bool = False) -> Disambiguator:
    """The ``system`` trained for ``task`` (``bin/train``) under ``models_dir`` (default as the
    commands': ``models/``); ``explain``: spans carry the evidence behind the best sense."""
    return Disambiguator(task, system, models_dir, explain)


def installed(models_dir: str | os.PathLike | None = None,
              verified: bool = True) -> list[Installed]:
    """What ``load`` accepts under ``models_dir``: every usable model file of a task that tags
    (a lexical sample, an all-words task, or an ad-hoc ``bin/train --train`` run), and for each
    all-words task the systems that need no model file, by task then system. ``verified``:
    each file's seal checked (which reads it whole), else every file there listed."""
    root = settings.models_dir(models_dir)
    if verified:
        files = [(model.task, model.system, model.path) for model in modelstore.installed(root)
                 if model.problem is None]
    else:
        files = [(path.parent.parent.name, path.parent.name, path)
                 for path in Path(root).glob(f"*/*/{modelstore.FILENAME}")]
    found = [Installed(task, system, path, _on_request(task, system))
             for task, system, path in files if _tags(task)]
    return sorted(found + without_model_file(), key=lambda entry: (entry.task, entry.system))


def without_model_file() -> list[Installed]:
    """For each all-words task, the systems that tag without a model file (``wn1``)."""
    return [Installed(name, system, None, system in task.on_request)
            for name, task in catalogue.TASKS.items() if task.kind == catalogue.ALL_WORDS
            for system in (*task.systems, *task.on_request)
            if not systems.get(system).has_model_file]


def _tags(task: str) -> bool:
    return task not in catalogue.TASKS or catalogue.get(task).kind in (
        catalogue.ALL_WORDS, catalogue.LEXICAL_SAMPLE)


def _on_request(task: str, system: str) -> bool:
    return task in catalogue.TASKS and system in catalogue.get(task).on_request


def _checked_tokens(tokens: Iterable[str]) -> list[str]:
    if isinstance(tokens, str):
        raise WsdError("disambiguate() takes a list of tokens, not a str: use tag() for text")
    words = list(tokens)
    if not words:
        raise WsdError("disambiguate() needs at least one token")
    for position, word in enumerate(words):
        if not isinstance(word, str) or not word or word.isspace():
            raise WsdError(f"token {position} is {word!r}: each token is a non-empty str "
                           "with a character other than a space")
    return words


def _span(text: str, start: int, end: int, lexelt: str, senses: list[tuple[str, float]],
          particles: list[tuple[int, int, str]], evidence: list | None) -> Span:
    return Span(text, start, end, lexelt,
                tuple(Sense(key, weight, wordnet.synset_name(key), wordnet.gloss(key))
                      for key, weight in senses),
                tuple(particles), None if evidence is None else tuple(evidence))
