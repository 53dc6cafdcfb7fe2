#!/usr/bin/env python3
"""A fault-injecting HTTP proxy between auth-cli and the identity server (standard library only, loopback only).

    python3 Scripts/e2e/fault-proxy.py --listen PORT --upstream PORT --log FILE --seed N \\
        [--clients-of PID] [--delay SECONDS] [--kinds KIND,KIND…]

It forwards every request to the server on 127.0.0.1:UPSTREAM (one upstream connection per request, the client's
connection kept alive) and, on the token endpoint's refresh requests (grant_type=refresh_token) only, injects the
faults of a schedule that depends on the seed alone: the n-th refresh request gets the n-th entry, so a run with the
same seed injects the same faults in the same order. The kinds:

    drop               forward; the server answers (and rotates the token); close without answering
    reset_before       reset the connection (RST) without forwarding
    reset_after        forward; the server answers; reset the connection
    delay              forward; hold the server's answer past the client's timeout (--delay); close without it
    truncate           forward; send the status, the headers and half of the body; close
    malformed          forward; answer 200 with an HTML page instead of the server's JSON (a captive portal)
    rate_limit_seconds answer 429 with Retry-After: 1, without forwarding
    unavailable_date   answer 503 with Retry-After as an HTTP date 2 s ahead, without forwarding
    rate_limit_long    answer 429 with Retry-After: 120 (more than a client should wait), without forwarding
    kill_before        SIGKILL the client process, without forwarding
    kill_after_answer  forward; the server answers; SIGKILL the client before it gets the answer
    kill_after_deliver forward; deliver the answer intact; SIGKILL the client at once (mid-store)

Every entry that is not a fault is `pass`; each fault is followed by one or two of them. A kill needs
--clients-of: the proxy finds the process at the other end of the connection through /proc and kills it only if
it is a child of that process (the driver that started it). GET /.fault-proxy/off and /.fault-proxy/on stop and
resume the faults (the proxy answers them itself).

The log (--log) has one JSON line per refresh-token exchange: the request's number, the client's pid, the
fault, SHA-256 fingerprints (never the tokens) of the refresh token sent and of the tokens the server issued, the
server's status and OAuth error code, and whether the answer reached the client intact (`delivered`). The token
endpoint's other grants (the sign-in's code exchange) are logged the same way, without faults. A checker can then
tell a token that a successful refresh delivered from one a fault withheld.
"""
import argparse
import email.utils
import hashlib
import json
import os
import random
import signal
import socket
import socketserver
import struct
import sys
import threading
import time
import urllib.parse

FAULTS = [
    "drop", "reset_before", "reset_after", "delay", "truncate", "malformed", "rate_limit_seconds",
    "unavailable_date", "rate_limit_long", "kill_before", "kill_after_answer", "kill_after_deliver",
]
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"}


def fingerprint(token):
    return hashlib.sha256(token.encode()).hexdigest()[:16] if token else None


def schedule(seed, kinds, length=4000):
    """The fault for each refresh request, from the seed alone: every kind once per cycle, in a seeded order,
    each followed by one or two passes."""
    rng = random.Random(seed)
    entries = []
    while len(entries) < length:
        cycle = list(kinds)
        rng.shuffle(cycle)
        for kind in cycle:
            entries.append(kind)
            entries.extend(["pass"] * rng.randint(1, 2))
    return entries


class Request:
    def __init__(self, head, body):
        lines = head.decode("latin-1").split("\r\n")
        self.method, self.target, self.version = lines[0].split(" ", 2)
        self.headers = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:] if ":" in line]
        self.body = body

    def header(self, name):
        return next((value for key, value in self.headers if key.lower() == name), None)

    def bytes_for_upstream(self):
        lines = [f"{self.method} {self.target} HTTP/1.1"]
        lines += [f"{key}: {value}" for key, value in self.headers if key.lower() not in HOP_BY_HOP | {"content-length"}]
        lines += [f"Content-Length: {len(self.body)}", "Connection: close", "", ""]
        return "\r\n".join(lines).encode("latin-1") + self.body


class Response:
    def __init__(self, status, reason, headers, body):
        self.status, self.reason, self.headers, self.body = status, reason, headers, body

    def head_bytes(self):
        lines = [f"HTTP/1.1 {self.status} {self.reason}"]
        lines += [f"{key}: {value}" for key, value in self.headers if key.lower() not in HOP_BY_HOP | {"content-length"}]
        lines += [f"Content-Length: {len(self.body)}", "", ""]
        return "\r\n".join(lines).encode("latin-1")

    def to_bytes(self):
        return self.head_bytes() + self.body


class Reader:
    """Buffered reads from a socket: lines, exact lengths, chunked bodies."""

    def __init__(self, sock):
        self.sock, self.buffer = sock, b""

    def _fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise EOFError
        self.buffer += data

    def until(self, marker):
        while marker not in self.buffer:
            self._fill()
        index = self.buffer.index(marker) + len(marker)
        data, self.buffer = self.buffer[:index], self.buffer[index:]
        return data

    def exactly(self, count):
        while len(self.buffer) < count:
            self._fill()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def rest(self):
        try:
            while True:
                self._fill()
        except (EOFError, OSError):
            pass
        data, self.buffer = self.buffer, b""
        return data

    def body(self, headers, until_close):
        lengths = [value for key, value in headers if key.lower() == "content-length"]
        chunked = any(key.lower() == "transfer-encoding" and "chunked" in value.lower() for key, value in headers)
        if chunked:
            body = b""
            while True:
                size = int(self.until(b"\r\n").split(b";")[0].strip(), 16)
                if size == 0:
                    while self.until(b"\r\n") != b"\r\n":
                        pass
                    return body
                body += self.exactly(size)
                self.exactly(2)
        if lengths:
            return self.exactly(int(lengths[0]))
        return self.rest() if until_close else b""


def parse_headers(head):
    lines = head.decode("latin-1").split("\r\n")
    return lines[0], [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:] if ":" in line]


class Proxy:
    def __init__(self, args):
        self.args = args
        self.entries = schedule(args.seed, args.kinds)
        self.count = 0
        self.enabled = True
        self.lock = threading.Lock()
        self.log_file = open(args.log, "a", buffering=1)

    def log(self, record):
        with self.lock:
            self.log_file.write(json.dumps(record, sort_keys=True) + "\n")

    def next_fault(self):
        with self.lock:
            number = self.count
            self.count += 1
            fault = self.entries[number % len(self.entries)] if self.enabled else "pass"
        return number, fault

    def forward(self, request):
        upstream = socket.create_connection(("127.0.0.1", self.args.upstream), timeout=60)
        try:
            upstream.sendall(request.bytes_for_upstream())
            reader = Reader(upstream)
            status_line, headers = parse_headers(reader.until(b"\r\n\r\n")[:-4])
            _, status, reason = (status_line.split(" ", 2) + [""])[:3]
            body = reader.body(headers, until_close=request.method != "HEAD")
            return Response(int(status), reason, headers, body)
        finally:
            upstream.close()

    def client_pid(self, sock):
        """The pid of the driver's child at the other end of `sock`, or None."""
        if not self.args.clients_of:
            return None
        try:
            port = sock.getpeername()[1]
            local = f"0100007F:{port:04X}"
            remote = f"0100007F:{self.args.listen:04X}"
            inode = None
            with open("/proc/net/tcp") as table:
                for line in table.readlines()[1:]:
                    fields = line.split()
                    if fields[1] == local and fields[2] == remote:
                        inode = fields[9]
            if inode is None:
                return None
            parent = self.args.clients_of
            children = set()
            for task in os.listdir(f"/proc/{parent}/task"):
                with open(f"/proc/{parent}/task/{task}/children") as listing:
                    children.update(int(pid) for pid in listing.read().split())
            for pid in children:
                try:
                    for fd in os.listdir(f"/proc/{pid}/fd"):
                        if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                            return pid
                except OSError:
                    continue
        except OSError:
            return None
        return None

    def kill(self, pid):
        if pid is None:
            return False
        try:
            os.kill(pid, signal.SIGKILL)
            return True
        except ProcessLookupError:
            return False


def reset(sock):
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def token_fields(response):
    """The server's OAuth error code and the fingerprints of the tokens it issued."""
    try:
        answer = json.loads(response.body)
    except ValueError:
        return None, None, None
    if not isinstance(answer, dict):
        return None, None, None
    return answer.get("error"), fingerprint(answer.get("refresh_token")), fingerprint(answer.get("access_token"))


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        proxy = self.server.proxy
        sock = self.request
        reader = Reader(sock)
        while True:
            try:
                request = Request(reader.until(b"\r\n\r\n")[:-4], b"")
                request.body = reader.body(request.headers, until_close=False)
            except (EOFError, OSError, ValueError):
                sock.close()
                return
            path = urllib.parse.urlsplit(request.target).path
            if path in ("/.fault-proxy/off", "/.fault-proxy/on"):
                proxy.enabled = path.endswith("/on")
                sock.sendall(Response(200, "OK", [("Content-Type", "text/plain")], b"ok\n").to_bytes())
                continue
            if request.method == "POST" and path.rstrip("/").endswith("/token"):
                if not self.token_exchange(proxy, sock, request):
                    return
                continue
            try:
                response = proxy.forward(request)
            except OSError:
                reset(sock)
                return
            sock.sendall(response.to_bytes())

    def token_exchange(self, proxy, sock, request):
        """Forwards (or not) one token request with its fault; False when the connection was ended."""
        form = urllib.parse.parse_qs(request.body.decode("latin-1"))
        grant = form.get("grant_type", [None])[0]
        record = {"t0": round(time.time(), 3), "grant": grant, "sent": fingerprint(form.get("refresh_token", [None])[0])}
        if grant == "refresh_token":
            record["n"], fault = proxy.next_fault()
            record["pid"] = proxy.client_pid(sock)
        else:
            fault = "pass"
        record.update(fault=fault, forwarded=False, delivered=False, status=None, error=None, issued_refresh=None, issued_access=None)
        try:
            return self.inject(proxy, sock, request, fault, record)
        finally:
            if not record.pop("logged", False):
                record["t1"] = round(time.time(), 3)
                proxy.log(record)

    def inject(self, proxy, sock, request, fault, record):
        if fault in ("rate_limit_seconds", "unavailable_date", "rate_limit_long"):
            status, retry_after = {
                "rate_limit_seconds": (429, "1"),
                "unavailable_date": (503, email.utils.formatdate(time.time() + 2, usegmt=True)),
                "rate_limit_long": (429, "120"),
            }[fault]
            record["client_status"], record["retry_after"] = status, retry_after
            body = json.dumps({"error": "temporarily_unavailable"} if status == 503 else {"detail": "slow down"}).encode()
            sock.sendall(Response(status, "Too Many Requests" if status == 429 else "Service Unavailable",
                                  [("Content-Type", "application/json"), ("Retry-After", retry_after)], body).to_bytes())
            return True
        if fault == "reset_before":
            reset(sock)
            return False
        if fault == "kill_before":
            record["killed"] = proxy.kill(record.get("pid"))
            sock.close()
            return False
        try:
            response = proxy.forward(request)
        except OSError as error:
            record["upstream_error"] = str(error)
            reset(sock)
            return False
        record["forwarded"] = True
        record["status"] = response.status
        record["error"], record["issued_refresh"], record["issued_access"] = token_fields(response)
        if fault == "pass":
            try:
                sock.sendall(response.to_bytes())
            except OSError:
                return False
            record["delivered"] = True
            return True
        if fault == "kill_after_deliver":
            try:
                sock.sendall(response.to_bytes())
                record["delivered"] = True
            except OSError:
                pass
            record["killed"] = proxy.kill(record.get("pid"))
            sock.close()
            return False
        if fault == "kill_after_answer":
            record["killed"] = proxy.kill(record.get("pid"))
            sock.close()
            return False
        if fault == "drop":
            sock.close()
            return False
        if fault == "reset_after":
            reset(sock)
            return False
        if fault == "delay":
            # Logged before the hold, not after: the server has carried the request out, and a run that ends within
            # the hold must still see that redemption (without the row, a later refusal looks unexplained).
            record["t1"] = round(time.time(), 3)
            proxy.log(dict(record))
            record["logged"] = True
            time.sleep(proxy.args.delay)
            sock.close()
            return False
        if fault == "truncate":
            try:
                sock.sendall(response.head_bytes() + response.body[: len(response.body) // 2])
            except OSError:
                pass
            sock.close()
            return False
        if fault == "malformed":
            page = b"<html><body>Please sign in to the network.</body></html>"
            try:
                sock.sendall(Response(200, "OK", [("Content-Type", "text/html")], page).to_bytes())
            except OSError:
                pass
            sock.close()
            return False
        raise ValueError(f"unknown fault {fault}")


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listen", type=int, required=True)
    parser.add_argument("--upstream", type=int, required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--seed", type=int, default=57)
    parser.add_argument("--clients-of", type=int, help="the only process whose children may be killed")
    parser.add_argument("--delay", type=float, default=32.0, help="seconds the delay fault holds an answer")
    parser.add_argument("--kinds", default=",".join(FAULTS), help="the faults in the schedule")
    args = parser.parse_args()
    args.kinds = [kind for kind in args.kinds.split(",") if kind]
    unknown = set(args.kinds) - set(FAULTS)
    if unknown:
        parser.error(f"unknown faults: {', '.join(sorted(unknown))}")
    server = Server(("127.0.0.1", args.listen), Handler)
    server.proxy = Proxy(args)
    print(f"fault-proxy: 127.0.0.1:{args.listen} -> 127.0.0.1:{args.upstream}, seed {args.seed}", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
