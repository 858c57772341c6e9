"""The dataset registry: where datasets are looked for, hash verification, and downloads.

Downloads are tested against an HTTP server on 127.0.0.1 only; nothing here leaves the machine.
"""
from __future__ import annotations

import hashlib
import http.server
import os
import shutil
import socket
import subprocess
import threading
from pathlib import Path

import pytest

from wsd_classic import settings
from wsd_classic.corpora import registry
from wsd_classic.corpora.registry import DataFile, Dataset, DataTree, UnverifiedDataWarning
from wsd_classic.errors import WsdError

SHARED_DATA = Path(os.environ.get(settings.DATA_ENV) or "/work/shared/data")
VERIFIED_IN_SHARED_DATA = ("senseval2-ls", "semcor-3.0", "senseval2", "senseval3", "semeval2007")
PAYLOAD = b"d000.s000.t000 art%1:06:00::\n"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def shared_data() -> Path:
    if not (SHARED_DATA / "senseval2-ls").is_dir():
        pytest.skip(f"the shared corpora are not in {SHARED_DATA}: set {settings.DATA_ENV}")
    return SHARED_DATA


@pytest.fixture
def throwaway(monkeypatch):
    """Register a test-only dataset under the name ``throwaway``; returns a function doing it."""

    def register(*files: DataFile, trees: tuple[DataTree, ...] = ()) -> Dataset:
        dataset = Dataset("throwaway", "throwaway", "the test that made it", files, trees=trees)
        monkeypatch.setitem(registry.DATASETS, "throwaway", dataset)
        return dataset

    return register


def _put(data_dir: Path, data: bytes = PAYLOAD) -> Path:
    path = data_dir / "throwaway" / "payload.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _flip_a_byte(path: Path) -> bytes:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(data)
    return bytes(data)


# --- where datasets are looked for --------------------------------------------------------------

def test_explicit_dir_then_environment_then_cwd_data(tmp_path, monkeypatch, throwaway):
    throwaway(DataFile("payload.txt", sha256(PAYLOAD)))
    explicit, from_env, cwd = tmp_path / "explicit", tmp_path / "env", tmp_path / "cwd"
    for data_dir in (explicit, from_env, cwd / "data"):
        _put(data_dir)
    monkeypatch.chdir(cwd)
    monkeypatch.setenv(settings.DATA_ENV, str(from_env))
    assert registry.locate("throwaway", explicit) == explicit / "throwaway"
    assert registry.locate("throwaway") == from_env / "throwaway"
    monkeypatch.delenv(settings.DATA_ENV)
    assert registry.locate("throwaway") == Path("data") / "throwaway"


def test_unknown_dataset_lists_the_known_ones():
    with pytest.raises(WsdError, match="unknown dataset 'senseval-2'.*senseval2-ls.*lexen-v1"):
        registry.locate("senseval-2")


# --- verification -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", VERIFIED_IN_SHARED_DATA)
def test_shared_corpora_match_their_registered_hashes(shared_data, name):
    assert (registry.locate(name, shared_data, download=False)
            == shared_data / registry.DATASETS[name].directory)


def test_file_gives_a_registered_file_and_rejects_others(shared_data):
    assert registry.file("senseval2-ls", "lexical-sample.dtd", shared_data).is_file()
    with pytest.raises(WsdError, match="no file 'README.train'.*eng-lex-sample.training.xml"):
        registry.file("senseval2-ls", "README.train", shared_data)


def test_corrupted_copy_names_file_and_both_hashes(shared_data, tmp_path):
    copy = tmp_path / "raganato" / "senseval2"
    shutil.copytree(shared_data / "raganato" / "senseval2", copy)
    gold = copy / "senseval2.gold.key.txt"
    gold.chmod(0o644)
    actual = sha256(_flip_a_byte(gold))
    expected = registry.DATASETS["senseval2"].files[1].sha256
    with pytest.raises(WsdError) as caught:
        registry.locate("senseval2", tmp_path)
    message = str(caught.value)
    assert caught.value.path == str(gold)
    assert "senseval2.gold.key.txt" in message and expected in message and actual in message
    assert "WSD_Evaluation_Framework.zip" in message


def test_missing_file_without_url_says_where_to_get_it(tmp_path):
    with pytest.raises(WsdError) as caught:
        registry.locate("senseval2-ls", tmp_path)
    message = str(caught.value)
    assert "eng-lex-sample.training.xml" in message
    assert registry.DATASETS["senseval2-ls"].files[0].sha256 in message
    assert "www.d.umn.edu/~tpederse" in message


def test_missing_unhashed_companion_is_an_error(shared_data, tmp_path):
    copy = tmp_path / "senseval2-ls"
    shutil.copytree(shared_data / "senseval2-ls", copy, ignore=shutil.ignore_patterns("*.dtd"))
    with pytest.raises(WsdError, match="lexical-sample.dtd of dataset senseval2-ls not found"):
        registry.locate("senseval2-ls", tmp_path)


def test_tree_hash_is_what_the_documented_shell_pipeline_prints(tmp_path):
    for relative, text in (("b/tagfiles/br-b01", "x"), ("a/tagfiles/br-a02", "yy"),
                           ("a/tagfiles/br-a01", "z"), ("a/tagfiles/sub/br-a10", "w")):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    shell = subprocess.run(
        "LC_ALL=C find a/tagfiles b/tagfiles -type f | LC_ALL=C sort | xargs sha256sum | sha256sum",
        shell=True, cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split()[0]
    assert registry.tree_sha256(tmp_path, ("a/tagfiles", "b/tagfiles")) == shell


def test_changed_file_in_a_tree_is_reported(tmp_path, throwaway):
    tagfile = tmp_path / "throwaway" / "brown1" / "tagfiles" / "br-a01"
    tagfile.parent.mkdir(parents=True)
    tagfile.write_bytes(PAYLOAD)
    expected = registry.tree_sha256(tmp_path / "throwaway", ("brown1/tagfiles",))
    throwaway(trees=(DataTree(("brown1/tagfiles",), expected),))
    registry.locate("throwaway", tmp_path)
    _flip_a_byte(tagfile)
    with pytest.raises(WsdError, match=f"brown1/tagfiles.*expected {expected}"):
        registry.locate("throwaway", tmp_path)


def test_locate_trusts_an_unchanged_size_and_mtime(tmp_path, throwaway):
    throwaway(DataFile("payload.txt", sha256(PAYLOAD)))
    path = _put(tmp_path)
    registry.locate("throwaway", tmp_path)
    before = path.stat()
    _flip_a_byte(path)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    registry.locate("throwaway", tmp_path)  # memoised: same path, size and mtime
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1))
    with pytest.raises(WsdError, match="expected " + sha256(PAYLOAD)):
        registry.locate("throwaway", tmp_path)


def test_unhashed_file_is_used_with_a_warning(tmp_path, throwaway):
    throwaway(DataFile("payload.txt", None))
    _put(tmp_path, b"anything")
    with pytest.warns(UnverifiedDataWarning, match="payload.txt.*NOT verified"):
        assert registry.locate("throwaway", tmp_path) == tmp_path / "throwaway"


# --- downloads ----------------------------------------------------------------------------------

class _Handler(http.server.BaseHTTPRequestHandler):
    """Serves ``server.documents`` (path -> bytes); anything else is a 404."""

    def do_GET(self):
        self.server.requests.append(self.path)
        body = self.server.documents.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


@pytest.fixture
def no_proxies(monkeypatch):
    """A configured proxy would carry requests for 127.0.0.1 off the machine: bypass it."""
    for variable in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("no_proxy", "*")


@pytest.fixture
def server(no_proxies):
    """An HTTP server on 127.0.0.1, on an ephemeral port."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.documents, httpd.requests = {}, []
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    httpd.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def test_download_places_the_verified_file(tmp_path, server, throwaway):
    server.documents["/payload.txt"] = PAYLOAD
    throwaway(DataFile("payload.txt", sha256(PAYLOAD), server.url + "/payload.txt"))
    directory = registry.locate("throwaway", tmp_path)
    assert (directory / "payload.txt").read_bytes() == PAYLOAD
    assert os.listdir(directory) == ["payload.txt"]
    registry.locate("throwaway", tmp_path)
    assert server.requests == ["/payload.txt"]


def test_download_with_wrong_bytes_leaves_nothing(tmp_path, server, throwaway):
    served = PAYLOAD.replace(b"art", b"bar")
    server.documents["/payload.txt"] = served
    throwaway(DataFile("payload.txt", sha256(PAYLOAD), server.url + "/payload.txt"))
    with pytest.raises(WsdError) as caught:
        registry.locate("throwaway", tmp_path)
    assert sha256(PAYLOAD) in str(caught.value) and sha256(served) in str(caught.value)
    assert os.listdir(tmp_path / "throwaway") == []


def test_download_of_a_missing_document_is_one_clear_error(tmp_path, server, throwaway):
    throwaway(DataFile("payload.txt", sha256(PAYLOAD), server.url + "/gone.txt"))
    with pytest.raises(WsdError, match="could not download payload.txt .*HTTP 404"):
        registry.locate("throwaway", tmp_path)
    assert os.listdir(tmp_path / "throwaway") == []


def test_unreachable_url_is_one_clear_error(tmp_path, throwaway, no_proxies):
    with socket.socket() as probe:  # a port that was free a moment ago and has nothing behind it
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/payload.txt"
    throwaway(DataFile("payload.txt", sha256(PAYLOAD), url))
    with pytest.raises(WsdError) as caught:
        registry.locate("throwaway", tmp_path)
    message = str(caught.value)
    assert f"could not download payload.txt of dataset throwaway from {url}" in message
    assert "refused" in message.lower() and sha256(PAYLOAD) in message
    assert "Traceback" not in message and "\n" not in message
    assert os.listdir(tmp_path / "throwaway") == []


def test_no_download_when_downloads_are_off(tmp_path, server, throwaway):
    server.documents["/payload.txt"] = PAYLOAD
    throwaway(DataFile("payload.txt", sha256(PAYLOAD), server.url + "/payload.txt"))
    with pytest.raises(WsdError, match="downloads are disabled: fetch it from http://127.0.0.1"):
        registry.locate("throwaway", tmp_path, download=False)
    assert server.requests == []


# --- Maru et al.'s challenge sets ---------------------------------------------------------------

CHALLENGE_SETS = ("42D", "hardEN", "softEN", "ALLamended", "S10amended")


@pytest.mark.parametrize("name", CHALLENGE_SETS)
def test_challenge_sets_are_raganato_sets_with_their_published_hashes(name):
    dataset = registry.DATASETS[name]
    assert dataset.directory == f"raganato/{name}"
    assert [entry.path for entry in dataset.files] == [f"{name}.data.xml",
                                                        f"{name}.gold.key.txt"]
    assert all(len(entry.sha256) == 64 and entry.url is None for entry in dataset.files)
    assert "SapienzaNLP/wsd-hard-benchmark" in dataset.source
    assert f"wsd_hard_benchmark/{name}/" in dataset.source and "CC BY-NC 4.0" in dataset.source


def test_challenge_set_hashes_are_those_of_issue_34():
    assert registry.DATASETS["42D"].files[0].sha256 == (
        "45ae38a0f3758c03ca4a568e5d031ac0baa09784b70cb257bbd64e3a1be5cf1a")
    assert registry.DATASETS["S10amended"].files[1].sha256 == (
        "403e08c099360344b5230b3781b75c2dc3514a4954387cf3490e4a209fa58dd9")
    hashes = [entry.sha256 for name in CHALLENGE_SETS for entry in registry.DATASETS[name].files]
    assert len(set(hashes)) == len(hashes)


def test_missing_challenge_set_says_where_to_get_it(tmp_path):
    with pytest.raises(WsdError) as caught:
        registry.locate("hardEN", tmp_path)
    message = str(caught.value)
    assert caught.value.path == str(tmp_path / "raganato" / "hardEN" / "hardEN.data.xml")
    assert "hardEN.data.xml of dataset hardEN not found" in message
    assert registry.DATASETS["hardEN"].files[0].sha256 in message
    assert "SapienzaNLP/wsd-hard-benchmark" in message and "raganato/hardEN/" in message
