#!/usr/bin/env python3
"""A deliberately hostile OpenID Connect provider on 127.0.0.1, for testing auth-cli over real HTTP.

    python3 Scripts/e2e/hostile-idp.py PORT_FILE

Listens on an ephemeral port, writes the port to PORT_FILE, and serves one issuer per misbehaviour:
http://127.0.0.1:PORT/<mode>. Every mode signs honest RS256 ID tokens (key made at start, published at
/<mode>/jwks) and answers /<mode>/authorize with a redirect carrying the code, state and iss. What differs:

    honest               a correct provider (the control case); refresh answers after one second, so a logout
                         can run while a refresh is in flight; records the client secret it was sent
    huge-expires-in      expires_in 1e19                 -> accepted, clamped; later commands must not crash
    negative-expires-in  expires_in -1                   -> invalid_response
    hex-expires-in       expires_in "0x1p64"             -> invalid_response
    endless-body         the token body never ends       -> response_too_large, quickly
    slow-body            one byte of token body a second -> timed_out at the request deadline
    lookalike-token      token endpoint http://127.evil.test/token -> insecure_endpoint, no request
    file-authorize       authorization endpoint file:///etc/passwd -> insecure_endpoint, nothing opened
    audience             an honest server's token endpoint and its own device endpoint, to harvest a private_key_jwt
                         assertion (audience injection) -> insecure_endpoint, no assertion reaches /device
    old-auth-time        auth_time an hour ago (for max_age) -> authentication_too_old
    escape-error         a token error whose description carries terminal escape sequences
    foreign-device-secret  a device_secret (Native SSO) from another app family: the ID token's ds_hash binds
                         another secret -> device_secret_mismatch, nothing stored, nothing shared with the family
    step-up-loop         /step-up-loop/resource answers every token with an RFC 9470 challenge (acr_values loa:2), also
                         after the step-up it asked for                     -> step_up_loop after one step-up sign-in
    step-up-weak         /step-up-weak/resource challenges for acr loa:2; ID tokens always say loa:1
                                                                            -> step_up_not_satisfied, nothing stored
    step-up-malformed    /step-up-malformed/resource answers a challenge with max_age="soon"
                                                                            -> invalid_step_up_challenge, no sign-in
    gzip                 compresses JSON with Content-Encoding: gzip when the client accepts it (as Uber's servers do for
                         its SDK's `Accept-Encoding: gzip, deflate`) -> signed in; /stats counts gzip answers
    jwe-honest           the ID token signed, then encrypted (RSA-OAEP / A256GCM, RFC 7516) to the client's key, whose
                         private half is written to PORT_FILE.enc-key.pem for --decryption-key -> signed in
    jwe-wrong-key        the ID token encrypted to another key: it does not decrypt -> decryption_failed
    jwe-unsigned         an unsigned (alg none) ID token, encrypted to the client's key -> unsigned_response
    jwe-clear            a signed ID token in the clear, to a client registered for encryption -> unencrypted_response

GET /stats returns how many token-body bytes each streaming mode managed to send before the client hung up, how
many refresh requests the honest mode has received (refresh_requests, on arrival) and answered (refreshes), and the
authorization and resource requests of each step-up mode (authorizations:MODE, resource:MODE).
Every ID token carries an `acr`: the first of the request's `acr_values`, else urn:example:loa:1.
Only the standard library and `cryptography` (installed with django-oauth-toolkit) are used.
"""
import base64
import gzip
import hashlib
import json
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import os

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
CLIENT_ENC_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)  # the client's (auth-cli --decryption-key)
STRANGER_ENC_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)  # no client's
KID = "hostile-1"
STATS = {"endless-body": 0, "slow-body": 0, "client_secret": None, "refresh_requests": 0, "refreshes": 0, "gzip": 0,
         "harvested_assertions": 0}
STATS_LOCK = threading.Lock()
CODES = {}  # code -> (mode, client_id, nonce, acr)
ACCESS = {}  # access token -> acr
STEP_UP_CHALLENGES = {
    "step-up-loop": 'Bearer error="insufficient_user_authentication", acr_values="urn:example:loa:2"',
    "step-up-weak": 'Bearer error="insufficient_user_authentication", error_description="A different authentication level is required", acr_values="urn:example:loa:2"',
    "step-up-malformed": 'Bearer error="insufficient_user_authentication", max_age="soon"',
}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def uint(value: int) -> str:
    return b64url(value.to_bytes((value.bit_length() + 7) // 8, "big"))


def sign(claims: dict) -> str:
    header = b64url(json.dumps({"alg": "RS256", "typ": "JWT", "kid": KID}).encode())
    payload = b64url(json.dumps(claims).encode())
    signature = KEY.sign(f"{header}.{payload}".encode(), padding.PKCS1v15(), hashes.SHA256())
    return f"{header}.{payload}.{b64url(signature)}"


def encrypt(token: str, key) -> str:
    """`token` as a compact JWE (RFC 7516 §7.1): RSA-OAEP key transport (RFC 7518 §4.3), A256GCM content (§5.3)."""
    header = b64url(json.dumps({"alg": "RSA-OAEP", "enc": "A256GCM", "cty": "JWT"}).encode())
    content_key, iv = os.urandom(32), os.urandom(12)
    encrypted_key = key.public_key().encrypt(
        content_key, padding.OAEP(mgf=padding.MGF1(algorithm=hashes.SHA1()), algorithm=hashes.SHA1(), label=None))
    sealed = AESGCM(content_key).encrypt(iv, token.encode(), header.encode())
    return ".".join([header, b64url(encrypted_key), b64url(iv), b64url(sealed[:-16]), b64url(sealed[-16:])])


def unsigned(claims: dict) -> str:
    return b64url(json.dumps({"alg": "none", "typ": "JWT"}).encode()) + "." + b64url(json.dumps(claims).encode()) + "."


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):  # quiet: the test prints what matters
        pass

    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}"

    def send_json(self, status: int, body: dict):
        data = json.dumps(body).encode()
        compress = self.path.startswith("/gzip/") and "gzip" in (self.headers.get("Accept-Encoding") or "")
        if compress:
            data = gzip.compress(data)
            with STATS_LOCK:
                STATS["gzip"] += 1
        self.send_response(status)
        if compress:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/stats":
            with STATS_LOCK:
                return self.send_json(200, dict(STATS))
        parts = url.path.strip("/").split("/", 1)
        if len(parts) != 2:
            return self.send_json(404, {"error": "not_found"})
        mode, rest = parts
        issuer = f"{self.base()}/{mode}"
        if rest == ".well-known/openid-configuration":
            document = {
                "issuer": issuer,
                "authorization_endpoint": f"{issuer}/authorize",
                "token_endpoint": f"{issuer}/token",
                "jwks_uri": f"{issuer}/jwks",
                "userinfo_endpoint": f"{issuer}/userinfo",
                "end_session_endpoint": f"{issuer}/logout",
                "response_types_supported": ["code"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"],
                "code_challenge_methods_supported": ["S256"],
                "authorization_response_iss_parameter_supported": True,
            }
            if mode == "lookalike-token":
                document["token_endpoint"] = "http://127.evil.test/token"
            if mode == "file-authorize":
                document["authorization_endpoint"] = "file:///etc/passwd"
            if mode == "audience":
                # Audience injection (draft-ietf-oauth-rfc7523bis): an honest server's token endpoint, our own device
                # endpoint, to harvest a private_key_jwt assertion valid at the honest server.
                document["token_endpoint"] = "https://honest-as.example/token"
                document["device_authorization_endpoint"] = f"{issuer}/device"
            return self.send_json(200, document)
        if rest == "jwks":
            numbers = KEY.public_key().public_numbers()
            jwk = {"kty": "RSA", "kid": KID, "use": "sig", "alg": "RS256", "n": uint(numbers.n), "e": uint(numbers.e)}
            return self.send_json(200, {"keys": [jwk]})
        if rest == "resource" and mode in STEP_UP_CHALLENGES:
            with STATS_LOCK:
                STATS[f"resource:{mode}"] = STATS.get(f"resource:{mode}", 0) + 1
            token = self.headers.get("Authorization", "")[len("Bearer "):]
            acr = ACCESS.get(token)
            if acr is None:
                return self.send_challenge('Bearer error="invalid_token"', "invalid_token")
            if mode == "step-up-weak" and acr == "urn:example:loa:2":
                return self.send_json(200, {"ok": True, "acr": acr})
            return self.send_challenge(STEP_UP_CHALLENGES[mode], "insufficient_user_authentication")
        if rest == "authorize":
            query = dict(urllib.parse.parse_qsl(url.query))
            with STATS_LOCK:
                STATS[f"authorizations:{mode}"] = STATS.get(f"authorizations:{mode}", 0) + 1
            code = b64url(hashlib.sha256(f"{time.time_ns()}{query.get('state')}".encode()).digest())
            acr = (query.get("acr_values") or "urn:example:loa:1").split(" ")[0]
            CODES[code] = (mode, query.get("client_id"), query.get("nonce"), acr)
            target = query["redirect_uri"] + "?" + urllib.parse.urlencode(
                {"code": code, "state": query.get("state", ""), "iss": issuer}
            )
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        return self.send_json(404, {"error": "not_found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
        parts = urllib.parse.urlsplit(self.path).path.strip("/").split("/", 1)
        if len(parts) == 2 and parts[1] == "device":
            with STATS_LOCK:
                STATS["harvested_assertions"] += 1 if "client_assertion" in form else 0
            return self.send_json(400, {"error": "invalid_client"})
        if len(parts) != 2 or parts[1] != "token":
            return self.send_json(404, {"error": "not_found"})
        mode = parts[0]
        issuer = f"{self.base()}/{mode}"
        authorization = self.headers.get("Authorization", "")
        if authorization.startswith("Basic "):
            pair = base64.b64decode(authorization[6:]).decode()
            with STATS_LOCK:
                STATS["client_secret"] = urllib.parse.unquote(pair.split(":", 1)[1])
        if form.get("grant_type") == "refresh_token" and mode == "honest":
            with STATS_LOCK:
                STATS["refresh_requests"] += 1  # counted on arrival: the test waits for it before racing the refresh
            time.sleep(1.0)  # a refresh in flight long enough for a concurrent logout
            with STATS_LOCK:
                STATS["refreshes"] += 1
            token = b64url(hashlib.sha256(f"{time.time_ns()}".encode()).digest())
            return self.send_json(200, {"access_token": "at-" + token, "token_type": "Bearer", "expires_in": 3600,
                                        "refresh_token": "rt-" + token})
        if mode == "endless-body":
            return self.stream(mode, chunk=b"x" * 65536, pause=0)
        if mode == "slow-body":
            return self.stream(mode, chunk=b" ", pause=1.0)
        if mode == "escape-error":
            return self.send_json(400, {"error": "invalid_grant", "error_description": "\x1b[2J\x1b]0;pwned\x07 gone\r\nforged: line"})
        known = CODES.pop(form.get("code", ""), None)
        if known is None:
            return self.send_json(400, {"error": "invalid_grant"})
        _, client_id, nonce, acr = known
        now = int(time.time())
        if mode == "step-up-weak":
            acr = "urn:example:loa:1"  # whatever was asked
        claims = {"iss": issuer, "sub": "hostile-user", "aud": client_id, "iat": now, "exp": now + 300, "auth_time": now, "acr": acr}
        if nonce:
            claims["nonce"] = nonce
        if mode == "old-auth-time":
            claims["auth_time"] = now - 3600
        device_secret = None
        if mode == "foreign-device-secret":
            # OpenID Connect Native SSO §3.1-3.2: ds_hash (at_hash's construction) of family A's secret, family B's sent.
            claims["ds_hash"] = b64url(hashlib.sha256(b"ds-of-app-family-a").digest()[:16])
            claims["sid"] = "sid-hostile"
            device_secret = "ds-of-app-family-b"
        body = {"access_token": b64url(hashlib.sha256(form["code"].encode()).digest()), "token_type": "Bearer",
                "expires_in": 3600, "id_token": sign(claims), "refresh_token": "rt-" + form["code"]}
        if mode == "jwe-honest":
            body["id_token"] = encrypt(body["id_token"], CLIENT_ENC_KEY)
        if mode == "jwe-wrong-key":
            body["id_token"] = encrypt(body["id_token"], STRANGER_ENC_KEY)
        if mode == "jwe-unsigned":
            body["id_token"] = encrypt(unsigned(claims), CLIENT_ENC_KEY)
        if device_secret:
            body["device_secret"] = device_secret
        ACCESS[body["access_token"]] = acr
        if mode == "huge-expires-in":
            body["expires_in"] = 1e19
        if mode == "negative-expires-in":
            body["expires_in"] = -1
        if mode == "hex-expires-in":
            body["expires_in"] = "0x1p64"
        return self.send_json(200, body)

    def send_challenge(self, challenge: str, error: str):
        """A resource's 401 with `WWW-Authenticate: challenge` (RFC 6750 §3, RFC 9470 §3)."""
        data = json.dumps({"error": error}).encode()
        self.send_response(401)
        self.send_header("WWW-Authenticate", challenge)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def stream(self, mode: str, chunk: bytes, pause: float):
        """A 200 with no Content-Length that never finishes; counts what it manages to send."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        started = time.monotonic()
        try:
            self.wfile.write(b'{"access_token":"')
            while time.monotonic() - started < 120:  # bounded: the server never streams for more than two minutes
                self.wfile.write(chunk)
                self.wfile.flush()
                with STATS_LOCK:
                    STATS[mode] += len(chunk)
                if pause:
                    time.sleep(pause)
        except (BrokenPipeError, ConnectionResetError):
            pass


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    # The client's decryption key (test-only, made at start), written before the port: the port file means ready.
    with open(sys.argv[1] + ".enc-key.pem", "wb") as handle:
        handle.write(CLIENT_ENC_KEY.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    with open(sys.argv[1], "w") as handle:
        handle.write(str(server.server_port))
    server.serve_forever()


if __name__ == "__main__":
    main()
