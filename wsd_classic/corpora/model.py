"""In-memory form of a lexical-sample corpus, shared by every stage after the readers."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Instance:
    """One occurrence of a target word.

    ``text`` is the whole context as plain Unicode (entities decoded, markup removed);
    ``head`` is the character span of the target in ``text``; ``sats`` the spans of its
    satellite particles (phrasal verbs). ``answers`` holds the gold sense ids (sense keys,
    ``U``, ``P``), empty for unannotated data.
    """

    id: str
    lexelt: str
    text: str
    head: tuple[int, int]
    sats: tuple[tuple[int, int], ...] = ()
    answers: tuple[str, ...] = ()
    docsrc: str | None = None


_POS_SUFFIXES = ("n", "v", "a", "r")
# SENSEVAL-1 also has "-p" items, words whose part of speech the task left open.
_DASH_SUFFIXES = (*_POS_SUFFIXES, "p")


@dataclass
class Lexelt:
    """A lexical element (``art.n``) and its instances, in file order."""

    item: str
    instances: list[Instance] = field(default_factory=list)

    @property
    def lemma(self) -> str:
        if "." in self.item:
            return self.item.rsplit(".", 1)[0]
        base, dash, suffix = self.item.rpartition("-")
        return base if dash and base and suffix in _DASH_SUFFIXES else self.item

    @property
    def pos(self) -> str:
        """``n``, ``v``, ``a``, ``r`` or ``unk``, from the item's ``.x`` suffix (SENSEVAL-2
        and -3) or ``-x`` suffix (SENSEVAL-1 repackaged, NLTK's corpora)."""
        for separator in ".-":
            if separator in self.item:
                suffix = self.item.rsplit(separator, 1)[1]
                if suffix in _POS_SUFFIXES:
                    return suffix
        return "unk"


@dataclass
class LexicalSample:
    """A corpus: its lexelts in file order, and the file it came from."""

    lexelts: list[Lexelt]
    source: str | None = None
    # kind ("lexelt", "instance", "sense") -> safe id -> the corpus's own spelling, for the ids
    # the reader had to replace (``corpora.ids``)
    renamed_ids: dict[str, dict[str, str]] = field(default_factory=dict)

    def instances(self):
        for lexelt in self.lexelts:
            yield from lexelt.instances

    def __len__(self) -> int:
        return sum(len(lexelt.instances) for lexelt in self.lexelts)

    def lexelt(self, item: str) -> Lexelt:
        for lexelt in self.lexelts:
            if lexelt.item == item:
                return lexelt
        raise KeyError(item)
