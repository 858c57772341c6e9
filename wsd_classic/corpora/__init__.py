"""Readers (and writers) for the corpus and key formats the project consumes."""
