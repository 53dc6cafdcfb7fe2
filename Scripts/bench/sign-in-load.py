#!/usr/bin/env python3
"""Complete browser sign-ins per second against a web app in front of the OIDC emulator (auth-emulator emulate oidc).

Each sign-in is one new browser (its own cookies) doing what a person's browser does: open the app's start URL, follow
its redirect to the emulator's login page, post the test account, follow the redirect back to the app's callback, and
fetch the protected JSON with the session cookie it got (200 required). Used by Scripts/bench/web-load.sh to compare
AuthHummingbird with mod_auth_openidc on the same emulator:

    sign-in-load.py --start http://127.0.0.1:8300/auth/oidc/login --protected http://127.0.0.1:8300/app/me \
        --seconds 10 --workers 8

Prints one JSON line: {"sign_ins": N, "seconds": S, "per_second": R, "failures": F, "first_failure": "..."}.
"""
import argparse
import http.client
import json
import multiprocessing
import pathlib
import sys
import time
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from scripted_browser import Browser, sign_in_on_emulator  # noqa: E402

# What a browser sends (mod_auth_openidc answers 401 instead of redirecting a request that does not accept HTML).
ACCEPT = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


class KeepAliveBrowser(Browser):
    """The shared browser (cookies per host:port, enough for loopback; no automatic redirects) over keep-alive
    connections that outlive it, so a worker measures sign-ins rather than TCP handshakes."""

    def __init__(self, connections):
        super().__init__()
        self.connections = connections

    def send(self, method, url, body, headers, timeout):
        parts = urllib.parse.urlsplit(url)
        headers = {**headers, **ACCEPT, "Connection": "keep-alive"}
        path = parts.path + ("?" + parts.query if parts.query else "")
        for attempt in (0, 1):
            connection = self.connections.get(parts.netloc)
            if connection is None:
                connection = self.connections[parts.netloc] = http.client.HTTPConnection(parts.netloc, timeout=timeout)
            try:
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                return response.status, response.msg, response.read()
            except (http.client.HTTPException, ConnectionError):
                # A keep-alive connection the server closed: one retry on a new one.
                connection.close()
                del self.connections[parts.netloc]
                if attempt:
                    raise


def sign_in(connections, start, protected, username):
    browser = KeepAliveBrowser(connections)
    status, head, _ = browser.request(start)
    if status != 302:
        raise RuntimeError(f"the start URL answered {status}")
    page_url = urllib.parse.urljoin(start, head["Location"])
    status, head = sign_in_on_emulator(browser, page_url, username)
    if status != 302:
        raise RuntimeError(f"the emulator's login form answered {status}")
    status, _, _ = browser.request(urllib.parse.urljoin(page_url, head["Location"]))
    if status not in (302, 303):
        raise RuntimeError(f"the app's callback answered {status}")
    status, _, _ = browser.request(protected)
    if status != 200:
        raise RuntimeError(f"the protected route answered {status} after the sign-in")
    return browser


def worker(arguments):
    start, protected, username, until = arguments
    connections, done, failures, first = {}, 0, 0, None
    while time.monotonic() < until:
        try:
            sign_in(connections, start, protected, username)
            done += 1
        except Exception as error:  # counted and reported, never hidden
            failures += 1
            first = first or repr(error)
            for connection in connections.values():
                connection.close()
            connections = {}
    return done, failures, first


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", required=True)
    parser.add_argument("--protected", required=True)
    parser.add_argument("--username", default="alice@example.com")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--cookie", action="store_true", help="sign in once and print the app's cookie header instead")
    options = parser.parse_args()
    if options.cookie:
        browser = sign_in({}, options.start, options.protected, options.username)
        netloc = urllib.parse.urlsplit(options.protected).netloc
        print("; ".join(f"{k}={v}" for k, v in browser.jars.get(netloc, {}).items()))
        return
    began = time.monotonic()
    until = began + options.seconds
    with multiprocessing.Pool(options.workers) as pool:
        results = pool.map(worker, [(options.start, options.protected, options.username, until)] * options.workers)
    took = time.monotonic() - began
    done = sum(r[0] for r in results)
    failures = sum(r[1] for r in results)
    first = next((r[2] for r in results if r[2]), None)
    print(json.dumps({"sign_ins": done, "seconds": round(took, 2), "per_second": round(done / took, 1), "failures": failures, "first_failure": first}))


if __name__ == "__main__":
    main()
