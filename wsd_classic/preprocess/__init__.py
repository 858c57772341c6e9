"""spaCy preprocessing of target contexts: tokens, Penn tags, lemmas, sentences, dependencies."""
