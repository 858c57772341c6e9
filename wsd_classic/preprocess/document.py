"""``ProcessedInstance``: the spaCy analysis of one context, in a compact, cacheable form."""
from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass


@functools.lru_cache(maxsize=1 << 18)
def has_letter(lemma: str) -> bool:
    """Cached: every target's context asks it of every word again."""
    return any(character.isalpha() for character in lemma)


# The last context's lemmas, stop-word flags and content lemma counts, as one tuple (threads
# may share it): see ``_content_counts``.
_last_counts: tuple = ((), (), Counter())


def _content_counts(lemmas: tuple[str, ...], stops: tuple[bool, ...]) -> Counter:
    """How often each lemma with a letter occurs as a content word (not a stop word). The
    targets of one running-text context share its tuples (``ProcessedInstance.window`` and
    ``dataclasses.replace``), so the last context's counts serve its next target."""
    global _last_counts
    last_lemmas, last_stops, counts = _last_counts
    if lemmas is last_lemmas and stops is last_stops:
        return counts
    counts = Counter(lemma for lemma, stop in zip(lemmas, stops)
                     if not stop and has_letter(lemma))
    _last_counts = (lemmas, stops, counts)
    return counts


@dataclass(frozen=True)
class ProcessedInstance:
    """Tokens of one context (whitespace tokens removed) with the target located.

    Parallel tuples indexed by token: ``words`` (surface), ``lemmas`` (lower case), ``tags``
    (Penn Treebank), ``sentences`` (sentence number), ``heads`` (index of the syntactic head,
    itself for a root), ``deps`` (dependency label), ``stops`` (spaCy's stop-word flag).
    ``target`` is the index of the head word, ``sats`` those of its satellite particles.
    """

    id: str
    lexelt: str
    words: tuple[str, ...]
    lemmas: tuple[str, ...]
    tags: tuple[str, ...]
    sentences: tuple[int, ...]
    heads: tuple[int, ...]
    deps: tuple[int | str, ...]
    stops: tuple[bool, ...]
    target: int
    sats: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.words)

    @functools.cached_property
    def content_lemmas(self) -> frozenset[str]:
        """The distinct content lemmas of the context except the target and its particles
        (stop words and words without a letter left out): two feature groups read them. A lemma
        stays unless the target and particles are all its content occurrences."""
        counts = _content_counts(self.lemmas, self.stops)
        excluded = Counter(self.lemmas[index] for index in {self.target, *self.sats}
                           if not self.stops[index])
        return frozenset(counts.keys() - {lemma for lemma, number in excluded.items()
                                          if counts.get(lemma, 0) <= number})

    @functools.cached_property
    def target_sentence(self) -> range:
        """Token indices of the target's sentence (three feature groups read it)."""
        return self.sentence_range(self.target)

    def sentence_range(self, index: int) -> range:
        """Token indices of the sentence holding token ``index``."""
        sentence = self.sentences[index]
        start = index
        while start > 0 and self.sentences[start - 1] == sentence:
            start -= 1
        end = index + 1
        while end < len(self.sentences) and self.sentences[end] == sentence:
            end += 1
        return range(start, end)

    def window(self, start: int, end: int, target: int) -> "ProcessedInstance":
        """Tokens ``start`` to ``end`` (whole sentences: no head outside them) with token
        ``target`` (an index here) as the target, indices renumbered from ``start``."""
        first_sentence = self.sentences[start] if start < end else 0
        return ProcessedInstance(
            self.id, self.lexelt, self.words[start:end], self.lemmas[start:end],
            self.tags[start:end],
            tuple(number - first_sentence for number in self.sentences[start:end]),
            tuple(head - start for head in self.heads[start:end]), self.deps[start:end],
            self.stops[start:end], target - start)

    def to_json(self) -> list:
        return [self.id, self.lexelt, self.words, self.lemmas, self.tags, self.sentences,
                self.heads, self.deps, self.stops, self.target, self.sats]

    @classmethod
    def from_json(cls, row: list) -> "ProcessedInstance":
        (id_, lexelt, words, lemmas, tags, sentences, heads, deps, stops, target, sats) = row
        return cls(id_, lexelt, tuple(words), tuple(lemmas), tuple(tags), tuple(sentences),
                   tuple(heads), tuple(deps), tuple(stops), target, tuple(sats))
