"""Named datasets: where each lives under the data dir, its files with their SHA-256, and where a
user gets it.

Scores are only comparable when every run reads the same bytes, so a dataset is used only after
each of its files has been found and checked against the hash registered here. A missing file
with a stable public URL is downloaded; anything else that is wrong (missing, corrupt, a different
release) is one ``WsdError`` that names the file, the hashes and where the public copy lives.
"""
from __future__ import annotations

import hashlib
import os
import secrets
import sys
import urllib.error
import urllib.request
import warnings
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from wsd_classic import settings
from wsd_classic.errors import WsdError

CHUNK_SIZE = 1 << 20
DOWNLOAD_TIMEOUT_SECONDS = 60


class UnverifiedDataWarning(UserWarning):
    """A dataset was used although no SHA-256 is registered for some of its files."""


@dataclass(frozen=True)
class DataFile:
    """One file of a dataset, ``path`` relative to the dataset directory.

    ``sha256`` is None when no trustworthy hash is known: the file is then only checked for
    presence and every use warns that it is unverified. ``url`` is set only where a stable public
    copy of exactly these bytes exists; a missing file is downloaded from it.
    """

    path: str
    sha256: str | None
    url: str | None = None


@dataclass(frozen=True)
class DataTree:
    """Directories (relative to the dataset directory) checked together by one tree hash.

    Used where a dataset is hundreds of files and no per-file hashes are published; the hash is
    defined by ``tree_sha256``.
    """

    directories: tuple[str, ...]
    sha256: str


@dataclass(frozen=True)
class Dataset:
    """A named dataset: ``directory`` under the data dir, what it must contain, where to get it.

    ``companions`` must exist but are not hashed: small auxiliary files (such as a DTD) that the
    published checksums do not cover.
    """

    name: str
    directory: str
    source: str
    files: tuple[DataFile, ...] = ()
    companions: tuple[str, ...] = ()
    trees: tuple[DataTree, ...] = ()

    def paths(self) -> list[str]:
        """Every registered path: hashed files, companions, tree directories."""
        return [entry.path for entry in self.files] + list(self.companions) + [
            directory for tree in self.trees for directory in tree.directories]


RAGANATO_SOURCE = (
    "the WSD Evaluation Framework of Raganato, Camacho-Collados & Navigli (EACL 2017): the ZIP "
    "http://lcl.uniroma1.it/wsdeval/data/WSD_Evaluation_Framework.zip, folder "
    "Evaluation_Datasets/{name}/ (no per-file URLs)")
RAGANATO_SHA256 = {
    "senseval2": ("5f5fe6a74fdd4ee85ca271c49a3b88131e4a7ba04a11a1392c1333efcbfe9be9",
                  "1e1c43116dadc796763c59f66cc61aa204cfb1886e5825836a96cf9b96a056e8"),
    "senseval3": ("ecd472808c5f3873b0e90fda6182519e5ed6081929435a67eb7f2c5a8fd36839",
                  "1faa09ca47a9c4627c0c1078dfc30e39c16d6ce728a532cc670007fbca0be70e"),
    "semeval2007": ("ff0cb1350acf7d0bf09f05b18c537870c8205f12daa2510099674a227c149f38",
                    "06dce0b5892bb5c625ebfd8755d1a31a5a04df6882709aa29c1dcd44befb3b41"),
    # Not in the team's shared copy: hashed from the framework's files as a public repository
    # (HSLCY/GlossBERT, Evaluation_Datasets/) holds them, whose semeval2007.data.xml is byte for
    # byte the one hashed above.
    "semeval2013": ("58682da53cdb24e7563f9a77bc357616eee6863399c2be62f8927c9d5eb20245",
                    "3dcedb0b9bed2906c3651d089236801c5353198ba6eda0575f864e3d18ee81cc"),
    "semeval2015": ("e0804170a39fac9d0da6c707b0b974d493a385743557a40626abf36609372650",
                    "3a15c65607f27efb3846a71a303b21d0916b5bb527348bf27f526d6770301eaf"),
    # The team's shared copy (data README), whose five parts' instances are those of the five
    # sets hashed above with ids prefixed by the set's name.
    "ALL": ("27a9da01b6d4a1e4dc7c76d15148a38eaa56cc0df371cae4416d04e541b6fe36",
            "0bf2ffc38f572587c72b59ea928da676423b99b5a54bd1a83eb4848b517d3170"),
}
# The sets ALL concatenates, as its ids' prefixes name them (``senseval2.d000.s000.t000``).
ALL_PARTS = ("senseval2", "senseval3", "semeval2007", "semeval2013", "semeval2015")
# lexEN's release manifest (data/lexen-v1/dataset.json) at this commit lists exactly the hashes
# registered below, so the files are fetched from that commit, never from a moving branch.
LEXEN_COMMIT = "ce8956e704c215cc5621289aa00ed10774d5142a"
LEXEN_URL = (f"https://raw.githubusercontent.com/GliteTech/lexen/{LEXEN_COMMIT}"
             "/exports/raganato/lexen-v1/")


# The challenge sets of Maru et al. (ACL 2022), "Nibbling at the Hard Core of Word Sense
# Disambiguation", in Raganato's format: 42D (rare and unseen senses), hardEN and softEN (what
# none / some of the systems they studied solve), and the amended ALL and SemEval-2010 sets.
HARD_BENCHMARK_SOURCE = (
    "the challenge sets of Maru et al. (ACL 2022): the public repository "
    "SapienzaNLP/wsd-hard-benchmark, folder wsd_hard_benchmark/{name}/ (licence CC BY-NC 4.0; "
    "no per-file URLs); put both files in raganato/{name}/")
HARD_BENCHMARK_SHA256 = {
    "42D": ("45ae38a0f3758c03ca4a568e5d031ac0baa09784b70cb257bbd64e3a1be5cf1a",
            "d6b1a81dec6f6418238a880727f033cca8a3317142a25012183483f731d53c78"),
    "hardEN": ("7d7909082e084851af2d3d0463e01b5d2163428d9c2071298e4c4b29b2837e93",
               "ff378ce80d8b60cbf78382d476fb782e96949c87fd716a19dcbda0649550b1b1"),
    "softEN": ("70bb8c969dd52986854c2a8687ae49de2097957e5563f8d952605478ed03b938",
               "0aa89b660bf707021f5ca3302c643620524b565cab3ccf725e2532482c55bd20"),
    "ALLamended": ("7b91e0cccc6372b0482f63bf030321ed12688bc91a169d3ef81f73afcaad58b4",
                   "c33cbc824dad5b5d5f0e2666ed308fe1a2ea05f5de7199d2f3c13f62f4a698ee"),
    "S10amended": ("33a0dd961328a4da1e76edfa84d7e507fe955e1fc93d1c26f9b523478d5fb117",
                   "403e08c099360344b5230b3781b75c2dc3514a4954387cf3490e4a209fa58dd9"),
}


def _raganato(name: str, data_sha256: str | None, gold_sha256: str | None,
              source: str | None = None, base_url: str | None = None) -> Dataset:
    """A set in Raganato's layout: ``raganato/NAME/NAME.data.xml`` and ``NAME.gold.key.txt``."""
    files = tuple(
        DataFile(filename, sha256, base_url + filename if base_url else None)
        for filename, sha256 in ((f"{name}.data.xml", data_sha256),
                                 (f"{name}.gold.key.txt", gold_sha256)))
    return Dataset(name, f"raganato/{name}", source or RAGANATO_SOURCE.format(name=name), files)


DATASETS: dict[str, Dataset] = {dataset.name: dataset for dataset in (
    Dataset(
        "senseval2-ls", "senseval2-ls",
        "the SENSEVAL-2 English lexical sample as repackaged by Ted Pedersen (whitespace-cleaned "
        "XML training and test archives on his data page, www.d.umn.edu/~tpederse/data.html); "
        "unpack them into senseval2-ls/ (no per-file URLs)",
        files=(
            DataFile("eng-lex-sample.training.xml",
                     "fcc3e8833c9c1a48788e7579834508a654fa186bbbf6c87b5d09186bcfdb85c5"),
            DataFile("eng-lex-samp.evaluation.xml",
                     "2941f6e480db5eb4a780af78096d9a597f2b9a6ff12bec501b8cfbee74be8d33"),
            DataFile("eng-lex-samp.evaluation.key",
                     "cf14f885d354cf257481e06616b25ae15ee11c11288dc85d958ec59d114ddb01"),
            DataFile("eng-lex-sample.training.key",
                     "249cf6a619ad2ce51f8de1db2d4bb964d541c418d03c5d223defdfcd53dbe420"),
            DataFile("eng-lex-sample.training.senses",
                     "1b130f25dd100928e24652a9b73342a0d0aa970e893c23ca2f70ab9142ff17d8"),
        ),
        companions=("lexical-sample.dtd",),
    ),
    Dataset(
        "semcor-3.0", "semcor-3.0",
        "SemCor 3.0 from Princeton (semcor3.0 archive, e.g. on Rada Mihalcea's downloads page, "
        "web.eecs.umich.edu/~mihalcea/downloads.html); unpack it so that semcor-3.0/brown1/, "
        "brown2/ and brownv/ hold the tagfiles/ folders (no per-file URLs)",
        trees=(DataTree(("brown1/tagfiles", "brown2/tagfiles", "brownv/tagfiles"),
                        "74c56d3b925474fc1784fb3922d9faab147931d51d0c2ac3a74fef219044b5c0"),),
    ),
    *(_raganato(name, *hashes) for name, hashes in RAGANATO_SHA256.items()),
    *(_raganato(name, *hashes, source=HARD_BENCHMARK_SOURCE.format(name=name))
      for name, hashes in HARD_BENCHMARK_SHA256.items()),
    Dataset(
        "ambistory", "ambistory",
        "AmbiStory (Gehring & Roth 2025), the data of SemEval-2026 Task 5: the public repository "
        "github.com/Janosch-Gehring/ambistory (train.json, dev.json, and test_(redacted).json "
        "saved as test_redacted.json)",
        files=(
            DataFile("train.json",
                     "7b3207fa81513027d39193a9a601fba6f886323a893661eb3a94c14f432bbf60"),
            DataFile("dev.json",
                     "a3110b61fd20a37caac2ed56fe0a7b0d17ce29d34b156ce65cc2396d5bda705a"),
            DataFile("test_redacted.json",
                     "2b37783071869c1320bd45473705fc9238956602764308d9611c94eb82ad7f5c"),
        ),
    ),
    _raganato(
        "lexen-v1", "a4ac671f62b9637e9d7e2e03c9c7f65a82c00d859ef6039738d04760f0c9fac4",
        "6f7ed4ba21a06bd62ffd4e579dba1521d1f9c0686131476eb9200e66ed427801",
        source=f"the lexEN repository (github.com/GliteTech/lexen, commit {LEXEN_COMMIT}), "
               "folder exports/raganato/lexen-v1/",
        base_url=LEXEN_URL),
    # Optional (``corpora.syntagnet``): its licence, CC BY-NC-SA 4.0, keeps it out of the
    # repository, and the knowledge graph is WordNet alone without it.
    Dataset(
        "syntagnet", "syntagnet",
        "SyntagNet 1.0 (Maru et al., EMNLP-IJCNLP 2019; licence CC BY-NC-SA 4.0): the archive at "
        "syntagnet.org or the public repository x-englishwordnet/syntagnet; put "
        "collocations.yaml in syntagnet/",
        files=(DataFile("collocations.yaml",
                        "4dbc51a97446dd5227e7651ea5a75b3c43bd53a7e5db6df8890de91918ed0138"),),
    ),
)}

# SHA-256 by (resolved path, size, mtime in ns): a file rewritten in place changes at least its
# mtime, so repeated checks in one process read each large file once.
_hash_cache: dict[tuple[str, int, int], str] = {}


def file_sha256(path: Path) -> str:
    """SHA-256 of a file, read in chunks; memoised per (path, size, mtime)."""
    status = path.stat()
    key = (str(path.resolve()), status.st_size, status.st_mtime_ns)
    if key in _hash_cache:
        return _hash_cache[key]
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(CHUNK_SIZE):
            digest.update(chunk)
    _hash_cache[key] = digest.hexdigest()
    return _hash_cache[key]


def tree_sha256(root: Path, directories: tuple[str, ...]) -> str:
    """One SHA-256 for every regular file below ``directories`` (relative to ``root``).

    It hashes the lines ``<file sha256>  <path relative to root>\\n`` sorted by path, which is
    what ``LC_ALL=C find DIRS -type f | LC_ALL=C sort | xargs sha256sum | sha256sum`` prints,
    so the value can be reproduced without Python.
    """
    paths = sorted(
        (path for directory in directories for path in (root / directory).rglob("*")
         if path.is_file()),
        key=lambda path: path.relative_to(root).as_posix())
    listing = "".join(
        f"{file_sha256(path)}  {path.relative_to(root).as_posix()}\n" for path in paths)
    return hashlib.sha256(listing.encode("utf-8")).hexdigest()


def _lookup(name: str) -> Dataset:
    """The registered dataset, or a ``WsdError`` listing the known names."""
    try:
        return DATASETS[name]
    except KeyError:
        raise WsdError(f"unknown dataset {name!r}; known datasets: {', '.join(DATASETS)}") from None


def locate(name: str, data_dir: str | os.PathLike | None = None, download: bool = True) -> Path:
    """The dataset's directory, once every file is present (downloaded if need be) and verified.

    Hashes are memoised per file (path, size, mtime), so calling this before each use is cheap.
    """
    return _check(_lookup(name), data_dir, download=download)


def present(name: str, data_dir: str | os.PathLike | None = None) -> bool:
    """Whether any of an optional dataset's files is in the data directory (``locate`` then
    checks them all)."""
    registered = _lookup(name)
    root = settings.data_dir(data_dir) / registered.directory
    return any((root / path).exists() for path in registered.paths())


def file(name: str, filename: str, data_dir: str | os.PathLike | None = None) -> Path:
    """The path of one registered file (or tree directory) of a located, verified dataset."""
    registered = _lookup(name)
    if filename not in registered.paths():
        raise WsdError(f"dataset {name} has no file {filename!r}; its files: "
                       f"{', '.join(registered.paths())}")
    return locate(name, data_dir) / filename


def _check(registered: Dataset, data_dir: str | os.PathLike | None, download: bool) -> Path:
    root = settings.data_dir(data_dir) / registered.directory
    for entry in registered.files:
        target = root / entry.path
        if not target.is_file():
            if entry.url is None or not download:
                raise _missing(registered, entry.path, target, entry.sha256, entry.url)
            _download(registered, entry, target)
        elif entry.sha256 is not None:
            _compare(registered, entry.path, target, entry.sha256,
                     file_sha256(target), entry.url)
    for companion in registered.companions:
        if not (root / companion).is_file():
            raise _missing(registered, companion, root / companion, None, None)
    for tree in registered.trees:
        for directory in tree.directories:
            if not (root / directory).is_dir():
                raise _missing(registered, f"{directory}/", root / directory, tree.sha256, None)
        _compare(registered, f"the tree hash of {', '.join(tree.directories)}", root, tree.sha256,
                 tree_sha256(root, tree.directories), None)
    unverified = [entry.path for entry in registered.files if entry.sha256 is None]
    if unverified:
        warnings.warn(
            f"{registered.name}: no SHA-256 registered for {', '.join(unverified)} in {root}: "
            "used as found, NOT verified against the published release",
            UnverifiedDataWarning, stacklevel=3)
    return root


def _missing(registered: Dataset, what: str, path: Path, sha256: str | None,
             url: str | None) -> WsdError:
    expected = f"expected SHA-256 {sha256}" if sha256 else "no SHA-256 registered"
    hint = (f"downloads are disabled: fetch it from {url}" if url
            else f"get it from {registered.source}")
    return WsdError(f"{what} of dataset {registered.name} not found ({expected}); {hint}",
                    path=path)


def _compare(registered: Dataset, what: str, path: Path, expected: str, actual: str,
             url: str | None) -> None:
    if actual != expected:
        raise WsdError(
            f"{what} of dataset {registered.name} has SHA-256 {actual}, expected {expected}: it "
            f"is damaged or another release; the public copy: {url or registered.source}",
            path=path)


def _download(registered: Dataset, entry: DataFile, target: Path) -> None:
    """Fetch ``entry.url`` to a temporary name beside ``target``, verify it, then rename it.

    Whatever goes wrong, no partial or unverified file is left behind under any name.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{secrets.token_hex(4)}.part")
    try:
        actual = _fetch(entry.url, partial, label=entry.path)
        if entry.sha256 is not None and actual != entry.sha256:
            raise WsdError(
                f"downloaded {entry.url} has SHA-256 {actual}, expected {entry.sha256}; nothing "
                f"was kept; the dataset's source: {registered.source}", path=target)
        os.replace(partial, target)
    except OSError as error:  # urllib.error.URLError is an OSError, so are timeouts
        raise WsdError(
            f"could not download {entry.path} of dataset {registered.name} from {entry.url}: "
            f"{_reason(error)} (expected SHA-256 {entry.sha256}); get it from {registered.source}",
            path=target) from None
    finally:
        partial.unlink(missing_ok=True)


def _fetch(url: str, destination: Path, label: str) -> str:
    """Stream ``url`` into a new file ``destination``; returns the SHA-256 of what was written."""
    digest = hashlib.sha256()
    with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT_SECONDS) as response:
        length = response.headers.get("Content-Length")
        with destination.open("xb") as out, \
                tqdm(total=int(length) if length else None, unit="B", unit_scale=True,
                     desc=label, disable=not sys.stderr.isatty()) as progress:
            while chunk := response.read(CHUNK_SIZE):
                out.write(chunk)
                digest.update(chunk)
                progress.update(len(chunk))
    return digest.hexdigest()


def _reason(error: OSError) -> str:
    """``HTTP 404 Not Found`` or ``[Errno 111] Connection refused`` rather than urllib's repr."""
    if isinstance(error, urllib.error.HTTPError):
        return f"HTTP {error.code} {error.reason}"
    return str(getattr(error, "reason", None) or error)
