#!/usr/bin/env python3
"""Configures a freshly started Glewlwyd 2.7.5 through its admin API (Python stdlib only).

    setup.py BASE_URL STATE_DIR REDIRECT_URI [--mtls]

BASE_URL is the server's external URL (http://127.0.0.1:PORT, or https://… for the mTLS instance, whose server
certificate is checked against STATE_DIR/tls/ca.pem). Glewlwyd's database starts from Debian's init.sqlite3.sql:
the administrator admin/password, the database user and client backends. This script, as the administrator:

- gives the administrator a generated password (STATE_DIR/secrets.json, 0600) instead of the default one;
- checks the database user and client backends (GET /api/mod/user/, /api/mod/client/);
- makes `openid` a scope that needs the password (Glewlwyd's password scheme, `password_required`), 10 min max age;
- adds the user alice with a generated password and the scopes openid and g_profile;
- adds the OpenID Connect plugin instance `oidc` (issuer BASE_URL/api/oidc): ES256 ID and access tokens signed
  with a P-256 key made here by openssl (one whose x or y starts with a zero byte, which Glewlwyd's JWKS shortens:
  short_coordinate_key), PKCE S256 required (plain refused), PAR allowed (not required: the
  test uses both), DPoP with server nonces, RFC 9207 `iss` in authorization responses, refresh tokens (rolling),
  introspection and revocation for the token's own client, user info, signed request objects (RFC 9101) and
  private_key_jwt with the client's `pubkey`; with --mtls also RFC 8705 client
  certificates from the TLS session (tls_client_auth, self_signed_tls_client_auth, mtls_endpoint_aliases);
- registers the confidential clients `cli` (client_secret_basic) and `cli-jwt` (private_key_jwt, a P-256 key made
  here, STATE_DIR/keys/cli-jwt.key) with REDIRECT_URI; with --mtls also `cli-mtls`
  (tls_client_auth) and `cli-self` (self_signed_tls_client_auth): see mtls_clients.py;
- then, as alice (POST /api/auth/), grants `openid` to the clients (PUT /api/auth/grant/CLIENT), so an authorization
  request with alice's session cookie redirects straight to REDIRECT_URI with a code.

Prints nothing on success; fails with the server's answer otherwise.
"""
import http.cookiejar
import json
import os
import secrets
import ssl
import subprocess
import sys
import urllib.error
import urllib.request

base, state, redirect_uri = sys.argv[1:4]
mtls = "--mtls" in sys.argv[4:]
api = base + "/api"
issuer = api + "/oidc"


def opener():
    handlers = [urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())]
    if base.startswith("https://"):
        context = ssl.create_default_context(cafile=os.path.join(state, "tls", "ca.pem"))
        handlers.append(urllib.request.HTTPSHandler(context=context))
    return urllib.request.build_opener(*handlers)


def call(session, method, path, body=None, expect=(200,)):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(api + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with session.open(request, timeout=10) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    if status not in expect:
        sys.exit(f"glewlwyd setup: {method} {path} answered {status}: {text[:400]}")
    return json.loads(text) if text.strip().startswith(("{", "[")) else text


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def read(path):
    with open(path) as handle:
        return handle.read()


keys = os.path.join(state, "keys")
os.makedirs(keys, exist_ok=True)
signing_key = os.path.join(keys, "signing.key")


def short_coordinate_key():
    """A P-256 key whose public x or y starts with a zero byte (one key in 128): Glewlwyd's JWKS then writes that
    coordinate without it (31 bytes, against RFC 7518 §6.2.1.2), which a client must still read. Chosen on purpose
    so every run meets the case instead of one run in 128."""
    for _ in range(4000):
        pem = subprocess.run(["openssl", "ecparam", "-genkey", "-name", "prime256v1", "-noout"],
                             check=True, capture_output=True).stdout
        der = subprocess.run(["openssl", "ec", "-pubout", "-outform", "DER"], input=pem,
                             check=True, capture_output=True).stdout
        point = der[-64:]  # the uncompressed point's x and y, after 0x04
        if point[0] == 0 or point[32] == 0:
            return pem
    sys.exit("glewlwyd setup: no P-256 key with a leading zero coordinate byte in 4000 tries")


if not os.path.exists(signing_key):
    with open(signing_key, "wb") as handle:
        handle.write(short_coordinate_key())
    os.chmod(signing_key, 0o600)
    openssl("ec", "-in", signing_key, "-pubout", "-out", os.path.join(keys, "signing.pem"))

secrets_file = os.path.join(state, "secrets.json")
values = {
    "admin_password": secrets.token_urlsafe(18),
    "username": "alice",
    "password": secrets.token_urlsafe(18),
    "client_id": "cli",
    "client_secret": secrets.token_urlsafe(24),
    "issuer": issuer,
    "redirect_uri": redirect_uri,
}

admin = opener()
call(admin, "POST", "/auth/", {"username": "admin", "password": "password"})
call(admin, "PUT", "/profile/password",
     {"username": "admin", "old_password": "password", "password": values["admin_password"]})

# The backends Debian's init.sqlite3.sql creates: users and clients in Glewlwyd's own database.
user_backends = [m["name"] for m in call(admin, "GET", "/mod/user/") if m.get("enabled", True)]
client_backends = [m["name"] for m in call(admin, "GET", "/mod/client/") if m.get("enabled", True)]
if "database" not in user_backends or "database" not in client_backends:
    sys.exit(f"glewlwyd setup: no database backends (users: {user_backends}, clients: {client_backends})")

# Password authentication for the openid scope: a session must have typed the password in the last 10 minutes.
call(admin, "PUT", "/scope/openid", {
    "name": "openid", "display_name": "Open ID", "description": "Open ID Connect scope",
    "password_required": True, "password_max_age": 600, "scheme": {},
})

call(admin, "POST", "/user/", {
    "username": values["username"], "password": values["password"], "name": "Alice Liddell",
    "email": "alice@example.org", "scope": ["openid", "g_profile"], "enabled": True,
})

parameters = {
    "iss": issuer,
    "jwt-type": "ecdsa", "jwt-key-size": "256",
    "key": read(signing_key), "cert": read(os.path.join(keys, "signing.pem")),
    "access-token-duration": 3600, "refresh-token-duration": 1209600, "code-duration": 600,
    "refresh-token-rolling": True,
    "allow-non-oidc": False,
    "auth-type-code-enabled": True, "auth-type-token-enabled": False, "auth-type-id-token-enabled": True,
    "auth-type-none-enabled": False, "auth-type-password-enabled": False, "auth-type-client-enabled": True,
    "auth-type-refresh-enabled": True, "auth-type-device-enabled": False, "auth-type-code-revoke-replayed": True,
    "subject-type": "public", "scope": [],
    "name-claim": "mandatory", "email-claim": "mandatory",
    "pkce-allowed": True, "pkce-method-plain-allowed": False, "pkce-required": True,
    "introspection-revocation-allowed": True, "introspection-revocation-allow-target-client": True,
    "oauth-as-iss-id": True,
    "oauth-par-allowed": True, "oauth-par-required": False,
    "oauth-par-request_uri-prefix": "urn:ietf:params:oauth:request_uri:", "oauth-par-duration": 90,
    "oauth-dpop-allowed": True, "oauth-dpop-iat-duration": 60,
    "oauth-dpop-nonce-mandatory": True, "oauth-dpop-nonce-counter": 10,
    # Signed request objects (RFC 9101) and private_key_jwt, with the client's public key in its `pubkey` property.
    "request-parameter-allow": True, "request-parameter-ietf-strict": True, "request-maximum-exp": 600,
    "client-pubkey-parameter": "pubkey",
}
if mtls:
    parameters.update({
        "client-cert-source": "TLS", "client-cert-use-endpoint-aliases": True,
        "client-cert-self-signed-allowed": True,
    })
call(admin, "POST", "/mod/plugin/", {
    "module": "oidc", "name": "oidc", "display_name": "OpenID Connect", "parameters": parameters,
})

call(admin, "POST", "/client/", {
    "client_id": values["client_id"], "name": "auth-cli", "confidential": True,
    "client_secret": values["client_secret"], "redirect_uri": [redirect_uri],
    # client_credentials: Glewlwyd lets a client revoke and introspect its tokens only with that type (OIDC.md,
    # "Allow for the token client").
    "authorization_type": ["code", "refresh_token", "client_credentials"],
    "token_endpoint_auth_method": ["client_secret_basic"], "scope": [], "enabled": True,
})

# cli-jwt: private_key_jwt with a P-256 key made here (STATE_DIR/keys/cli-jwt.key, its public key registered).
client_key = os.path.join(keys, "cli-jwt.key")
openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", client_key)
openssl("pkey", "-in", client_key, "-pubout", "-out", os.path.join(keys, "cli-jwt.pem"))
call(admin, "POST", "/client/", {
    "client_id": "cli-jwt", "name": "auth-cli (private_key_jwt)", "confidential": True,
    "redirect_uri": [redirect_uri], "authorization_type": ["code", "refresh_token", "client_credentials"],
    "token_endpoint_auth_method": ["private_key_jwt"], "pubkey": read(os.path.join(keys, "cli-jwt.pem")),
    # Glewlwyd checks each JWT's alg against the client's registered one (is_sig_alg_valid).
    "token_endpoint_signing_alg": "ES256", "request_object_signing_alg": "ES256",
    "scope": [], "enabled": True,
})
values["jwt_client_id"], values["jwt_key_file"] = "cli-jwt", client_key

if mtls:
    import mtls_clients  # noqa: E402  (Scripts/services/glewlwyd/mtls_clients.py)
    mtls_clients.register(call, admin, state, values)

user = opener()
call(user, "POST", "/auth/", {"username": values["username"], "password": values["password"]})
for client_id in (values["client_id"], values["jwt_client_id"]):
    call(user, "PUT", "/auth/grant/" + client_id, {"scope": "openid"})
if mtls:
    for client_id in values.get("mtls_clients", []):
        call(user, "PUT", "/auth/grant/" + client_id, {"scope": "openid"})

with open(os.open(secrets_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as handle:
    json.dump(values, handle)
