#!/usr/bin/env python3
"""The security review's second round, over HTTP against a running web sign-in sample (each attack must fail).

Usage: web-native-attacks.py BASE_URL CHECK [CHECK ...]

BASE_URL is the sample (http://127.0.0.1:8802). Environment: OIDC_USER (an OpenID Connect test account of its
emulator), APPLE_USER and APPLE_CONFIG (the Sign in with Apple emulator's configuration file, as
`auth-emulator emulate all --config-dir DIR` writes it: its issuer, team, key id and the team's private key, with which
this script plays the iOS app and its device), and PSQL (optional: a command that runs one SQL statement, to count rows).
Checks:

  native-cross-site  (N1) the app's own native credential — an ID token, an unused code and the server's nonce, minted
                     by the Apple emulator for the app's bundle id as the device gets them — POSTed as a cross-site
                     form (the login CSRF of the review): 403 cross_site_request, no cookie, no row; posted as JSON
                     with the same values, as the app's URLSession does, it signs in (and signs out again).
  native-nonce-marks (N2) 300 unauthenticated pairs: a nonce, then a sign-in with a garbage ID token: each 400, and no
                     used-nonce mark (PSQL: auth_used_nonces has as many rows after as before).
  head-sign-in       (N6) HEAD on login and on the callback: no 200/302, no cookie, no code spent (the GET that follows
                     signs in).
  cancel-sign-in     (N7) another site sends the browser to the callback with a made-up state, and embeds the form_post
                     provider's login as an image: neither cancels the sign-in in progress.
  tokenless-session  (N4, needs PSQL) a signed-in browser's credential is deleted (what invalid_grant does): after the
                     other instances' 2 s session cache, /auth/session says signed out, and the row is gone.
  apple-name         (item 6, after a first Apple authorization elsewhere) three later Apple sign-ins — a second browser,
                     one after a sign-out, one on OTHER_INSTANCE — are each greeted by the name Apple posted once.
  form-post-orphan   (N5) a browser signed in with oidc signs in with Apple, whose callback is a cross-site POST
                     carrying only the SameSite=None sign-in cookie: the earlier session is signed out.

Prints one line per check and exits non-zero on the first failure. Every sign-in a check makes is signed out again.
"""
import base64
import json
import os
import pathlib
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from scripted_browser import Browser, LoginForm, sign_in_on_emulator  # noqa: E402

SESSION = "__Host-auth_session"
SIGN_IN = "__Host-auth_signin"
BUNDLE_ID = "com.example.app"  # TestIdentityProvider.appleBundleID: the sample's native Apple client
NATIVE_REDIRECT = "https://appleid.apple.com/emulated-device"  # where Apple answers the device itself


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def psql(sql):
    command = os.environ.get("PSQL")
    if not command:
        return None
    out = subprocess.run(f"{command} -tA -c \"{sql}\"", shell=True, check=True, capture_output=True, text=True)
    return int(out.stdout.strip())


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def es256(pem, signing_input):
    """An ES256 signature (r || s, 64 bytes) with openssl, from its DER ECDSA-Sig-Value."""
    with tempfile.NamedTemporaryFile("w", suffix=".pem") as key:
        key.write(pem)
        key.flush()
        der = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key.name], input=signing_input, capture_output=True, check=True).stdout
    # SEQUENCE { INTEGER r, INTEGER s } with short lengths (P-256).
    index = 2
    parts = []
    for _ in range(2):
        length = der[index + 1]
        parts.append(der[index + 2:index + 2 + length].lstrip(b"\0").rjust(32, b"\0"))
        index += 2 + length
    return parts[0] + parts[1]


class AppleDevice:
    """The iOS app and its device signing in with Apple against the emulator: what ASAuthorizationController hands the
    app (an identity token for the bundle id carrying the server's nonce, and a fresh code), as the emulator's
    `appleNativeSignIn` makes it in process — here over HTTP, through the emulator's login page."""

    def __init__(self, config_path, username):
        self.config = json.loads(pathlib.Path(config_path).read_text())
        if "private_key" not in self.config:  # auth-emulator writes the team's key to a file of its own (0600)
            self.config["private_key"] = pathlib.Path(self.config["private_key_file"]).read_text()
        self.username = username
        _, _, body = Browser().request(self.config["issuer"].rstrip("/") + "/.well-known/openid-configuration", follow=3)
        self.discovery = json.loads(body)

    def client_secret(self):
        now = int(time.time())
        header = {"alg": "ES256", "kid": self.config["key_id"]}
        claims = {"iss": self.config["team_id"], "iat": now, "exp": now + 600, "aud": "https://appleid.apple.com", "sub": BUNDLE_ID}
        signing_input = (b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())).encode()
        return signing_input.decode() + "." + b64url(es256(self.config["private_key"], signing_input))

    def authorize(self, nonce):
        query = urllib.parse.urlencode({
            "client_id": BUNDLE_ID, "redirect_uri": NATIVE_REDIRECT, "response_type": "code", "scope": "openid name email",
            "response_mode": "form_post", "state": secrets.token_urlsafe(12), "nonce": nonce})
        device = Browser()
        url = self.discovery["authorization_endpoint"] + "?" + query
        status, _, page = device.request(url)
        expect(status == 200, f"the emulator's login page answered the device {status}")
        login = LoginForm(page)
        url = urllib.parse.urljoin(url, login.action)
        status, head, body = device.request(url, data={**login.hidden, "username": self.username, "password": "emulator-password", "action": "approve"})
        # Redirects that stay on the emulator lead to Apple's auto-submitting form page.
        while status in (301, 302, 303) and not head["Location"].startswith(NATIVE_REDIRECT):
            url = urllib.parse.urljoin(url, head["Location"])
            status, head, body = device.request(url)
        form = LoginForm(body)
        expect(form.action == NATIVE_REDIRECT and "code" in form.hidden, f"the emulator's answer to the device is not Apple's form ({status})")
        return form.hidden

    def sign_in(self, nonce):
        """(id_token, code, user) for `nonce`: one code redeemed for the identity token, as the device does, and a
        second, unused one for the app to hand to its server."""
        first = self.authorize(nonce)
        form = {"grant_type": "authorization_code", "code": first["code"], "client_id": BUNDLE_ID, "client_secret": self.client_secret()}
        status, _, body = Browser().request(self.discovery["token_endpoint"], data=form)
        expect(status == 200, f"the emulator's token endpoint answered the device {status}: {body[:200]!r}")
        second = self.authorize(nonce)
        return json.loads(body)["id_token"], second["code"], first.get("user")


class App(Browser):
    def nonce(self, provider="apple"):
        status, _, body = self.send("POST", self.base + f"/auth/{provider}/native/nonce", b"", {}, 30)
        expect(status == 200, f"the native nonce route answered {status}")
        return json.loads(body)["nonce"]

    def native(self, fields, headers, body=None):
        payload = body if body is not None else json.dumps(fields).encode()
        status, head, answer = self.send("POST", self.base + "/auth/apple/native/sign-in", payload, headers, 30)
        cookies = [c for c in head.get_all("Set-Cookie") or [] if c.startswith(SESSION + "=") and not c.startswith(SESSION + "=;")]
        error = json.loads(answer).get("error") if answer.startswith(b"{") else None
        return status, error, cookies

    def start(self, provider="oidc"):
        status, head, _ = self.request(f"/auth/{provider}/login")
        expect(status == 302, f"/auth/{provider}/login answered {status}")
        return head["Location"]

    def sign_out(self, cookie=None):
        if cookie:
            self.cookies[SESSION] = cookie
        _, _, body = self.request("/auth/session")
        session = json.loads(body)
        if session.get("signed_in"):
            status, _, _ = self.request("/auth/logout", data={"csrf_token": session["csrf_token"]})
            expect(status == 303, f"sign-out answered {status}")


def rows(table):
    return psql(f"SELECT count(*) FROM {table}")


def native_cross_site(base):
    app = App(base)
    device = AppleDevice(os.environ["APPLE_CONFIG"], os.environ["APPLE_USER"])
    nonce = app.nonce()
    id_token, code, user = device.sign_in(nonce)
    fields = {"id_token": id_token, "code": code, "nonce": nonce, **({"user": user} if user else {})}
    before = (rows("auth_sessions"), rows("auth_used_nonces"), rows("auth_credentials"))
    form = urllib.parse.urlencode(fields).encode()
    hostile = [
        ("a cross-site form", form, {"Content-Type": "application/x-www-form-urlencoded", "Origin": "https://attacker.example", "Sec-Fetch-Site": "cross-site"}),
        ("a form without Origin", form, {"Content-Type": "application/x-www-form-urlencoded"}),
        ("JSON as text/plain", None, {"Content-Type": "text/plain"}),
        ("JSON from another origin", None, {"Content-Type": "application/json", "Origin": "https://attacker.example"}),
        ("JSON from a sibling site", None, {"Content-Type": "application/json", "Sec-Fetch-Site": "same-site"}),
    ]
    for what, body, headers in hostile:
        status, error, cookies = app.native(fields, headers, body)
        expect(status == 403 and error == "cross_site_request" and not cookies, f"{what}: {status} {error}, session cookie: {bool(cookies)}")
    after = (rows("auth_sessions"), rows("auth_used_nonces"), rows("auth_credentials"))
    expect(before == after, f"rows (sessions, used nonces, credentials) {before} -> {after} after refused requests")
    status, error, cookies = app.native(fields, {"Content-Type": "application/json"})
    expect(status == 200 and cookies, f"the app's own request answered {status} {error}")
    session_id = cookies[0].split(";")[0].split("=", 1)[1]
    _, _, body = app.send("GET", base + "/auth/session", None, {"Cookie": f"{SESSION}={session_id}"}, 30)
    session = json.loads(body)
    expect(session.get("signed_in") and session.get("provider") == "apple", f"/auth/session after the app's sign-in: {session}")
    app.sign_out(session_id)
    counted = "" if before[0] is None else f"; rows unchanged by the {len(hostile)} refusals"
    return f"{len(hostile)} cross-site shapes refused 403 cross_site_request, no cookie{counted}; the app's JSON request signed in"


def native_nonce_marks(base, n=300):
    app = App(base)
    before = rows("auth_used_nonces")
    for _ in range(n):
        status, error, cookies = app.native({"id_token": "x", "code": "y", "nonce": app.nonce()}, {"Content-Type": "application/json"})
        expect(status == 400 and error != "nonce_replayed" and not cookies, f"a garbage ID token answered {status} {error}")
    after = rows("auth_used_nonces")
    expect(before == after, f"used-nonce rows {before} -> {after}")
    counted = "" if before is None else f"; used-nonce rows {before} -> {after}"
    return f"{n} garbage sign-ins refused 400{counted}"


def head_sign_in(base):
    app = App(base)
    on_login, head, _ = app.send("HEAD", base + "/auth/oidc/login", None, {}, 30)
    expect(on_login not in (200, 302) and not head.get_all("Set-Cookie"), f"HEAD on login answered {on_login} with cookies {head.get_all('Set-Cookie')}")
    authorize = app.start()
    status, head = sign_in_on_emulator(Browser(), authorize, os.environ["OIDC_USER"])
    expect(status == 302, f"the emulator answered {status}")
    callback = head["Location"]
    cookie = "; ".join(f"{k}={v}" for k, v in app.cookies.items())
    status2, head2, _ = app.send("HEAD", callback, None, {"Cookie": cookie}, 30)
    expect(status2 not in (200, 302, 303) and not head2.get_all("Set-Cookie"), f"HEAD on the callback answered {status2} with {head2.get_all('Set-Cookie')}")
    final, _, _ = app.request(callback)
    expect(final == 303, f"the GET after the HEAD answered {final} (the HEAD spent the code?)")
    app.sign_out()
    return f"HEAD on login {on_login}, on the callback {status2}: no cookie, no code spent; the GET then signed in"


def cancel_sign_in(base):
    victim = App(base)
    authorize = victim.start()
    # The attacker's page: a link to the callback with a made-up state (a top-level GET carries the Lax cookie).
    junk, head, _ = victim.request("/auth/oidc/callback?state=attacker&code=x")
    expect(junk == 400 and not head.get_all("Set-Cookie"), f"the junk callback answered {junk}, Set-Cookie {head.get_all('Set-Cookie')}")
    # And an <img> of the form_post provider's login (its sign-in cookie is SameSite=None).
    cookie = "; ".join(f"{k}={v}" for k, v in victim.cookies.items())
    embedded, head, _ = victim.send("GET", base + "/auth/apple/login", None,
                                    {"Cookie": cookie, "Sec-Fetch-Dest": "image", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}, 30)
    expect(embedded == 403 and not head.get_all("Set-Cookie"), f"an embedded login answered {embedded}, Set-Cookie {head.get_all('Set-Cookie')}")
    status, head = sign_in_on_emulator(Browser(), authorize, os.environ["OIDC_USER"])
    final, _, body = victim.request(head["Location"])
    expect(final == 303, f"the victim's own callback answered {final}: {body[:160]!r}")
    victim.sign_out()
    return f"a junk-state callback ({junk}) and an embedded login ({embedded}) left the sign-in cookie; the victim's sign-in completed"


def oidc_sign_in(app):
    status, head = sign_in_on_emulator(Browser(), app.start(), os.environ["OIDC_USER"])
    expect(status == 302, f"the emulator answered {status}")
    final, _, _ = app.request(head["Location"])
    expect(final == 303, f"the oidc callback answered {final}")


def tokenless_session(base):
    app = App(base)
    oidc_sign_in(app)
    deleted = psql("WITH d AS (DELETE FROM auth_credentials RETURNING 1) SELECT count(*) FROM d")
    expect(deleted is not None, "set PSQL")
    time.sleep(2.2)  # past the other instances' 2 s session cache
    _, _, body = app.request("/auth/session")
    session = json.loads(body)
    expect(session.get("signed_in") is False, f"/auth/session with the credential gone: {session}")
    me, _, _ = app.request("/me")
    expect(me == 401, f"/me answered {me}")
    return f"{deleted} credential deleted; the session reads as signed out and /me is {me}"


def apple_sign_in(app, base):
    """Signs `app` in with Apple: the emulator's login page, then its auto-submitting form POSTed cross-site, carrying
    only the SameSite=None sign-in cookie, as a browser sends it. Returns the new session id."""
    authorize = app.start("apple")
    device = Browser()
    status, _, page = device.request(authorize)
    expect(status == 200, f"Apple's login page answered {status}")
    login = LoginForm(page)
    url = urllib.parse.urljoin(authorize, login.action)
    status, head, body = device.request(url, data={**login.hidden, "username": os.environ["APPLE_USER"], "password": "emulator-password", "action": "approve"})
    while status in (301, 302, 303) and not head["Location"].startswith(base):
        url = urllib.parse.urljoin(url, head["Location"])
        status, head, body = device.request(url)
    form = LoginForm(body)
    expect(form.action and form.action.startswith(base), f"no form posting to the app in Apple's page ({status})")
    headers = {"Cookie": f"{SIGN_IN}={app.cookies[SIGN_IN]}", "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site"}
    status, head, _ = app.send("POST", form.action, urllib.parse.urlencode(form.hidden).encode(), headers, 30)
    expect(status == 303, f"Apple's callback answered {status}")
    app.cookies.pop(SIGN_IN, None)
    session = next((c.split(";")[0].split("=", 1)[1] for c in head.get_all("Set-Cookie") or [] if c.startswith(SESSION + "=")), None)
    expect(session, "no session cookie from Apple's callback")
    app.cookies[SESSION] = session
    return session


def form_post_orphan(base):
    app = App(base)
    oidc_sign_in(app)
    first = app.cookies[SESSION]
    second = apple_sign_in(app, base)
    expect(second != first, "the same session id after signing in again")
    _, _, old = app.send("GET", base + "/auth/session", None, {"Cookie": f"{SESSION}={first}"}, 30)
    expect(json.loads(old).get("signed_in") is False, f"the earlier session after the Apple sign-in: {old[:120]!r}")
    app.sign_out(second)
    return "the oidc session ended when the same browser signed in with Apple by a cross-site form POST"


def apple_name(base):
    """(Item 6) Apple posted the user's name once, at the first authorization (the Chromium run's); every later
    sign-in — another browser here, after a sign-out, another instance (OTHER_INSTANCE) — greets the user by it."""
    expected = os.environ.get("APPLE_NAME", "Alex Appleseed")
    seen = []
    for where in [base, base, os.environ.get("OTHER_INSTANCE", base).rstrip("/")]:
        app = App(where)
        apple_sign_in(app, base)  # the callback is always B's (A builds its URLs on B's origin)
        _, _, body = app.request("/auth/session")
        name = json.loads(body).get("name")
        seen.append(name)
        app.sign_out()
    expect(all(name == expected for name in seen), f"names greeted: {seen}")
    return f"three later Apple sign-ins (two browsers, after sign-out, another instance) greeted '{expected}'"


CHECKS = {"native-cross-site": native_cross_site, "native-nonce-marks": native_nonce_marks, "head-sign-in": head_sign_in, "cancel-sign-in": cancel_sign_in,
          "tokenless-session": tokenless_session, "form-post-orphan": form_post_orphan, "apple-name": apple_name}


def main():
    base, *checks = sys.argv[1:]
    for check in checks:
        try:
            print(f"web-native-attacks {check}: {CHECKS[check](base.rstrip('/'))}", flush=True)
        except AssertionError as error:
            sys.exit(f"web-native-attacks {check}: FAILED: {error}")


if __name__ == "__main__":
    main()
