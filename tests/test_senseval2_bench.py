"""bench/senseval2_ls.py's yardstick: plain spaCy over the contexts a cold run analyses."""
from __future__ import annotations

import json
import subprocess
import sys

from conftest import FIXTURES, REPO
from wsd_classic.corpora.lexsample import read_lexical_sample

from bench import senseval2_ls


def test_plain_spacy_reads_every_context_of_the_given_files():
    files = [FIXTURES / "train_small.xml", FIXTURES / "test_small.xml"]
    command = [sys.executable, "-c", senseval2_ls.PLAIN_SPACY, "1", *map(str, files)]
    figures = json.loads(subprocess.run(command, capture_output=True, text=True, check=True,
                                        cwd=REPO).stdout)
    contexts = [instance.text for path in files
                for instance in read_lexical_sample(path).instances()]
    assert figures["contexts"] == len(contexts)
    # spaCy's tokens: at least one per whitespace-separated word
    assert figures["tokens"] >= sum(len(text.split()) for text in contexts)
    assert figures["pipe_seconds"] > 0
