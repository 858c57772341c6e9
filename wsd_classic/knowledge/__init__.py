"""Knowledge for the knowledge-based system: the WordNet (+ SyntagNet) graph (``graph``), the
personalised PageRank walk over it (``pagerank``) and its word-by-word use (``word_to_word``)."""
