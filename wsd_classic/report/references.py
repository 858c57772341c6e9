"""The published results printed beside ours, each with its source: the one list that
``bin/train``, ``bin/evaluate``, ``bin/compare``, ``bin/report``, the benchmarks and README.md
show (``tests/test_references.py`` checks README's and docs' rows against it).
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Reference:
    name: str
    fine: float
    source: str
    coarse: float | None = None


# SENSEVAL-2 English lexical sample, fine-grained recall (all instances attempted by these
# systems, so recall equals precision), best first.
SENSEVAL2_LS = (
    Reference("Iacobacci et al. 2016, IMS + word embeddings", 69.9,
              "Iacobacci, Pilehvar & Navigli 2016, Embeddings for Word Sense Disambiguation: "
              "An Evaluation Study, ACL"),
    Reference("Cai et al. 2007, topic features", 68.9,
              "Cai, Lee & Teh 2007, Improving Word Sense Disambiguation Using Topic Features, "
              "EMNLP-CoNLL"),
    Reference("Florian & Yarowsky 2002, classifier combination", 66.5,
              "Florian & Yarowsky 2002, Modeling consensus, EMNLP"),
    Reference("Lee & Ng 2002, SVM with all knowledge sources", 65.4,
              "Lee & Ng 2002, An empirical evaluation of knowledge sources..., EMNLP"),
    Reference("IMS (Zhong & Ng 2010)", 65.3,
              "Zhong & Ng 2010, It Makes Sense, ACL demos"),
    Reference("JHU, best SENSEVAL-2 system (Yarowsky et al. 2001)", 64.2,
              "Yarowsky et al. 2001, The Johns Hopkins SENSEVAL-2 system descriptions"),
    Reference("Lesk-corpus, official baseline (Kilgarriff 2001)", 51.2,
              "Kilgarriff 2001; Edmonds & Cotton 2001, SENSEVAL-2: Overview"),
    Reference("Commonest, official baseline (Kilgarriff 2001)", 47.6,
              "Kilgarriff 2001, English lexical sample task description, SENSEVAL-2 workshop"),
)

# Raganato, Camacho-Collados & Navigli 2017 (EACL), F1 on the all-words datasets.
RAGANATO_2017 = {
    "MFS": {"senseval2": 65.6, "senseval3": 66.0, "semeval2007": 54.5, "semeval2013": 63.8,
            "semeval2015": 67.1, "ALL": 64.8},
    "WN 1st sense": {"senseval2": 66.8, "senseval3": 66.2, "semeval2007": 55.2,
                     "semeval2013": 63.0, "semeval2015": 67.8, "ALL": 65.2},
    "IMS": {"senseval2": 70.9, "senseval3": 69.3, "semeval2007": 61.3, "semeval2013": 65.3,
            "semeval2015": 69.5, "ALL": 68.4},
    "IMS+emb": {"senseval2": 71.0, "senseval3": 69.3, "semeval2007": 60.9, "semeval2013": 67.3,
                "semeval2015": 71.3, "ALL": 69.1},
}
RAGANATO_CITATION = "Raganato et al. 2017"
RAGANATO_SOURCE = ("Raganato, Camacho-Collados & Navigli 2017, Word Sense Disambiguation: "
                   "A Unified Evaluation Framework and Empirical Comparison, EACL")


@dataclass(frozen=True)
class AllWordsReference:
    """A published all-words row: its short citation and full source, F1 (%) by dataset name,
    and on ALL by split (the names of
    ``scoring.comparison.SPLITS``) where the source reports it."""

    name: str
    citation: str  # short, for a table cell
    source: str
    f1: dict[str, float]
    all_splits: dict[str, float] = field(default_factory=dict)


def _on_sets(*figures: float) -> dict[str, float]:
    """F1 on senseval2, senseval3, semeval2007, semeval2013, semeval2015 and ALL, in that
    order."""
    return dict(zip(("senseval2", "senseval3", "semeval2007", "semeval2013", "semeval2015",
                     "ALL"), figures))


UKB_SOURCE = ("Agirre, López de Lacalle & Soroa 2018, The risk of sub-optimal use of Open Source "
              "NLP Software: UKB is inadvertently state-of-the-art in knowledge-based WSD, "
              "NLP-OSS")
SYNTAGRANK_SOURCE = ("Scozzafava et al. 2020, Personalized PageRank with Syntagmatic Information "
                     "for Multilingual Word Sense Disambiguation, ACL demos")
BEM_SOURCE = ("Blevins & Zettlemoyer 2020, Moving Down the Long Tail of Word Sense "
              "Disambiguation with Gloss Informed Bi-encoders, ACL")
ESC_SOURCE = ("Barba, Pasini & Navigli 2021, ESC: Redesigning WSD with Extractive Sense "
              "Comprehension, NAACL")

# Every ALL figure here is the instance-weighted mean of its five sets' (tests/test_compare.py
# checks it to the rounding), which catches a mistyped figure. BEM's MFS / LFS figures (94.1 /
# 52.6) count an instance MFS when its first gold key is WordNet's first sense, not any of its
# keys as scoring.comparison does: left out.
ALL_WORDS_PUBLISHED = (
    AllWordsReference("MFS (SemCor)", RAGANATO_CITATION, RAGANATO_SOURCE, RAGANATO_2017["MFS"]),
    AllWordsReference("WN 1st sense", RAGANATO_CITATION, RAGANATO_SOURCE,
                      RAGANATO_2017["WN 1st sense"],
                      {"noun": 67.6, "verb": 50.3, "adjective": 74.3, "adverb": 80.9}),
    AllWordsReference("IMS", RAGANATO_CITATION, RAGANATO_SOURCE, RAGANATO_2017["IMS"]),
    AllWordsReference("IMS+emb", RAGANATO_CITATION, RAGANATO_SOURCE, RAGANATO_2017["IMS+emb"]),
    AllWordsReference("UKB (ppr_w2w)", "Agirre et al. 2018", UKB_SOURCE,
                      _on_sets(68.8, 66.1, 53.0, 68.8, 70.3, 67.3)),
    AllWordsReference("SyntagRank", "Scozzafava et al. 2020", SYNTAGRANK_SOURCE,
                      _on_sets(71.6, 72.0, 59.3, 72.2, 75.8, 71.7)),
    AllWordsReference("BEM", "Blevins & Zettlemoyer 2020", BEM_SOURCE,
                      _on_sets(79.4, 77.4, 74.5, 79.7, 81.7, 79.0),
                      {"noun": 81.4, "verb": 68.5, "adjective": 83.0, "adverb": 87.9}),
    AllWordsReference("ESCHER (SemCor)", "Barba et al. 2021", ESC_SOURCE,
                      _on_sets(81.7, 77.8, 76.3, 82.2, 83.2, 80.7),
                      {"noun": 83.9, "verb": 69.3, "adjective": 83.8, "adverb": 86.7}),
)

# AmbiStory (SemEval-2026 Task 5) test rows of Gehring & Roth (2025), Table 3: (Spearman's rho,
# accuracy within SD); None where the source gives no rho.
AMBISTORY = {"random": (0.000, 0.454), "majority, always 4": (None, 0.558),
             "Llama-3-8B 0-shot": (0.462, 0.663), "GPT-4o": (0.756, 0.755),
             "humans": (0.834, 0.892)}
AMBISTORY_SOURCE = "Gehring & Roth 2025, Table 3, test set"
