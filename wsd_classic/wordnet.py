"""WordNet 3.0 from Debian's ``wordnet-base`` files, without the internet.

Two readers, for a measured reason: this module's own (the sense index, data-file lines,
morphy, counts) serves training, tagging and scoring, as NLTK's needs 2.5 CPU-s to load and
answer a first lookup, this one 0.03; NLTK's (``wordnet()``) serves only what NLTK's objects
define, SenseBench's p002 index (a position in ``wn.synsets``) and the AmbiStory rater's synset
graph (Wu-Palmer, relations, synsets across parts of speech).
``tests/test_wordnet.py`` checks that both give the same senses, glosses, base forms and names.

NLTK 3.10 only reads corpora under its data roots and needs a ``lexnames`` file Debian does not
ship, so ``setup()`` assembles a private NLTK data root: copies of the Debian database files plus
WordNet's fixed lexicographer-file table.
"""
from __future__ import annotations

import bisect
import functools
import os
import re
import shutil
from collections.abc import Iterator, Sequence
import warnings
from dataclasses import dataclass
from pathlib import Path

from wsd_classic import settings
from wsd_classic.pos import KEY_POS, POINTER_POS, SYNSET_NAME_POS
from wsd_classic.errors import WsdError

DEBIAN_WORDNET = Path("/usr/share/wordnet")
DATABASE_FILES = (
    "data.noun", "data.verb", "data.adj", "data.adv",
    "index.noun", "index.verb", "index.adj", "index.adv", "index.sense",
    "noun.exc", "verb.exc", "adj.exc", "adv.exc", "cntlist.rev",
)
# WordNet's 45 lexicographer files in number order, with their syntactic category (lexnames(5WN)).
LEXICOGRAPHER_FILES = (
    ("adj.all", 3), ("adj.pert", 3), ("adv.all", 4), *((f"noun.{name}", 1) for name in (
        "Tops act animal artifact attribute body cognition communication event feeling food group "
        "location motive object person phenomenon plant possession process quantity relation shape "
        "state substance time").split()), *((f"verb.{name}", 2) for name in (
        "body change cognition communication competition consumption contact creation emotion "
        "motion perception possession social stative weather").split()), ("adj.ppl", 3),
)


def corpus_root(nltk_root: Path | None = None) -> Path:
    return (nltk_root or settings.nltk_data_dir()) / "corpora" / "wordnet"


def setup(source: Path = DEBIAN_WORDNET, nltk_root: Path | None = None) -> Path:
    """Build the private NLTK data root from Debian's WordNet 3.0 files; returns the corpus dir."""
    missing = [name for name in DATABASE_FILES if not (source / name).is_file()]
    if missing:
        raise WsdError(
            f"WordNet 3.0 files {', '.join(missing)} not found in {source}: install Debian's "
            "packages wordnet-base and wordnet-sense-index (apt-get install wordnet-base "
            "wordnet-sense-index)")
    target = corpus_root(nltk_root)
    staging = target.with_name(target.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for name in DATABASE_FILES:
        shutil.copyfile(source / name, staging / name)
    (staging / "lexnames").write_text("".join(
        f"{number:02d}\t{name}\t{category}\n"
        for number, (name, category) in enumerate(LEXICOGRAPHER_FILES)))
    # NLTK refuses a corpus if any of its files or directories is group- or world-writable, which
    # a umask such as 002 would otherwise give them.
    for path in staging.iterdir():
        path.chmod(0o644)
    shutil.rmtree(target, ignore_errors=True)
    os.replace(staging, target)
    for directory in (target, target.parent, target.parent.parent):
        directory.chmod(0o755)
    return target


def checked_root() -> Path:
    """The WordNet 3.0 corpus directory, or a ``WsdError`` saying how to install it."""
    root = settings.nltk_data_dir()
    if not (corpus_root(root) / "lexnames").is_file():
        raise WsdError(
            f"WordNet 3.0 is not set up in {root}: run ./install (it needs Debian's wordnet-base "
            "and wordnet-sense-index) or `python -m wsd_classic wordnet`")
    return corpus_root(root)


@functools.lru_cache(maxsize=1)
def wordnet():
    """The NLTK WordNet 3.0 reader, or a ``WsdError`` saying how to install it."""
    root = checked_root().parent.parent
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    # NLTK opens files only below the roots on its data path; the search is limited to this root
    # so that no other wordnet on that path (an earlier root, a user download) is read instead.
    if str(root) not in nltk.data.path:
        nltk.data.path.insert(0, str(root))
    try:
        corpus = nltk.data.find("corpora/wordnet", paths=[str(root)])
    except LookupError:
        raise WsdError(
            f"NLTK will not load WordNet from {corpus_root(root)}: a file there is missing or "
            "writable by other accounts (NLTK's warning names it); rebuild it with "
            "`python -m wsd_classic wordnet`") from None
    class WordNet30Reader(WordNetCorpusReader):
        def map_wn(self, version="wordnet"):
            """No mapping to another WordNet: it only serves the (absent) multilingual data.

            NLTK's own version would read ``index.sense`` a second time from whichever
            ``corpora/wordnet`` comes first on NLTK's path, doubling the load time.
            """
            return None

    with warnings.catch_warnings():
        # NLTK warns that the (unused) Open Multilingual Wordnet is absent.
        warnings.filterwarnings("ignore", message="The multilingual functions are not available")
        reader = WordNet30Reader(corpus, None)
    if reader.get_version() != "3.0":
        raise WsdError(f"expected WordNet 3.0 in {root}, found {reader.get_version()}")
    return reader


def _open_files_afresh() -> None:
    """A forked worker must not share its parent's open WordNet files: NLTK reads them by seek
    and readline, so two processes moving one shared file offset read each other's lines. It
    keeps the parent's reader, whose indexes take seconds to build, and opens its own files."""
    if wordnet.cache_info().currsize:
        reader = wordnet()
        reader._data_file_map = {}
        reader._key_count_file = reader._key_synset_file = None


os.register_at_fork(after_in_child=_open_files_afresh)


# The data file holding the synsets of each part of speech.
DATA_FILES = {"n": "data.noun", "v": "data.verb", "a": "data.adj", "r": "data.adv"}


@dataclass(frozen=True)
class SenseIndex:
    """WordNet's sense index (``index.sense``: a line per sense key, with its synset's offset and
    its sense number, sorted by key), searched by binary search in its lines.

    Read directly because NLTK lists a lemma's keys by building each of its synsets, and needs
    seconds to load its own index; reading the lines takes milliseconds, and a lemma's keys
    stand together in them.
    """

    lines: list[str]

    @classmethod
    def read(cls, root: Path) -> "SenseIndex":
        return cls((root / "index.sense").read_text(encoding="utf-8").splitlines())

    def _fields(self, prefix: str) -> Iterator[list[str]]:
        """The fields of every line starting with ``prefix``."""
        for index in range(bisect.bisect_left(self.lines, prefix), len(self.lines)):
            if not self.lines[index].startswith(prefix):
                return
            yield self.lines[index].split(" ")

    def keys(self, lemma: str, pos: str) -> tuple[str, ...]:
        numbered = sorted((int(number), key) for key, _, number, _ in self._fields(f"{lemma}%")
                          if KEY_POS[key.partition("%")[2][0]] == pos)
        return tuple(key for _, key in numbered)

    def tag_count(self, key: str) -> int:
        """How often WordNet's sense-tagged corpora tag the sense (0 for a key WordNet lacks)."""
        return next((int(count) for _, _, _, count in self._fields(f"{key} ")), 0)

    def offset(self, key: str) -> int | None:
        """The offset of the key's synset in its data file, None for a key WordNet lacks."""
        return next((int(offset) for _, offset, _, _ in self._fields(f"{key} ")), None)


@functools.lru_cache(maxsize=1)
def sense_index() -> SenseIndex:
    return SenseIndex.read(checked_root())


@functools.lru_cache(maxsize=None)
def wordnet_senses(lemma: str, pos: str) -> tuple[str, ...]:
    """The sense keys of ``lemma`` (any case, words joined by ``_``) as a ``pos`` (``n``, ``v``,
    ``a`` with satellites, ``r``), in WordNet's order; empty when WordNet 3.0 lacks it.

    WordNet lists a lemma's senses for a part of speech by decreasing frequency in its
    sense-tagged corpora: these are the candidates every all-words system chooses from, and the
    first of them is the classic baseline.
    """
    return sense_index().keys(lemma.lower(), pos)


def rank(key: str, candidates: Sequence[str]) -> int:
    """The 1-based position of ``key`` among ``candidates`` (WordNet's frequency order), as
    LLM prompts number candidate senses."""
    return candidates.index(key) + 1


_QUOTED = re.compile(r'"[^"]*"')


def _key_variants(key: str):
    """SENSEVAL-2 writes apostrophes in lemmas as ``-``; WordNet keys are lower case."""
    key = key.lower()
    yield key
    lemma, sep, rest = key.partition("%")
    if "-" in lemma:
        yield lemma.replace("-", "'") + sep + rest


@functools.lru_cache(maxsize=None)
def lemma_of_key(key: str):
    """The NLTK ``Lemma`` for a sense key, or ``None`` when WordNet 3.0 does not know it."""
    if "%" not in key:
        return None
    reader = wordnet()
    for variant in _key_variants(key):
        try:
            return reader.lemma_from_key(variant)
        except Exception:  # NLTK raises WordNetError or ValueError for unknown/odd keys
            continue
    return None


def synset_of_key(key: str):
    lemma = lemma_of_key(key)
    return lemma.synset() if lemma is not None else None


@dataclass(frozen=True)
class Synset:
    """A synset as its line in a WordNet data file gives it: its words (WordNet's spelling,
    ``_`` between words), its pointers ``(symbol, pos, offset)`` (``@`` hypernym, ``~`` hyponym,
    ``&`` similar to, ``+`` derivationally related, ... see wninput(5WN)), its definition and
    its examples."""

    words: tuple[str, ...]
    pointers: tuple[tuple[str, str, int], ...]
    definition: str
    examples: tuple[str, ...]


# An adjective's syntactic marker, ``galore(ip)``: not part of the word.
_ADJECTIVE_MARKER = re.compile(r"\([a-z]+\)$")


@functools.lru_cache(maxsize=1 << 16)
def synset_at(pos: str, offset: int) -> Synset:
    """The synset at ``offset`` of the ``pos`` data file, read without NLTK (which needs seconds
    to load): tagging builds the signatures of thousands of senses."""
    return _synset_of_line(_data_line(DATA_FILES[pos], offset))


# NLTK's order of the data files in ``all_synsets``.
ALL_SYNSETS_ORDER = ("a", "r", "n", "v")


def all_synsets() -> Iterator[Synset]:
    """Every synset, in the order of NLTK's ``all_synsets()``, parsed from the data files
    directly: NLTK builds its full synset objects, four times as slow."""
    return (synset for _, synset in located_synsets())


def located_synsets() -> Iterator[tuple[tuple[str, int], Synset]]:
    """Every synset as ``all_synsets`` gives them, with its part of speech and data-file
    offset (what ``synset_location`` gives for its senses)."""
    for pos in ALL_SYNSETS_ORDER:
        with open(checked_root() / DATA_FILES[pos], encoding="utf-8") as lines:
            for line in lines:
                if not line[0].isspace():  # the licence's lines are indented
                    yield (pos, int(line[:line.index(" ")])), _synset_of_line(line)


def _synset_of_line(line: str) -> Synset:
    head, _, text = line.partition("|")
    fields = head.split()
    word_count = int(fields[3], 16)
    words = tuple(_ADJECTIVE_MARKER.sub("", word) for word in fields[4:4 + 2 * word_count:2])
    at = 4 + 2 * word_count
    pointers = tuple((fields[i], POINTER_POS[fields[i + 2]], int(fields[i + 1]))
                     for i in range(at + 1, at + 1 + 4 * int(fields[at]), 4))
    return Synset(words, pointers, _QUOTED.sub("", text).strip().strip("; "),
                  tuple(example.strip('"') for example in _QUOTED.findall(text)))


@functools.lru_cache(maxsize=1 << 18)  # SemCor asks it of every tagged word: 226,036 times
def synset_location(key: str) -> tuple[str, int] | None:
    """The part of speech and data-file offset of the sense's synset; None for a key WordNet
    3.0 lacks."""
    for variant in _key_variants(key):
        offset = sense_index().offset(variant)
        if offset is not None:
            return KEY_POS[variant.partition("%")[2][0]], offset
    return None


@functools.lru_cache(maxsize=None)
def gloss(key: str) -> str | None:
    """The definition of the sense's synset (its gloss without the quoted examples), read from
    the data file at the offset the sense index gives; None for a key WordNet 3.0 lacks."""
    location = synset_location(key)
    return synset_at(*location).definition if location is not None else None


@functools.lru_cache(maxsize=None)
def synset_name(key: str) -> str | None:
    """The name NLTK gives the sense's synset (``bank.n.01``: its first word, its part of speech
    and its place among that word's synsets in ``index.<pos>``, among its satellites only for a
    satellite), read without NLTK; None for a key WordNet 3.0 lacks."""
    location = synset_location(key)
    if location is None:
        return None
    pos, offset = location
    first = synset_at(pos, offset).words[0].lower()
    offsets = _index_offsets(pos, first)
    name_pos = SYNSET_NAME_POS[key.partition("%")[2][0]]
    if name_pos == "s":
        offsets = [found for found in offsets if _is_satellite(found)]
    return f"{first}.{name_pos}.{offsets.index(offset) + 1:02d}"


def _is_satellite(offset: int) -> bool:
    """Whether the adjective synset at ``offset`` is a satellite (synset type ``s``)."""
    return _data_line(DATA_FILES["a"], offset).split(" ", 3)[2] == "s"


def _data_line(name: str, offset: int) -> str:
    """The line at byte ``offset`` of a WordNet data file (its synset's line)."""
    descriptor, chunks = _data_descriptor(name), []
    while True:
        chunk = os.pread(descriptor, 4096, offset)
        end = chunk.find(b"\n")
        chunks.append(chunk if end < 0 else chunk[:end])
        if end >= 0 or not chunk:
            return b"".join(chunks).decode("utf-8")
        offset += len(chunk)


@functools.lru_cache(maxsize=None)
def _data_descriptor(name: str) -> int:
    """An open descriptor of a data file for ``os.pread``, kept for the process: glosses are
    read by the thousand when tagging, and opening the file each time costs more than reading."""
    return os.open(corpus_root() / name, os.O_RDONLY)


# morph(7WN)'s detachment rules, in the order NLTK's ``morphy`` tries them.
SUFFIX_RULES = {
    "n": (("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
          ("shes", "sh"), ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
FILE_SUFFIX = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}


def morphy(form: str, pos: str) -> str | None:
    """NLTK's ``morphy(form, pos)`` without loading NLTK's WordNet (seconds): the first of the
    form itself and its exception-list entries (else its suffix-rule forms) that WordNet's index
    has as a ``pos`` (``n``, ``v``, ``a``, ``r``), None if none."""
    exceptions = _exception_list(pos)
    if form in exceptions:
        forms = exceptions[form]
    else:
        forms = [form[:-len(old)] + new for old, new in SUFFIX_RULES[pos] if form.endswith(old)]
    lemmas = _index_lemmas(pos)
    return next((candidate for candidate in (form, *forms) if candidate in lemmas), None)


# NLTK's order of the parts of speech for ``morphy`` without one.
MORPHY_ORDER = ("n", "v", "a", "r")


def base_form(form: str) -> str | None:
    """NLTK's ``morphy(form)`` without a part of speech: ``morphy``'s answer under the first
    part of speech that has one."""
    return next((lemma for pos in MORPHY_ORDER if (lemma := morphy(form, pos)) is not None), None)


def load_tables() -> None:
    """Read the sense index, the lemma lists and the exception lists now, so that worker
    processes forked next share them rather than each reading them again."""
    sense_index()
    for pos in MORPHY_ORDER:
        _exception_list(pos)
        _index_lemmas(pos)


@functools.lru_cache(maxsize=None)
def _exception_list(pos: str) -> dict[str, list[str]]:
    """``<pos>.exc``: an inflected form, then its base forms, a line each."""
    path = checked_root() / f"{FILE_SUFFIX[pos]}.exc"
    with open(path, encoding="utf-8") as lines:
        return {terms[0]: terms[1:] for terms in map(str.split, lines)}


def _index_offsets(pos: str, lemma: str) -> list[int]:
    """The synset offsets ``index.<pos>`` lists for ``lemma``, in its order."""
    lines = _index_lines(pos)
    line = lines[bisect.bisect_left(lines, f"{lemma} ")]
    fields = line.split()
    synsets = int(fields[2])
    pointers = int(fields[3])
    return [int(offset) for offset in fields[6 + pointers:6 + pointers + synsets]]


@functools.lru_cache(maxsize=None)
def _index_lines(pos: str) -> list[str]:
    """The lines of ``index.<pos>`` without its licence, sorted as the file is."""
    with open(checked_root() / f"index.{FILE_SUFFIX[pos]}", encoding="utf-8") as lines:
        return [line for line in lines if not line.startswith(" ")]


@functools.lru_cache(maxsize=None)
def _index_lemmas(pos: str) -> frozenset[str]:
    """The lemmas of ``index.<pos>`` (its licence lines start with a space)."""
    with open(checked_root() / f"index.{FILE_SUFFIX[pos]}", encoding="utf-8") as lines:
        return frozenset(line.split(None, 1)[0] for line in lines if not line.startswith(" "))


def knows_key(key: str) -> bool:
    """Whether WordNet 3.0 has the sense, by its sense index (NLTK's lookup is 40 times
    slower)."""
    return "%" in key and synset_location(key) is not None


def examples(key: str) -> list[str]:
    """The examples of the sense's synset; none for a key WordNet 3.0 lacks."""
    location = synset_location(key)
    return list(synset_at(*location).examples) if location is not None else []


def lemma_count(key: str) -> int:
    """SemCor frequency of the sense (WordNet's ``cntlist.rev``, as NLTK's ``Lemma.count``
    reads it), 0 for an unknown key or one the list lacks."""
    for variant in _key_variants(key):
        if sense_index().offset(variant) is not None:
            lines = _count_lines()
            index = bisect.bisect_left(lines, f"{variant} ")
            found = index < len(lines) and lines[index].startswith(f"{variant} ")
            return int(lines[index].rsplit(" ", 1)[1]) if found else 0
    return 0


@functools.lru_cache(maxsize=1)
def _count_lines() -> list[str]:
    """``cntlist.rev``: ``sense_key sense_number tag_count`` a line, sorted by key."""
    return (checked_root() / "cntlist.rev").read_text(encoding="utf-8").splitlines()


def same_synset(first: str, second: str) -> bool:
    """Whether two sense keys WordNet 3.0 knows name one synset."""
    location = synset_location(first)
    return location is not None and location == synset_location(second)


def unknown_keys(keys) -> list[str]:
    """The sense keys (``%`` tags only; ``U``/``P`` are not keys) WordNet 3.0 does not know."""
    return sorted({key for key in keys if "%" in key and not knows_key(key)})
