"""The published results printed beside ours, each with its source: the one list that
``bin/train``, ``bin/evaluate``, ``bin/report``, the benchmarks and README.md show
(``tests/test_references.py`` checks README's rows against it).
"""
from __future__ import annotations

from dataclasses import dataclass


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
    "MFS": {"senseval2": 65.6, "senseval3": 66.0, "semeval2007": 54.5, "ALL": 64.8},
    "WN 1st sense": {"senseval2": 66.8, "senseval3": 66.2, "semeval2007": 55.2, "ALL": 65.2},
    "IMS": {"senseval2": 70.9, "senseval3": 69.3, "semeval2007": 61.3, "ALL": 68.4},
    "IMS+emb": {"ALL": 69.1},
}
RAGANATO_SOURCE = ("Raganato, Camacho-Collados & Navigli 2017, Word Sense Disambiguation: "
                   "A Unified Evaluation Framework and Empirical Comparison, EACL")

# AmbiStory (SemEval-2026 Task 5) test rows of Gehring & Roth (2025), Table 3: (Spearman's rho,
# accuracy within SD); None where the source gives no rho.
AMBISTORY = {"random": (0.000, 0.454), "majority, always 4": (None, 0.558),
             "Llama-3-8B 0-shot": (0.462, 0.663), "GPT-4o": (0.756, 0.755),
             "humans": (0.834, 0.892)}
AMBISTORY_SOURCE = "Gehring & Roth 2025, Table 3, test set"
