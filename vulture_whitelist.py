"""Names vulture finds unused because a framework or a user, not this code, reads or calls them.

Read by ``python -m vulture`` (``[tool.vulture]`` in pyproject.toml); never imported.
"""
import wsd_classic
from wsd_classic import api, modelstore, spacy_component, wordnet
from wsd_classic.tasks import catalogue, distributed

# xml.parsers.expat reads these settings and calls these handlers of the parser it made.
_.buffer_text
_.StartElementHandler
_.EndElementHandler
_.CharacterDataHandler

# spaCy calls the registered factory (@Language.factory, setup.cfg's spacy_factories entry point)
# and passes its pipe protocol's batch_size, which the component does not need.
spacy_component.make_wsd_tagger
spacy_component.WsdTagger.pipe.batch_size

# Dask calls a preloaded module's dask_setup(worker) hook on each worker it starts.
distributed.dask_setup
distributed.dask_setup.worker

# NLTK's WordNetCorpusReader calls map_wn (overridden) and reads these of its own attributes.
wordnet.WordNet30Reader.map_wn
_._data_file_map
_._key_count_file
_._key_synset_file

# Read by name: Task.path("training_key") looks the file up with getattr (bin/report).
catalogue.LexicalSampleFiles.training_key

# io.RawIOBase's protocol, which zipfile and io.BufferedReader call on the model file's reader.
modelstore._PositionalReader.readable
modelstore._PositionalReader.seekable
modelstore._PositionalReader.tell
modelstore._PositionalReader.readinto

# The Python API (docs/api.md): users call these; Python calls a module's __getattr__ (PEP 562).
api.Disambiguator.disambiguate
wsd_classic.__getattr__
