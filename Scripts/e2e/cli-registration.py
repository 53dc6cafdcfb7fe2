#!/usr/bin/env python3
"""auth-cli's dynamic registration over HTTP: RFC 7592 read and update from the command line, and the initial access
token of a closed registration endpoint (AUTH_CLI_INITIAL_ACCESS_TOKEN).

Usage: cli-registration.py AUTH_CLI AUTH_EMULATOR WORK_DIR

1. `auth-emulator emulate oidc` (the test identity provider's strict RFC 7591/7592 endpoint, /register) on 127.0.0.1;
   `auth-cli login --issuer ORIGIN --register` signs in with a client it registers (a scripted browser on the login
   page); `auth-cli registration show` reads it back with the kept registration access token (the client id, the
   redirect URI, no secret printed); `auth-cli registration update --contact … --client-name …` replaces the
   metadata, and the next `show` has the change; a kept registration access token that is not the client's is
   refused (registration_refused) and the session file is left as it was.
2. A registration endpoint that requires an initial access token (RFC 7591 §3, served here: 401 invalid_token
   without it): without AUTH_CLI_INITIAL_ACCESS_TOKEN, `login --register` is refused (registration_refused) before any
   browser and stores nothing; with it, the request carries `Authorization: Bearer <token>` and the sign-in goes on
   to the authorization URL.

Prints one line per check; exits non-zero on the first failure.
"""
import http.server
import json
import os
import pathlib
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from scripted_browser import Browser, sign_in_on_emulator  # noqa: E402


def expect(condition, message):
    if not condition:
        sys.exit(f"cli-registration: {message}")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def last_json(text):
    for line in reversed(text.strip().splitlines()):
        try:
            return json.loads(line)
        except ValueError:
            continue
    return None


def run(cli, *arguments, env=None):
    done = subprocess.run([cli, *arguments], capture_output=True, text=True, timeout=60, env=env)
    return done.returncode, last_json(done.stdout), done.stdout + done.stderr


def emulated_registration(cli, emulator, work):
    emu = subprocess.Popen([emulator, "emulate", "oidc", "--config-dir", os.path.join(work, "emu")], stdout=subprocess.PIPE, text=True)
    try:
        lines = []
        deadline = time.monotonic() + 60
        while not any(line.startswith("ready") for line in lines):
            expect(time.monotonic() < deadline and emu.poll() is None, f"auth-emulator did not start: {lines}")
            lines.append(emu.stdout.readline())
        text = "".join(lines)
        origin = re.search(r"^oidc: .* at (http\S+)$", text, re.M).group(1)
        account = re.search(r"^  test accounts  (\S+) ", text, re.M).group(1)
        store = os.path.join(work, "registered.json")
        redirect = f"http://127.0.0.1:{free_port()}/callback"
        login = subprocess.Popen([cli, "login", "--issuer", origin, "--register", "--redirect-uri", redirect, "--browser", "print", "--json",
                                  "--store", store, "--timeout", "30"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        url = login.stdout.readline().strip()
        expect(url.startswith(origin), f"login --register printed no authorization URL: {url!r}")
        browser = Browser(timeout=20)
        status, head = sign_in_on_emulator(browser, url, account)
        expect(status == 302 and head["Location"].startswith(redirect), f"the emulator's login answered {status}")
        browser.request(head["Location"])
        out, err = login.communicate(timeout=40)
        result = last_json(out)
        expect(login.returncode == 0 and result and "error" not in result, f"login --register failed: {out[-300:]} {err[-300:]}")
        kept = json.load(open(store))["configuration"]
        client_id, token = kept["client_id"], kept["registration"]["registrationAccessToken"]
        print(f"cli-registration: login --register at the emulator registered {client_id} and kept its registration access token")

        status, shown, text = run(cli, "registration", "show", "--store", store, "--json")
        expect(status == 0 and shown and shown.get("client_id") == client_id, f"registration show: {text[-400:]}")
        expect(shown["redirect_uris"] == [redirect] and shown["registration_access_token"] is True and shown["token_endpoint_auth_method"] == "none",
               f"registration show: {shown}")
        expect(token not in text, "registration show printed the registration access token")
        print(f"cli-registration: registration show reads {client_id} back (RFC 7592 §2.1): redirect {redirect}, no secret printed")

        status, updated, text = run(cli, "registration", "update", "--store", store, "--json", "--contact", "ops@example.com", "--client-name", "renamed by auth-cli")
        expect(status == 0 and updated and updated.get("contacts") == ["ops@example.com"] and updated.get("client_name") == "renamed by auth-cli",
               f"registration update: {text[-400:]}")
        status, shown, text = run(cli, "registration", "show", "--store", store, "--json")
        expect(status == 0 and shown.get("contacts") == ["ops@example.com"] and shown.get("client_name") == "renamed by auth-cli", f"show after update: {text[-400:]}")
        kept = json.load(open(store))["configuration"]["registration"]["request"]
        expect(kept["contacts"] == ["ops@example.com"], f"the session file keeps {kept.get('contacts')}")
        print("cli-registration: registration update replaces the metadata (RFC 7592 §2.2); the provider and the session file have the change")

        document = json.load(open(store))
        document["configuration"]["registration"]["registrationAccessToken"] = "rat_not-this-clients"
        with open(store, "w") as handle:
            json.dump(document, handle)
        before = open(store).read()
        status, refused, text = run(cli, "registration", "show", "--store", store, "--json")
        code = (refused or {}).get("error", {}).get("code")
        expect(status != 0 and code == "registration_refused", f"a foreign registration access token was not refused: {text[-300:]}")
        expect(open(store).read() == before, "the session file changed after a refused read")
        print("cli-registration: a registration access token that is not the client's is registration_refused; the session file is unchanged")
    finally:
        emu.terminate()
        emu.wait(timeout=10)


def closed_registration(cli, work):
    seen = []

    class Issuer(http.server.BaseHTTPRequestHandler):
        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            base = f"http://127.0.0.1:{self.server.server_port}"
            if self.path != "/.well-known/openid-configuration":
                return self.answer(404, {})
            self.answer(200, {
                "issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
                "jwks_uri": base + "/jwks", "registration_endpoint": base + "/register", "response_types_supported": ["code"],
                "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["RS256"],
                "code_challenge_methods_supported": ["S256"],
            })

        def do_POST(self):
            metadata = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            authorization = self.headers.get("Authorization")
            seen.append(authorization)
            if authorization != "Bearer iat-for-auth-cli":
                return self.answer(401, {"error": "invalid_token", "error_description": "an initial access token is required"})
            self.answer(201, {**metadata, "client_id": "closed-client-1", "client_id_issued_at": int(time.time())})

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Issuer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    issuer = f"http://127.0.0.1:{server.server_port}"
    store = os.path.join(work, "closed.json")
    arguments = ["login", "--issuer", issuer, "--register", "--browser", "print", "--json", "--store", store, "--timeout", "5"]
    try:
        environment = {key: value for key, value in os.environ.items() if key != "AUTH_CLI_INITIAL_ACCESS_TOKEN"}
        status, refused, text = run(cli, *arguments, env=environment)
        code = (refused or {}).get("error", {}).get("code")
        expect(status != 0 and code == "registration_refused" and "invalid_token" in text, f"without the token: {text[-300:]}")
        expect(seen == [None] and not os.path.exists(store), f"without the token: sent {seen}, stored {os.path.exists(store)}")
        print("cli-registration: a closed registration endpoint without AUTH_CLI_INITIAL_ACCESS_TOKEN: registration_refused (invalid_token), nothing stored")
        login = subprocess.Popen([cli, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env={**environment, "AUTH_CLI_INITIAL_ACCESS_TOKEN": "iat-for-auth-cli"})
        url = login.stdout.readline().strip()
        login.kill()
        login.communicate()
        expect(seen[-1] == "Bearer iat-for-auth-cli", f"with the token the request carried {seen[-1]!r}")
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
        expect(url.startswith(issuer + "/authorize?") and query.get("client_id") == ["closed-client-1"], f"no sign-in with the registered client: {url!r}")
        print("cli-registration: with AUTH_CLI_INITIAL_ACCESS_TOKEN the registration carries it as a bearer token, and the sign-in goes on with the new client")
    finally:
        server.shutdown()


def main():
    cli, emulator, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    emulated_registration(cli, emulator, work)
    closed_registration(cli, work)


if __name__ == "__main__":
    main()
