"""Gloss evidence: the context's similarity to each candidate's WordNet signature."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from wsd_classic import wordnet
from wsd_classic.features import EXTRACTORS, PREFIXES, select_groups
from wsd_classic.features.gloss import candidate_keys, gloss_evidence, similarities
from wsd_classic.features.weighted import Weighted
from wsd_classic.preprocess.document import ProcessedInstance

RIVER, MONEY = "bank%1:17:01::", "bank%1:14:00::"
REPO = Path(__file__).resolve().parent.parent


def bank_doc(context: list[str], lexelt="bank.n") -> ProcessedInstance:
    """``context`` words (their own lemmas, none a stop word) then the target ``bank``."""
    words = (*context, "bank")
    return ProcessedInstance(
        id="d.1", lexelt=lexelt, words=words, lemmas=words, tags=("NN",) * len(words),
        sentences=(0,) * len(words), heads=(len(context),) * len(words),
        deps=("dep",) * len(words), stops=(False,) * len(words), target=len(context))


def test_the_sense_whose_signature_the_context_shares_ranks_first():
    # WordNet 3.0: bank%1:17:01:: "sloping land (especially the slope beside a body of water)";
    # bank%1:14:00:: "a financial institution that accepts deposits and channels the money...".
    for context, expected in ((["slope", "water", "river"], RIVER),
                              (["financial", "institution", "loans"], MONEY)):
        table, values = similarities(bank_doc(context))
        assert table.keys[int(np.argmax(values))] == expected, context
        assert values.min() >= 0 and values.max() <= 1


def test_the_feature_is_one_weighted_block_over_every_wordnet_sense_of_the_lexelt():
    [block] = gloss_evidence(bank_doc(["slope", "water"]))
    assert isinstance(block, Weighted)
    assert block.names == tuple(f"gloss={key}" for key in wordnet.wordnet_senses("bank", "n"))
    # rows of one lexelt share one names tuple, so a corpus holds it once
    assert gloss_evidence(bank_doc(["money"]))[0].names is block.names


def test_no_context_word_in_any_signature_gives_zeros_and_no_sense_gives_no_block():
    [block] = gloss_evidence(bank_doc(["zzyzx"]))
    assert not block.values.any()
    assert gloss_evidence(bank_doc(["slope"], lexelt="qwertyuiop.n")) == []
    assert gloss_evidence(bank_doc(["slope"], lexelt="anvil-n")) == []


def test_a_phrasal_verb_also_takes_the_senses_of_the_lemma_joined_to_its_particles():
    keys = candidate_keys("call.v", ("for",))
    assert set(wordnet.wordnet_senses("call", "v")) < set(keys)
    assert set(wordnet.wordnet_senses("call_for", "v")) <= set(keys)


def test_synsets_are_read_from_the_data_files_with_words_pointers_and_examples():
    synset = wordnet.synset_at(*wordnet.synset_location("galore%5:00:00:many:00"))
    assert synset.words == ("galore",)  # the adjective marker "(ip)" dropped
    assert synset.definition == "in great numbers"
    assert synset.examples == ("daffodils galore",)
    assert [(symbol, pos) for symbol, pos, _ in synset.pointers] == [("&", "a")]
    assert wordnet.synset_location("bank%9:99:99::") is None


def test_every_group_names_its_features_with_its_prefix():
    from conftest import fixture_embedding
    from wsd_classic.features.featurizer import Featurizer

    doc = bank_doc(["steep", "slope"])
    by_group = Featurizer(embedding=fixture_embedding()).by_group(doc)
    assert by_group["ppr"] == []  # filled by a lexical-sample run's walks, not per context
    for group in (group for group in EXTRACTORS if group != "ppr"):
        features = by_group[group]
        assert features, group
        assert select_groups(features, [group]) == features, group
        others = [other for other in EXTRACTORS if other != group]
        assert select_groups(features, others) == [], group
        assert PREFIXES[group]


def test_similarities_do_not_follow_the_per_process_string_hash():
    # Sums over a set of stems would follow the set's order, which PYTHONHASHSEED sets.
    code = ("import sys; sys.path.insert(0, 'tests'); from test_gloss import bank_doc; "
            "from wsd_classic.features.gloss import similarities; "
            "words = 'river water slope land financial institution money deposit account "
            "loan building business sloping incline row tier flight reserve funds'.split(); "
            "print(similarities(bank_doc(words))[1].tobytes().hex())")
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, cwd=REPO,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2")}
    assert len(outputs) == 1
