"""``bin/wordnet``: prepare WordNet 3.0 for NLTK from Debian's files (``./install`` runs it).

    bin/wordnet
"""
from __future__ import annotations

import argparse

from wsd_classic import wordnet
from wsd_classic.cli import entry_point


@entry_point
def main(argv=None):
    argparse.ArgumentParser(prog="wordnet", description=__doc__.split("\n")[0]).parse_args(argv)
    target = wordnet.setup()
    print(f"WordNet 3.0 ready for NLTK in {target} (version {wordnet.wordnet().get_version()})")
