"""Parts of speech: WordNet's four, and how each source spells them.

WordNet 3.0 has nouns (``n``), verbs (``v``), adjectives (``a``, their satellites ``s`` among
them) and adverbs (``r``): lexelts (``bank.n``), candidate lists and data files are keyed by
these letters. The maps below turn the other spellings into them (a sense key's synset-type
digit, a data file's pointer, spaCy's universal tags) and them into words for people.
"""
from __future__ import annotations

# The synset-type digit of a sense key (``jury%1:14:00::``): WordNet's part of speech,
# adjective satellites (5) counting as adjectives.
KEY_POS = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}
# The same digit as a synset's name spells it (``first.s.01``): a satellite keeps its ``s``.
SYNSET_NAME_POS = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "s"}
# A pointer's part of speech in a data file: adjective satellites live in the adjective file.
POINTER_POS = {"n": "n", "v": "v", "a": "a", "s": "a", "r": "r"}
# spaCy's universal tags of the four, and back (``s``, a satellite, is an adjective).
UNIVERSAL_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
SPACY_TAGS = {**{letter: tag for tag, letter in UNIVERSAL_POS.items()}, "s": "ADJ"}
# The first two letters of a Penn Treebank tag (a lexical sample's analyses) of the four.
PENN_POS = {"NN": "n", "VB": "v", "JJ": "a", "RB": "r"}
POS_NAMES = {"n": "noun", "v": "verb", "a": "adjective", "r": "adverb"}
