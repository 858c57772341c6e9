"""Shared test set-up: where the corpora are, and running the command-line tools."""
import contextlib
import functools
import os
import signal
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


# Commands run from temporary directories: a relative data directory must not change meaning.
os.environ["WSD_CLASSIC_DATA"] = str(
    Path(os.environ.get("WSD_CLASSIC_DATA", REPO.parent / "shared" / "data")).resolve())


def shared_data() -> Path:
    return Path(os.environ["WSD_CLASSIC_DATA"])


@pytest.fixture
def run_command(tmp_path):
    """Run ``bin/NAME args`` with a private cache; returns the CompletedProcess."""

    def run(name, *args, env=None, stdin=None):
        environment = {**os.environ, "WSD_CLASSIC_CACHE": str(tmp_path / "cache"), **(env or {})}
        return subprocess.run([str(REPO / "bin" / name), *map(str, args)], capture_output=True,
                              text=True, env=environment, input=stdin, cwd=tmp_path, timeout=600)

    return run


def assert_one_line_error(result, *fragments):
    """Non-zero exit, exactly one stderr line, no traceback, and the fragments in it."""
    assert result.returncode != 0, result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def assert_error_at(read, path: Path, line: int | None, fragment: str) -> None:
    """``read(path)`` raises a WsdError whose message holds ``fragment`` and which names
    ``path`` and ``line``."""
    from wsd_classic.errors import WsdError

    with pytest.raises(WsdError) as raised:
        read(path)
    assert fragment in raised.value.message
    assert (raised.value.path, raised.value.line) == (str(path), line)


# Word vectors for in-process tests, learnt by bench/self_vectors.py's word2vec from the
# fixtures' texts in well under a second; a featurizer is given them as a caller's own vectors
# (``FIXTURE_SOURCE``), or reads them installed (``installed_fixture_vectors``).
FIXTURE_VECTOR_SETTINGS = {"dimensions": 8, "window": 3, "epochs": 5, "min_count": 1}
FIXTURE_SOURCE = "fixture"


@functools.lru_cache(maxsize=1)
def fixture_vectors():
    from bench import self_vectors
    from wsd_classic.corpora.allwords import read_semcor_corpus
    from wsd_classic.corpora.lexsample import read_lexical_sample

    texts = [instance.text for name in ("tag_training.xml", "tag_test.xml")
             for instance in read_lexical_sample(FIXTURES / name).instances()]
    texts += [" ".join(sentence.words)
              for sentence in read_semcor_corpus(FIXTURES / "allwords_semcor").sentences]
    return self_vectors.train([self_vectors.tokens(text) for text in texts],
                              self_vectors.VectorSettings(**FIXTURE_VECTOR_SETTINGS))


def head_text(instance) -> str:
    """The target's text in its context."""
    return instance.text[slice(*instance.head)]


def plain_row(features: dict) -> dict:
    """A row's groups with each ``Weighted`` block as its names and values, for ``==``."""
    return {group: [name if isinstance(name, str) else (name.names, name.values.tolist())
                    for name in names] for group, names in features.items()}


def fixture_embedding():
    from wsd_classic.features.embeddings import ContextEmbedding, EmbeddingRule

    return ContextEmbedding(EmbeddingRule(window=3, sources=(FIXTURE_SOURCE,)), fixture_vectors())


@pytest.fixture
def installed_fixture_vectors(tmp_path, monkeypatch):
    """The fixture vectors installed as ``bin/vectors --install`` writes a pretrained set, under
    the name this returns, in a vectors directory of their own (the loader forgets what it read
    before and after)."""
    import numpy as np

    from wsd_classic import settings
    from wsd_classic.features import pretrained_vectors

    vectors, directory = fixture_vectors(), tmp_path / "installed vectors"
    directory.mkdir()
    monkeypatch.setenv(settings.VECTORS_ENV, str(directory))
    installed = pretrained_vectors.Pretrained(
        "fixture-8d", "fixture_vectors", "", "", "", vectors.identity,
        pretrained_vectors.spot_digest(vectors))
    installed.words_path.write_text("\n".join(vectors.words))
    np.save(installed.path, np.asarray(vectors.matrix, dtype=np.float32))
    monkeypatch.setitem(pretrained_vectors.PRETRAINED, installed.name, installed)
    pretrained_vectors.load.cache_clear()
    yield installed.name
    pretrained_vectors.load.cache_clear()


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory):
    """commonest, dlist and svm trained on tests/fixtures/tag_training.xml (4 lexelts, 10
    instances each) into a temporary models root, for the tagging and model-store tests.

    Returns ``(models_root, task, featurized training corpus)``.
    """
    from wsd_classic import modelstore
    from wsd_classic.corpora.lexsample import read_lexical_sample
    from wsd_classic.corpora.registry import file_sha256
    from wsd_classic.features.featurizer import Featurizer
    from wsd_classic.tasks import engine

    base, task, training = tmp_path_factory.mktemp("tiny"), "tag-fixture", FIXTURES / "tag_training.xml"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WSD_CLASSIC_CACHE", str(base / "cache"))
        corpus = engine.featurize(read_lexical_sample(training),
                                  Featurizer(embedding=fixture_embedding()))
    for system in ("commonest", "dlist", "svm"):
        trained = engine.train(system, corpus, task, progress=False)
        trained.info = {"training_file": str(training), "training_sha256": file_sha256(training)}
        modelstore.save(trained, base / "models")
    return base / "models", task, corpus


def write_report_lines(config, lines: list[str]) -> None:
    """Print ``lines`` in pytest's terminal report, past output capturing (fuzz counts)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    if reporter is None:
        return
    with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
        reporter.write_line("")
        for line in lines:
            reporter.write_line(line)


@pytest.fixture(scope="session")
def allwords_models(tmp_path_factory):
    """The all-words mfs and svm trained on the miniature SemCor
    (tests/fixtures/allwords_semcor) into a temporary models root."""
    from wsd_classic.tasks import allwords

    root = tmp_path_factory.mktemp("allwords-models")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WSD_CLASSIC_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))
        allwords.train_semcor(FIXTURES / "allwords_semcor", ["mfs", "svm"], root)
    return root


@pytest.fixture
def tag(tiny_models, capsys):
    """Run ``bin/tag ARGS`` in-process on the tiny models; returns (exit status, stdout, stderr)."""
    from wsd_classic.cli import tag as tag_cli

    root, task, _ = tiny_models

    def run(*args):
        status = tag_cli.main(["--task", task, "--models-dir", str(root), *map(str, args)])
        captured = capsys.readouterr()
        return status, captured.out, captured.err

    return run


def pytest_configure(config):
    """Ctrl-C is what several tests exercise: a run started in the background by a
    non-interactive shell inherits SIGINT ignored, and so would every program the tests start."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
