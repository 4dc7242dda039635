"""The bench's host: the built site served as static hosts serve it, and every byte it sends counted.

Compression is decided by the response's type, as static hosts decide it (nginx's `gzip_types`, the
CDNs' lists of compressible types): text, JavaScript, JSON, XML, SVG and WebAssembly go out
gzip-compressed (zlib's default level, 6) to a browser that accepts gzip; archives, images, fonts
and files compressed already (.gz, .zip, .whl, .tar, .png, .woff2, ...) go out as they are.
A compressed body is computed once per file version and kept, as a host's cache would.
Caching as GitHub Pages sends it (the usual host of a MkDocs site): `Cache-Control: max-age=600`
and `Last-Modified`, answered with 304 when a revalidation finds the file unchanged.

HTTP/1.1 with keep-alive (every response carries its length), one thread per connection, each
response sent as it is written (no Nagle's algorithm, as nginx's `tcp_nodelay`). The host runs in a
process of its own, as a reader's host is another machine: its threads never wait on the bench's
own interpreter while it drives the browser (bench/FINDINGS.md).

Bytes are counted where they leave: what each write to the socket sent, the response's head and
its body apart, per request. The body is what crossed the wire after compression; a HEAD answer
or a 304 has none. Requests from the page's workers reach this server like any other, so the
engine's downloads count as they happen. Each record carries when the request arrived and when the
response was sent (wall clock, seconds since the epoch, the clock the page's `performance.timeOrigin`
uses), so a measurement can take the records of its own load, and those before a moment of it.
"""

from __future__ import annotations

import email.utils
import functools
import gzip
import io
import json
import mimetypes
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench import pyodide_next
from lessonkit.authoring import local_site
from lessonkit.authoring.local_site import QuietServer, SiteHandler

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# The bench's reference page is served beside the site, under a path the build never writes; and
# under it, the next Pyodide whose bare boot is measured beside the course's (bench/pyodide_next.py).
REFERENCE = HERE / "reference"
BENCH_PREFIX = "/__bench__/"
# Each path beside the site with the folder it is served from, the longest path first.
BESIDE_THE_SITE = ((pyodide_next.PATH, pyodide_next.FILES), (BENCH_PREFIX, REFERENCE))

# Compressed by static hosts: every text/* type, and these.
COMPRESSIBLE_TYPES = frozenset(
    {
        "application/javascript",
        "application/x-javascript",
        "application/json",
        "application/xml",
        "application/wasm",
        "image/svg+xml",
    }
)
GZIP_LEVEL = 6
CACHE_CONTROL = "max-age=600"
COPY_CHUNK = 64 * 1024


def compressible(content_type: str) -> bool:
    """Whether a static host gzips a response of this type: text, scripts, JSON, XML, SVG, WebAssembly."""
    base = content_type.split(";", 1)[0].strip().lower()
    return base.startswith("text/") or base in COMPRESSIBLE_TYPES or base.endswith(("+json", "+xml"))


@dataclass(frozen=True)
class Sent:
    """One response as it left the host."""

    method: str
    path: str  # the request's path and query
    status: int
    content_type: str
    encoding: str  # "gzip", or "" when sent as stored
    body: int  # bytes of body on the wire (after compression); 0 for HEAD and 304
    head: int  # bytes of status line and headers
    arrived: float  # seconds since the epoch: the request was read
    finished: float  # the last byte was handed to the socket (or the connection broke)
    complete: bool  # the whole body went out
    dest: str  # the browser's Sec-Fetch-Dest: document, script, worker, empty (a fetch), ...


class Ledger:
    """Every response the host sent, in order; safe to add to from the server's threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sent: list[Sent] = []

    def add(self, sent: Sent) -> None:
        with self._lock:
            self._sent.append(sent)

    def mark(self) -> int:
        """A place in the ledger: `since(mark)` gives what was sent after it."""
        with self._lock:
            return len(self._sent)

    def since(self, mark: int = 0) -> list[Sent]:
        with self._lock:
            return list(self._sent[mark:])


def count(sent: list[Sent], before: float | None = None) -> dict[str, Any]:
    """Body bytes on the wire: in all, by path, and (with `before`, seconds since the epoch) of the
    requests that arrived before that moment, what a reader's connection carried to reach it."""
    by_path: dict[str, int] = {}
    for each in sent:
        by_path[each.path] = by_path.get(each.path, 0) + each.body
    summary: dict[str, Any] = {
        "total": sum(each.body for each in sent),
        "head": sum(each.head for each in sent),
        "requests": len(sent),
        "by_path": by_path,
    }
    if before is not None:
        summary["before"] = sum(each.body for each in sent if each.arrived <= before)
    return summary


class _CountingWriter:
    """The socket's writer, counting what each write handed to the socket."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.written = 0

    def write(self, data: bytes) -> int:
        written = self.inner.write(data)
        self.written += len(data)
        return written

    def flush(self) -> None:
        self.inner.flush()


@functools.lru_cache(maxsize=256)
def _gzipped(path: str, mtime_ns: int, size: int) -> bytes:
    """A file's gzip body, once per version of the file (its path, time and size)."""
    return gzip.compress(Path(path).read_bytes(), compresslevel=GZIP_LEVEL, mtime=0)


EXTENSIONS = {
    **SiteHandler.extensions_map,
    ".map": "application/json",
    ".ipynb": "application/x-ipynb+json",
}


def content_type(name: str) -> str:
    """The type the host sends a file as: the site's own MIME types (see local_site), then Python's."""
    suffix = Path(name).suffix.lower()
    return EXTENSIONS.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"


def gzipped_on_the_wire(name: str) -> bool:
    """Whether the host sends this file gzip-compressed (to a browser that accepts gzip)."""
    return compressible(content_type(name))


class HostHandler(SiteHandler):
    """The site's handler (its MIME types, the sitemap on this origin), as a static host sends it,
    with the bench's reference page beside the site under /__bench__/."""

    protocol_version = "HTTP/1.1"
    timeout = 120  # an idle keep-alive connection is closed after this
    # Each response goes out as it is written, as hosts send it (nginx's tcp_nodelay is on by default).
    # With Nagle's algorithm on a keep-alive connection, a response's body waited for the browser's
    # delayed acknowledgement of its head: every small file took tens of milliseconds on loopback,
    # which a page of many small files paid and the reference, of a few large ones, hardly did.
    disable_nagle_algorithm = True
    ledger: Ledger  # set by `serve`, in the host's process
    beside: tuple[tuple[str, Path], ...] = ()  # the folders served beside the site, under their prefixes; set by `serve`
    extensions_map = EXTENSIONS

    def guess_type(self, path: Any) -> str:
        return content_type(str(path))

    def translate_path(self, path: str) -> str:
        for prefix, folder in self.beside:
            if urlsplit(path).path.startswith(prefix):
                site = self.directory
                self.directory = str(folder)
                try:
                    return super().translate_path("/" + path[len(prefix) :])
                finally:
                    self.directory = site
        return super().translate_path(path)

    def setup(self) -> None:
        super().setup()
        self.wfile = _CountingWriter(self.wfile)

    def handle_one_request(self) -> None:
        self.command = None
        self.arrived = 0.0
        self.head_bytes = 0
        self.encoding = ""
        self.content_type = ""
        self.status = 0
        written = self.wfile.written
        complete = False
        try:
            super().handle_one_request()
            complete = True
        finally:
            if self.command:
                body = self.wfile.written - written - self.head_bytes
                self.ledger.add(
                    Sent(
                        method=self.command,
                        path=self.path,
                        status=self.status,
                        content_type=self.content_type,
                        encoding=self.encoding,
                        body=max(0, body),
                        head=self.head_bytes,
                        arrived=self.arrived,
                        finished=time.time(),
                        complete=complete,
                        dest=headers.get("Sec-Fetch-Dest", "") if (headers := getattr(self, "headers", None)) else "",
                    )
                )

    def parse_request(self) -> bool:
        self.arrived = time.time()
        return super().parse_request()

    def send_response(self, code: int, message: str | None = None) -> None:
        self.status = int(code)
        super().send_response(code, message)

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() == "content-type":
            self.content_type = value
        super().send_header(keyword, value)

    def flush_headers(self) -> None:
        self.head_bytes += sum(len(line) for line in getattr(self, "_headers_buffer", []))
        super().flush_headers()

    def send_head(self) -> Any:
        url_path = urlsplit(self.path).path
        path = Path(self.translate_path(self.path))
        if path.is_dir() and url_path.endswith("/"):
            path = path / "index.html"
        if not path.is_file():
            return super().send_head()  # a folder's redirect, a listing, or 404
        stat = path.stat()
        content_type = self.guess_type(str(path))
        if url_path.endswith("/sitemap.xml"):
            origin = f"http://{self.headers.get('Host', '127.0.0.1')}/"
            body = path.read_text(encoding="utf-8").replace(local_site.SITE_URL, origin).encode("utf-8")
        else:
            body = None
            if self._not_modified(stat.st_mtime):
                self.send_response(304)
                self.send_header("Cache-Control", CACHE_CONTROL)
                self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
                self.end_headers()
                return None
        gzip_ok = "gzip" in self.headers.get("Accept-Encoding", "").lower()
        if compressible(content_type) and gzip_ok:
            self.encoding = "gzip"
            body = gzip.compress(body, GZIP_LEVEL, mtime=0) if body is not None else _gzipped(str(path), stat.st_mtime_ns, stat.st_size)
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body) if body is not None else stat.st_size))
        if self.encoding:
            self.send_header("Content-Encoding", self.encoding)
        if compressible(content_type):
            self.send_header("Vary", "Accept-Encoding")
        self.send_header("Cache-Control", CACHE_CONTROL)
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.end_headers()
        return io.BytesIO(body) if body is not None else path.open("rb")

    def copyfile(self, source: Any, outputfile: Any) -> None:
        while chunk := source.read(COPY_CHUNK):
            outputfile.write(chunk)

    def _not_modified(self, mtime: float) -> bool:
        since = self.headers.get("If-Modified-Since")
        if not since or "If-None-Match" in self.headers:
            return False
        try:
            when = email.utils.parsedate_to_datetime(since).timestamp()
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        return int(mtime) <= when


class HostLedger:
    """The ledger of the host `hosted` started, read from its process through the pipe kept to it."""

    def __init__(self, process: subprocess.Popen) -> None:
        self._process = process
        self._lock = threading.Lock()

    def _ask(self, question: str) -> str:
        assert self._process.stdin and self._process.stdout
        with self._lock:
            self._process.stdin.write(question + "\n")
            self._process.stdin.flush()
            answer = self._process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the bench's host stopped (exit status {self._process.poll()}) before it answered {question!r}")
        return answer

    def mark(self) -> int:
        """A place in the ledger: `since(mark)` gives what was sent after it."""
        return int(self._ask("mark"))

    def since(self, mark: int = 0) -> list[Sent]:
        return [Sent(**each) for each in json.loads(self._ask(f"since {mark}"))]


@contextmanager
def hosted(site: Path) -> Iterator[tuple[str, HostLedger]]:
    """Serve `site` from the bench's host on 127.0.0.1 at a free port, in a process of its own, every
    compressible file compressed before the first request: yields its origin and its ledger."""
    beside = [[prefix, str(Path(folder).resolve())] for prefix, folder in BESIDE_THE_SITE]
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.host", str(Path(site).resolve()), json.dumps(beside)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout
        origin = process.stdout.readline().strip()
        if not origin.startswith("http://"):
            raise RuntimeError(f"the bench's host did not start (exit status {process.wait()}); its error is above")
        yield origin, HostLedger(process)
    finally:
        if process.stdin:
            process.stdin.close()  # the host's signal to stop
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def serve(site: Path, beside: list[list[str]]) -> None:
    """The host's process: compress, serve, and answer the bench's questions about the ledger on
    stdin, one line each, until stdin closes. `HostLedger` asks only `mark` and `since N`."""
    folders = tuple((prefix, Path(folder)) for prefix, folder in beside)
    for folder in (site, *(folder for _, folder in folders)):
        warm(folder)
    ledger = Ledger()
    bound = type(HostHandler.__name__, (HostHandler,), {"ledger": ledger, "beside": folders})
    server = QuietServer(("127.0.0.1", 0), functools.partial(bound, directory=str(site)))
    threading.Thread(target=server.serve_forever, name="bench-host", daemon=True).start()
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        for question in sys.stdin:
            asked, _, mark = question.strip().partition(" ")
            if asked == "mark":
                print(ledger.mark(), flush=True)
            elif asked == "since":
                print(json.dumps([asdict(each) for each in ledger.since(int(mark or 0))]), flush=True)
    finally:
        server.shutdown()
        server.server_close()


def warm(site: Path) -> None:
    """Compress every compressible file once, so no measured load waits for the host's first gzip."""
    if not site.is_dir():
        return  # the next Pyodide, when it is not installed
    for path in site.rglob("*"):
        if path.is_file() and gzipped_on_the_wire(path.name):
            stat = path.stat()
            _gzipped(str(path), stat.st_mtime_ns, stat.st_size)


def described() -> dict[str, Any]:
    """The host's rules, as the results record them."""
    return {
        "http": "HTTP/1.1 with keep-alive, one thread per connection (Python's http.server), in a process of its own",
        "gzip": f"level {GZIP_LEVEL}, for text/*, {', '.join(sorted(COMPRESSIBLE_TYPES))} and any +json or +xml type",
        "as_stored": "every other type: archives (.zip, .whl, .tar), files compressed already (.gz), images, fonts",
        "cache_control": CACHE_CONTROL,
        "bytes": "body bytes after compression, counted per request where the host writes them to the socket",
    }


if __name__ == "__main__":
    serve(Path(sys.argv[1]), json.loads(sys.argv[2]))
