"""WordNet 3.0 through NLTK: set-up from Debian's files, and sense-key lookups.

The lookups run against a WordNet that ``setup()`` builds into a private temporary NLTK root, so
they test the set-up too and neither depend on nor disturb the user's installed copy.
"""
from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path

import nltk
import pytest

from conftest import REPO
from wsd_classic import settings, wordnet
from wsd_classic.corpora import registry
from wsd_classic.errors import WsdError

# wordnet.py silences this at import, but pytest restores the warning filters for every test.
pytestmark = pytest.mark.filterwarnings("ignore:The multilingual functions are not available")

SHARED_DATA = Path(os.environ.get(settings.DATA_ENV) or "/work/shared/data")

needs_debian_wordnet = pytest.mark.skipif(
    not all((wordnet.DEBIAN_WORDNET / name).is_file() for name in wordnet.DATABASE_FILES),
    reason=f"Debian's WordNet 3.0 files are not in {wordnet.DEBIAN_WORDNET} "
           "(apt-get install wordnet-base wordnet-sense-index)")


def _private_root(base: Path) -> Path:
    """An NLTK root below ``base``; NLTK refuses group- or world-writable directories."""
    base.chmod(0o755)
    return base / "nltk_data"


@contextlib.contextmanager
def _wordnet_from(root: Path):
    """Point ``wordnet()`` at ``root`` with fresh caches; undo it all (NLTK's path too) after."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(settings.NLTK_DATA_ENV, str(root))
        patch.setattr(nltk.data, "path", list(nltk.data.path))
        wordnet.wordnet.cache_clear()
        wordnet.lemma_of_key.cache_clear()
        try:
            yield
        finally:
            wordnet.wordnet.cache_clear()
            wordnet.lemma_of_key.cache_clear()


@pytest.fixture(scope="module")
def built_wordnet(tmp_path_factory):
    """WordNet set up by ``setup()`` under a umask of 002, which once made NLTK refuse it."""
    root = _private_root(tmp_path_factory.mktemp("wordnet"))
    previous = os.umask(0o002)
    try:
        wordnet.setup(nltk_root=root)
    finally:
        os.umask(previous)
    with _wordnet_from(root):
        yield root


@needs_debian_wordnet
def test_setup_builds_a_loadable_wordnet_30(built_wordnet):
    corpus = wordnet.corpus_root(built_wordnet)
    lexnames = (corpus / "lexnames").read_text().splitlines()
    assert len(lexnames) == 45 and lexnames[6] == "06\tnoun.artifact\t1"
    assert wordnet.wordnet().get_version() == "3.0"
    assert Path(wordnet.wordnet().root.path) == corpus


@needs_debian_wordnet
def test_bin_wordnet_prepares_wordnet_for_nltk(tmp_path):
    """``./install``'s step: ``bin/wordnet`` builds the private NLTK root and says where."""
    root = _private_root(tmp_path)
    done = subprocess.run([str(REPO / "bin" / "wordnet")], capture_output=True, text=True,
                          env={**os.environ, settings.NLTK_DATA_ENV: str(root)})
    assert done.returncode == 0, done.stderr
    assert done.stdout == (f"WordNet 3.0 ready for NLTK in {wordnet.corpus_root(root)} "
                           "(version 3.0)\n")
    assert (wordnet.corpus_root(root) / "lexnames").is_file()


@needs_debian_wordnet
@pytest.mark.parametrize("key, synset, gloss_start, example", [
    ("art%1:06:00::", "art.n.01", "the products of human creativity", "an art exhibition"),
    ("art%1:04:00::", "art.n.02", "the creation of beautiful", "I was never any good at art"),
    ("call%2:32:02::", "name.v.01", "assign a specified", "They named their son David"),
    ("nature%1:07:02::", "nature.n.01", "the essential qualities", "the true nature of jealousy"),
])
def test_sense_key_gives_synset_gloss_and_examples(built_wordnet, key, synset, gloss_start,
                                                   example):
    assert wordnet.synset_of_key(key).name() == synset
    assert wordnet.gloss(key).startswith(gloss_start)
    assert example in wordnet.examples(key)


@needs_debian_wordnet
def test_senseval_dash_for_apostrophe_resolves(built_wordnet):
    assert wordnet.lemma_of_key("keep_one-s_distance%2:42:00::").name() == "keep_one's_distance"
    # A real hyphen stays a hyphen.
    assert wordnet.lemma_of_key("long-handled_spade%1:06:00::").name() == "long-handled_spade"


@needs_debian_wordnet
def test_wordnet_17_only_key_is_reported_not_fatal(built_wordnet):
    old_key = "fine%5:00:00:superior:02"
    assert wordnet.unknown_keys([old_key, "U", "P", "art%1:06:00::", old_key]) == [old_key]
    assert wordnet.lemma_of_key(old_key) is None
    assert wordnet.gloss(old_key) is None
    assert wordnet.examples(old_key) == []


@needs_debian_wordnet
def test_most_senseval2_training_keys_resolve_in_wordnet_30(built_wordnet):
    """The data README measures about 98.7%; the rest are WordNet 1.7-only keys."""
    if not (SHARED_DATA / "senseval2-ls").is_dir():
        pytest.skip(f"SENSEVAL-2 lexical sample not in {SHARED_DATA} (set {settings.DATA_ENV})")
    key_file = registry.file("senseval2-ls", "eng-lex-sample.training.key", SHARED_DATA)
    keys = [tag for line in key_file.read_text(encoding="iso-8859-1").splitlines()
            for tag in line.split()[2:] if "%" in tag]
    unknown = set(wordnet.unknown_keys(keys))
    share = sum(key not in unknown for key in keys) / len(keys)
    assert len(keys) > 8000
    assert share > 0.97
    assert "fine%5:00:00:superior:02" in unknown


def test_setup_with_a_missing_source_file_raises(tmp_path):
    source = tmp_path / "debian"
    source.mkdir()
    for name in wordnet.DATABASE_FILES:
        if name != "index.sense":
            (source / name).write_text("")
    root = _private_root(tmp_path)
    with pytest.raises(WsdError, match=r"index\.sense.*wordnet-sense-index") as caught:
        wordnet.setup(source, nltk_root=root)
    assert str(source) in str(caught.value)
    assert not wordnet.corpus_root(root).exists()


@needs_debian_wordnet
def test_wordnet_made_writable_by_others_is_a_wsd_error(tmp_path):
    corpus = wordnet.setup(nltk_root=_private_root(tmp_path))
    (corpus / "noun.exc").chmod(0o666)
    with _wordnet_from(corpus.parent.parent), pytest.warns(RuntimeWarning, match="noun.exc"), \
            pytest.raises(WsdError, match="python -m wsd_classic wordnet"):
        wordnet.wordnet()


def test_the_sense_index_lists_what_nltk_lists_in_the_same_order():
    """``sense_keys`` and ``gloss`` read WordNet's files directly; NLTK, reading the same files
    its own way, must agree (its lists repeat a key whose synset holds the lemma twice)."""
    import random

    index = wordnet.sense_index()
    assert index.lines == sorted(index.lines)  # what the binary search relies on
    reader = wordnet.wordnet()
    lemmas = sorted({(key.partition("%")[0], wordnet.KEY_POS[key.partition("%")[2][0]])
                     for key in (line.split(" ")[0] for line in index.lines)})
    entries = random.Random(0).sample(lemmas, 1500)
    for lemma, pos in [*entries, ("bank", "n"), ("fast", "a"), ("take_place", "v"), ("Bank", "n")]:
        expected = tuple(dict.fromkeys(entry.key() for entry in reader.lemmas(lemma, pos)))
        assert wordnet.wordnet_senses(lemma, pos) == expected, (lemma, pos)
    for key in random.Random(1).sample([line.split(" ")[0] for line in index.lines], 1500):
        assert wordnet.gloss(key) == reader.lemma_from_key(key).synset().definition(), key
    assert wordnet.wordnet_senses("qwzx", "n") == () and wordnet.gloss("qwzx%1:00:00::") is None


def test_morphy_finds_the_base_forms_nltk_finds():
    """``morphy`` reads the exception lists and index files itself; NLTK's ``morphy`` over the
    same files must agree, on exception forms, regular inflections and forms WordNet lacks."""
    import random

    reader = wordnet.wordnet()
    root = wordnet.corpus_root()
    forms = {"took", "geese", "aardwolves", "abaci", "churches", "dogs", "Dogs", "happier",
             "running", "qwzx", "s", ""}
    for pos, suffix in wordnet.FILE_SUFFIX.items():
        exceptions = (root / f"{suffix}.exc").read_text().split("\n")[:-1]
        forms.update(line.split(" ")[0] for line in random.Random(0).sample(
            exceptions, min(300, len(exceptions))))
        lemmas = [line.split(" ")[0] for line in (root / f"index.{suffix}").read_text().split("\n")
                  if line and not line.startswith(" ")]
        for lemma in random.Random(1).sample(lemmas, 300):
            forms.update(lemma + ending for ending in ("", "s", "es", "ies", "ed", "ing", "er"))
    for form in sorted(forms):
        for pos in wordnet.FILE_SUFFIX:
            assert wordnet.morphy(form, pos) == reader.morphy(form, pos), (form, pos)
    assert wordnet.morphy("took", "v") == "take" and wordnet.morphy("qwzx", "n") is None


def test_all_synsets_gives_nltk_s_definitions_and_examples_in_nltk_s_order():
    """The word vectors' corpus reads every gloss through ``all_synsets``: NLTK's
    ``all_synsets`` over the same files must give the same texts in the same order."""
    ours = [(synset.definition, synset.examples) for synset in wordnet.all_synsets()]
    theirs = [(synset.definition(), tuple(synset.examples()))
              for synset in wordnet.wordnet().all_synsets()]
    assert len(ours) == len(theirs) == 117_659
    assert ours == theirs


def test_lesk_signatures_read_without_nltk_are_those_nltk_gives():
    """Lesk reads glosses and base forms itself (``synset_at``, ``base_form``): NLTK's synset
    and ``morphy`` without a part of speech must give the same signature."""
    import random

    from spacy.lang.en.stop_words import STOP_WORDS

    from wsd_classic.systems.lesk import WORD, gloss_lemmas

    reader = wordnet.wordnet()

    def through_nltk(key):
        synset = reader.lemma_from_key(key).synset()
        text = " ".join([synset.definition(), *synset.examples(),
                         *(name.replace("_", " ") for name in synset.lemma_names())])
        return {reader.morphy(word) or word for word in WORD.findall(text.lower())
                if (reader.morphy(word) or word) not in STOP_WORDS and word not in STOP_WORDS}

    keys = [line.split(" ")[0] for line in wordnet.sense_index().lines]
    for key in random.Random(2).sample(keys, 1000) + ["bank%1:17:01::", "galore%5:00:00:many:00"]:
        assert gloss_lemmas(key) == through_nltk(key), key
    assert wordnet.base_form("geese") == reader.morphy("geese") == "goose"
    assert wordnet.base_form("qwzx") is None and gloss_lemmas("qwzx%1:00:00::") == set()


def test_synset_names_read_without_nltk_are_those_nltk_gives():
    """``synset_name`` numbers a synset among its first word's synsets in ``index.<pos>`` (a
    satellite among the satellites only), as NLTK 3.10 does; every 40th key and the satellites
    whose two numberings differ must agree with NLTK's name."""
    reader = wordnet.wordnet()
    keys = [line.split(" ")[0] for line in wordnet.sense_index().lines]
    for key in keys[::40] + ["bank%1:17:01::", "1st%5:00:00:ordinal:00", "able%5:00:00:fit:01"]:
        assert wordnet.synset_name(key) == reader.lemma_from_key(key).synset().name(), key
    assert wordnet.synset_name("1st%5:00:00:ordinal:00") == "first.s.01"
    assert wordnet.synset_name("qwzx%1:00:00::") is None


def test_counts_and_synset_identity_read_without_nltk_are_nltk_s():
    """``lemma_count`` (the rank system's WordNet counts) and ``same_synset`` (SenseBench's
    rule) read the files; NLTK's ``Lemma.count`` and synset equality must agree."""
    import random

    reader = wordnet.wordnet()
    keys = [line.split(" ")[0] for line in wordnet.sense_index().lines]
    sample = random.Random(3).sample(keys, 2000) + ["bank%1:17:01::", "galore%5:00:00:many:00"]
    for key in sample:
        assert wordnet.lemma_count(key) == reader.lemma_from_key(key).count(), key
    assert wordnet.lemma_count("bank%1:17:01::") > 0
    assert wordnet.lemma_count("qwzx%1:00:00::") == 0 == wordnet.lemma_count("U")
    for first, second in zip(sample, sample[1:] + ["dog%1:05:00::"]):
        assert wordnet.same_synset(first, second) == (
            reader.lemma_from_key(first).synset() == reader.lemma_from_key(second).synset())
    assert wordnet.same_synset("dog%1:05:00::", "domestic_dog%1:05:00::")
    assert not wordnet.same_synset("qwzx%1:00:00::", "qwzx%1:00:00::")
