#!/usr/bin/env python3
"""A Hugging Face hub on loopback, for the tests of Glosa's hub client (app/core/hub).

It speaks the hub's real HTTP protocol, as huggingface_hub's hf_api.py and file_download.py
expect it, over folders of real files:

  GET /api/models?search=Q&author=A&limit=N          the repositories whose name contains Q
  GET /api/models/ORG/NAME/revision/REV?blobs=true   commit, files, sizes, LFS SHA-256s
  GET /ORG/NAME/resolve/REV/PATH                     a file kept in git (ETag: its blob id), or
                                                     a 302 to the CDN for an LFS file
  GET /cdn/SHA256                                    the CDN: ETag, Accept-Ranges, Range (206)

The CDN answers on another host name than the API (`localhost` when the hub is asked as
`127.0.0.1`), as the real hub's CDN does, so a test can see that the token stays with the hub.
Errors carry the hub's X-Error-Code header (RepoNotFound, RevisionNotFound, EntryNotFound,
GatedRepo). Faults for the tests: --corrupt PATH (one byte flipped, the announced SHA-256 kept),
--drop-after N (the first CDN answer of each file ends after N bytes of the body),
--ignore-range, --token T (the repositories are gated: the API and resolve need
"Authorization: Bearer T"), --throttle BYTES_PER_SECOND. --log FILE records each request.

Standard library only. Usage:
  loopback_hub.py --repo Helsinki-NLP/opus-mt-en-es=DIR [--repo ...] --port-file FILE
"""
import argparse
import hashlib
import http.server
import json
import os
import socketserver
import sys
import threading
import time
import urllib.parse

LFS_SUFFIXES = (".bin", ".safetensors", ".h5", ".msgpack", ".ot", ".onnx")


class Repo:
    def __init__(self, repo_id, folder):
        self.id = repo_id
        self.folder = folder
        self.files = {}
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if not os.path.isfile(path):
                continue
            with open(path, "rb") as f:
                data = f.read()
            entry = {"path": path, "size": len(data),
                     "blob": hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()}
            if name.endswith(LFS_SUFFIXES):
                entry["sha256"] = hashlib.sha256(data).hexdigest()
                pointer = ("version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d\n"
                           % (entry["sha256"], len(data))).encode()
                entry["blob"] = hashlib.sha1(b"blob %d\0" % len(pointer) + pointer).hexdigest()
            self.files[name] = entry
        digest = hashlib.sha1(repo_id.encode())
        for name, entry in self.files.items():
            digest.update(name.encode() + entry["blob"].encode())
        self.commit = digest.hexdigest()
        parts = repo_id.split("/")[-1].split("-")
        self.languages = [p for p in parts[2:4]] if repo_id.split("/")[-1].startswith("opus-mt-") else []

    def info(self):
        siblings = []
        for name, entry in self.files.items():
            sibling = {"rfilename": name, "blobId": entry["blob"], "size": entry["size"]}
            if "sha256" in entry:
                sibling["lfs"] = {"sha256": entry["sha256"], "size": entry["size"],
                                  "pointerSize": 134}
            siblings.append(sibling)
        return {"_id": self.commit[:24], "id": self.id, "modelId": self.id, "sha": self.commit,
                "private": False, "gated": False, "disabled": False, "downloads": 1234,
                "likes": 5, "library_name": "transformers", "pipeline_tag": "translation",
                "tags": self.tags(), "cardData": {"language": self.languages,
                                                  "license": "cc-by-2.0", "tags": ["translation"]},
                "siblings": siblings, "lastModified": "2023-08-16T11:31:37.000Z"}

    def tags(self):
        return (["transformers", "pytorch", "marian", "text2text-generation", "translation"]
                + self.languages + ["license:cc-by-2.0", "endpoints_compatible"])

    def summary(self):
        return {"_id": self.commit[:24], "id": self.id, "modelId": self.id, "likes": 5,
                "downloads": 1234, "private": False, "pipeline_tag": "translation",
                "library_name": "transformers", "tags": self.tags(),
                "createdAt": "2022-03-02T23:29:04.000Z"}


class Hub:
    def __init__(self, args):
        self.args = args
        self.repos = {}
        for spec in args.repo:
            repo_id, folder = spec.split("=", 1)
            self.repos[repo_id] = Repo(repo_id, folder)
        self.by_sha = {}
        for repo in self.repos.values():
            for entry in repo.files.values():
                if "sha256" in entry:
                    self.by_sha[entry["sha256"]] = entry
        self.dropped = set()
        self.lock = threading.Lock()

    def log(self, line):
        if self.args.log:
            with self.lock, open(self.args.log, "a") as f:
                f.write(line + "\n")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    hub = None

    def log_message(self, *args):
        pass

    def send_json(self, status, body, headers=()):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if not self.head:
            self.wfile.write(data)

    def error(self, status, code, message):
        self.send_json(status, {"error": message},
                       [("X-Error-Code", code), ("X-Error-Message", message)])

    def authorised(self):
        token = self.hub.args.token
        return not token or self.headers.get("Authorization") == "Bearer " + token

    head = False

    def do_HEAD(self):
        # huggingface_hub's metadata request: the GET's status and headers, no body
        self.head = True
        self.do_GET()

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        path = urllib.parse.unquote(url.path)
        query = urllib.parse.parse_qs(url.query)
        self.hub.log("%s %s host=%s auth=%s range=%s" % (
            self.command, self.path, self.headers.get("Host", ""),
            "yes" if self.headers.get("Authorization") else "no", self.headers.get("Range", "-")))
        if path == "/api/models":
            return self.search(query)
        if path.startswith("/api/models/"):
            return self.revision(path[len("/api/models/"):])
        if path.startswith("/cdn/"):
            return self.cdn(path[len("/cdn/"):])
        if "/resolve/" in path:
            return self.resolve(path.lstrip("/"))
        self.error(404, "NotFound", "no such endpoint")

    def search(self, query):
        text = query.get("search", [""])[0].lower()
        author = query.get("author", [""])[0]
        limit = int(query.get("limit", ["50"])[0])
        hits = [r.summary() for r in self.hub.repos.values()
                if text in r.id.split("/")[-1].lower()
                and (not author or r.id.split("/")[0] == author)]
        self.send_json(200, hits[:limit])

    def find_repo(self, repo_id):
        repo = self.hub.repos.get(repo_id)
        if repo is None:
            self.error(401, "RepoNotFound", "Repository not found")
            return None
        if not self.authorised():
            self.error(401, "GatedRepo", "Access to model %s is restricted" % repo_id)
            return None
        return repo

    def revision(self, rest):
        if "/revision/" not in rest:
            return self.error(404, "NotFound", "no such endpoint")
        repo_id, revision = rest.split("/revision/", 1)
        repo = self.find_repo(repo_id)
        if repo is None:
            return
        if revision not in ("main", repo.commit):
            return self.error(404, "RevisionNotFound", "Invalid rev id: " + revision)
        self.send_json(200, repo.info())

    def resolve(self, rest):
        repo_id, tail = rest.split("/resolve/", 1)
        revision, _, name = tail.partition("/")
        repo = self.find_repo(repo_id)
        if repo is None:
            return
        if revision not in ("main", repo.commit):
            return self.error(404, "RevisionNotFound", "Invalid rev id: " + revision)
        entry = repo.files.get(name)
        if entry is None:
            return self.error(404, "EntryNotFound", "%s does not exist" % name)
        common = [("X-Repo-Commit", repo.commit)]
        if "sha256" in entry:
            host = "localhost" if self.headers.get("Host", "").startswith("127.") else "127.0.0.1"
            location = "http://%s:%d/cdn/%s?name=%s" % (host, self.server.server_address[1],
                                                        entry["sha256"], urllib.parse.quote(name))
            self.send_response(302)
            for header in common + [("Location", location), ("X-Linked-Size", str(entry["size"])),
                                    ("X-Linked-Etag", '"%s"' % entry["sha256"]),
                                    ("ETag", '"%s"' % entry["blob"]), ("Content-Length", "0")]:
                self.send_header(*header)
            self.end_headers()
            return
        self.send_file(entry, '"%s"' % entry["blob"], common)

    def cdn(self, sha):
        entry = self.hub.by_sha.get(sha)
        if entry is None:
            return self.error(404, "NotFound", "no such object")
        if self.headers.get("Authorization"):
            self.hub.log("TOKEN SENT TO CDN")
        self.send_file(entry, '"%s"' % sha, [])

    def send_file(self, entry, etag, headers):
        size = entry["size"]
        start, status = 0, 200
        wanted = self.headers.get("Range")
        if wanted and not self.hub.args.ignore_range and wanted.startswith("bytes="):
            first = int(wanted[6:].split("-")[0])
            if first >= size:
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % size)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            start, status = first, 206
        self.send_response(status)
        for header in headers + [("ETag", etag), ("Accept-Ranges", "bytes"),
                                 ("Content-Length", str(size - start)),
                                 ("Content-Type", "application/octet-stream")]:
            self.send_header(*header)
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, size - 1, size))
        self.end_headers()
        if self.head:
            return
        drop = None
        with self.hub.lock:
            if self.hub.args.drop_after and entry["path"] not in self.hub.dropped:
                self.hub.dropped.add(entry["path"])
                drop = self.hub.args.drop_after
        corrupt = os.path.basename(entry["path"]) in self.hub.args.corrupt
        with open(entry["path"], "rb") as f:
            f.seek(start)
            self.write_body(f, start, corrupt, drop)

    def write_body(self, f, start, corrupt, drop):
        """The file from `start` in chunks (streamed: a 300 MB file is never held whole), the
        first byte flipped when `corrupt`, the connection cut after `drop` bytes of the body."""
        step = 256 * 1024
        throttle = self.hub.args.throttle
        offset = 0
        while True:
            chunk = f.read(step)
            if not chunk:
                return
            if corrupt and start + offset == 0:
                chunk = bytes([chunk[0] ^ 0xFF]) + chunk[1:]
            if drop is not None and offset + len(chunk) > drop:
                self.wfile.write(chunk[:max(0, drop - offset)])
                self.wfile.flush()
                self.hub.log("DROPPED after %d bytes" % drop)
                self.close_connection = True
                self.connection.shutdown(2)
                return
            try:
                self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                return
            offset += len(chunk)
            if throttle:
                time.sleep(len(chunk) / throttle)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", action="append", default=[], help="ORG/NAME=FOLDER")
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log")
    parser.add_argument("--corrupt", action="append", default=[])
    parser.add_argument("--drop-after", type=int, default=0)
    parser.add_argument("--ignore-range", action="store_true")
    parser.add_argument("--token")
    parser.add_argument("--throttle", type=float, default=0)
    args = parser.parse_args()
    Handler.hub = Hub(args)
    server = Server(("127.0.0.1", 0), Handler)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(args.port_file + ".tmp", args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
