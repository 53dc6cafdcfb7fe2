"""Runs auth-cli through the OpenID Foundation's RP tests (op_server.py) and compares each outcome with the test's flow.

For every test id of every profile below: registers a client at the test's issuer (dynamic registration, as the
suite's OP requires; the Dynamic profile's tests have auth-cli register its own client with `login --register`, and
find the issuer by WebFinger with `--account-hint`), runs `auth-cli login --issuer <base>/<rp-id>/<test-id>
--browser print --json` (and `auth-cli userinfo` where the test is about the userinfo answer), plays the browser (the
OP logs in without a form: its answer is a redirect to the loopback listener, or for response_mode=form_post a page
with a form, which is posted as a browser would), and prints one line per test: id, expected, observed, PASS/FAIL.

The Encryption profile (no MTI tag) runs the signed and encrypted response flows: the driver registers the client with
the algorithms and the public half of a decryption key made with openssl, and auth-cli gets the private key
(--decryption-key) and the registered algorithms (--id-token-encryption, --userinfo-encryption, --userinfo-signing).

A profile is its flows' MTI tag (every flow so tagged must be listed here, as applicable or not) and its test ids,
each with what auth-cli must do: accept, or refuse with one of the error codes that name the fault. The expectations
restate each flow's `expected_result` (flows/<id>.json, printed with --verbose).

Usage: python driver.py OP_BASE_URL AUTH_CLI FLOWS_DIR WORK_DIR [--verbose] [--only ID ...]
Exits 1 when any observed outcome differs from the expected one.
"""
import html.parser
import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

ACCEPT = ("accept", ())


def refuse(*codes):
    return ("refuse", codes)


def either(*codes):
    return ("accept or refuse", codes)


# Each test: (expectation, options). Options: "userinfo" (run auth-cli userinfo after the login), "twice" (sign in
# twice: key rotation between them), "form_post" (--response-mode form_post), "login" (extra auth-cli login
# arguments), "register" (extra registration metadata), "by_design" (the reason auth-cli refuses a test the suite
# expects accepted; listed in SECURITY.md).
BASIC = {
    "rp-response_type-code": (ACCEPT, {}),
    "rp-scope-userinfo-claims": (ACCEPT, {"userinfo": ["email", "name"]}),
    "rp-nonce-invalid": (refuse("nonce_mismatch"), {}),
    "rp-token_endpoint-client_secret_basic": (ACCEPT, {"register": {"token_endpoint_auth_method": "client_secret_basic"}}),
    "rp-id_token-aud": (refuse("invalid_audience"), {}),
    "rp-id_token-kid-absent-single-jwks": (ACCEPT, {}),
    # The flow allows either: refuse (no kid to pick one of several keys) or try every key.
    "rp-id_token-kid-absent-multiple-jwks": (either("missing_key_id"), {}),
    "rp-id_token-issuer-mismatch": (refuse("invalid_issuer"), {}),
    # The suite shuffles the signature's characters, which usually breaks its base64url encoding: refused as malformed
    # before any signature check, or (when it still decodes) by the check itself.
    "rp-id_token-bad-sig-rs256": (refuse("invalid_signature", "malformed_id_token"), {}),
    "rp-id_token-iat": (refuse("missing_claim", "invalid_issued_at"), {}),
    "rp-id_token-sig-rs256": (ACCEPT, {}),
    "rp-id_token-sub": (refuse("missing_claim"), {}),
    "rp-userinfo-bad-sub-claim": (refuse("subject_mismatch"), {"userinfo": []}),
    "rp-userinfo-bearer-header": (ACCEPT, {"userinfo": ["sub"]}),
    "rp-id_token-sig-none": (
        refuse("unsupported_algorithm"),
        {
            "register": {"id_token_signed_response_alg": "none"},
            "by_design": "expects an unsigned ID token (alg none) accepted for a client registered for it; auth-cli (a "
            "public client) refuses unsigned ID tokens always (SECURITY.md)",
        },
    ),
}
CONFIG = {
    "rp-discovery-openid-configuration": (ACCEPT, {}),
    "rp-discovery-jwks_uri-keys": (ACCEPT, {}),
    "rp-discovery-issuer-not-matching-config": (refuse("discovery_issuer_mismatch"), {}),
    "rp-id_token-sig-none": BASIC["rp-id_token-sig-none"],
    "rp-key-rotation-op-sign-key": (ACCEPT, {"twice": True}),
    "rp-key-rotation-op-sign-key-native": (ACCEPT, {"twice": True}),
}
FORM_POST = {
    "rp-response_mode-form_post": (ACCEPT, {"form_post": True}),
    # prompt=none with max_age=0 cannot be met: the OP posts an error (login_required), which ends the sign-in with
    # authorization_failed, the provider's error in its message.
    "rp-response_mode-form_post-error": (
        refuse("authorization_failed"),
        {"form_post": True, "login": ["--prompt", "none", "--max-age", "0"]},
    ),
}
# Every Basic test again with the answer posted (response_mode=form_post): each check runs on a posted answer too.
FORM_POST.update({f"{test}@form_post": (expected, {**options, "form_post": True}) for test, (expected, options) in BASIC.items()})

# Code-flow tests of the suite in no profile (no MTI tag), run for what they prove: the ID token algorithms.
OPTIONAL = {
    "rp-id_token-sig-es256": (ACCEPT, {"register": {"id_token_signed_response_alg": "ES256"}}),
    "rp-id_token-sig-hs256": (
        refuse("unsupported_algorithm"),
        {
            "register": {"id_token_signed_response_alg": "HS256"},
            "by_design": "expects an ID token MACed with the client secret (HS256) accepted; auth-cli accepts only "
            "asymmetric signatures, checked against the issuer's published keys (SECURITY.md)",
        },
    ),
    # Shuffled like bad-sig-rs256: malformed first, or refused for its algorithm.
    "rp-id_token-bad-sig-hs256": (
        refuse("unsupported_algorithm", "malformed_id_token"), {"register": {"id_token_signed_response_alg": "HS256"}}
    ),
}

# Dynamic: auth-cli registers its own client (`login --register`: native, PKCE, the loopback redirect URI,
# client_secret_basic since the suite's OP takes no public client) and, for the WebFinger tests, finds the issuer from the account (`--account-hint`). "cli_register" is the
# auth-cli option set; "account" the identifier given to --account-hint ({base} and {rp} filled in).
DYNAMIC = {
    # `auth-cli userinfo` afterwards uses the registered client kept with the session.
    "rp-registration-dynamic": (ACCEPT, {"cli_register": True, "userinfo": ["sub", "email"]}),
    "rp-discovery-openid-configuration": (ACCEPT, {"cli_register": True}),
    "rp-discovery-jwks_uri-keys": (ACCEPT, {"cli_register": True}),
    "rp-discovery-issuer-not-matching-config": (refuse("discovery_issuer_mismatch"), {"cli_register": True}),
    "rp-discovery-webfinger-acct": (ACCEPT, {"cli_register": True, "account": "acct:{rp}.rp-discovery-webfinger-acct@{host}"}),
    "rp-discovery-webfinger-url": (ACCEPT, {"cli_register": True, "account": "{base}/{rp}/rp-discovery-webfinger-url"}),
    "rp-key-rotation-op-sign-key": (ACCEPT, {"cli_register": True, "twice": True}),
    "rp-key-rotation-op-sign-key-native": (ACCEPT, {"cli_register": True, "twice": True}),
    # Registered by the driver for alg none (auth-cli never asks for unsigned ID tokens): refused by design.
    "rp-id_token-sig-none": BASIC["rp-id_token-sig-none"],
    # auth-cli registers userinfo_signed_response_alg RS256; the answer (application/jwt) is verified like an ID token.
    "rp-userinfo-sig": (ACCEPT, {"cli_register": True, "login": ["--userinfo-signing", "RS256"], "userinfo": ["sub", "email"]}),
}

# Signed and encrypted responses (issue 53 item 4; the flows carry no MTI tag). "enc_key": the client's decryption key
# (rsa or ec, made with openssl per run): its public half is registered in jwks and auth-cli gets --decryption-key.
# The OP encrypts with what the client registered (oic's Provider.encrypt reads *_encrypted_response_alg/enc), so each
# flow is run with the algorithms named here; a "@suffix" runs a flow again with other algorithms.
def _encrypted(register, login, **options):
    return {"register": register, "login": login, **options}


ENCRYPTION = {
    # The flow's OP allows only RSA1_5 / A128CBC-HS256 for ID tokens (it refuses to register anything else): auth-cli
    # refuses RSAES-PKCS1-v1_5 key transport by design, nothing stored.
    "rp-id_token-sig+enc": (refuse("unsupported_algorithm"), _encrypted(
        {"id_token_encrypted_response_alg": "RSA1_5", "id_token_encrypted_response_enc": "A128CBC-HS256"},
        ["--id-token-encryption", "RSA-OAEP/A128CBC-HS256"], enc_key="rsa",
        by_design="the flow's OP encrypts ID tokens with RSA1_5 only; auth-cli refuses RSAES-PKCS1-v1_5 key transport, "
        "open to padding-oracle attacks (RFC 8725 §3.2; SECURITY.md)")),
    # The same flow with the algorithms auth-cli takes, at the issuer of rp-userinfo-sig+enc, whose OP registers every
    # ID token encryption algorithm (the flows' OPs differ only in their capabilities and behaviour).
    "rp-id_token-sig+enc@RSA-OAEP": (ACCEPT, _encrypted(
        {"id_token_encrypted_response_alg": "RSA-OAEP", "id_token_encrypted_response_enc": "A128CBC-HS256"},
        ["--id-token-encryption", "RSA-OAEP/A128CBC-HS256"], enc_key="rsa", issuer_flow="rp-userinfo-sig+enc")),
    "rp-id_token-sig+enc@RSA-OAEP-256+A256GCM": (ACCEPT, _encrypted(
        {"id_token_encrypted_response_alg": "RSA-OAEP-256", "id_token_encrypted_response_enc": "A256GCM"},
        ["--id-token-encryption", "RSA-OAEP-256/A256GCM"], enc_key="rsa", issuer_flow="rp-userinfo-sig+enc")),
    # The flow's own algorithms: A128KW with the key derived from the client secret (OpenID Connect Core §10.2).
    "rp-id_token-sig+enc-a128kw": (ACCEPT, _encrypted(
        {"id_token_encrypted_response_alg": "A128KW", "id_token_encrypted_response_enc": "A256CBC-HS512"},
        ["--id-token-encryption", "A128KW/A256CBC-HS512"])),
    "rp-userinfo-enc": (ACCEPT, _encrypted(
        {"userinfo_encrypted_response_alg": "RSA-OAEP", "userinfo_encrypted_response_enc": "A256GCM"},
        ["--userinfo-encryption", "RSA-OAEP/A256GCM"], enc_key="rsa", userinfo=["sub", "email"])),
    "rp-userinfo-sig+enc": (ACCEPT, _encrypted(
        {"userinfo_signed_response_alg": "RS256", "userinfo_encrypted_response_alg": "RSA-OAEP",
         "userinfo_encrypted_response_enc": "A128CBC-HS256"},
        ["--userinfo-signing", "RS256", "--userinfo-encryption", "RSA-OAEP/A128CBC-HS256"], enc_key="rsa",
        userinfo=["sub", "email"])),
    # auth-cli registers its own client with its public encryption key (jwks) and the algorithms. (ECDH-ES is not run
    # here: the suite's OP, pyjwkest 1.4.4, asks the client's EC key for its private half when it encrypts, and fails;
    # the unit tests cover ECDH-ES with RFC 7518 appendix C's key derivation.)
    "rp-userinfo-sig+enc@register": (ACCEPT, {
        "cli_register": True, "enc_key": "rsa", "userinfo": ["sub", "email"],
        "login": ["--id-token-encryption", "RSA-OAEP-256/A256GCM", "--userinfo-signing", "RS256",
                  "--userinfo-encryption", "A128KW/A128GCM"]}),
}

# (profile, the flows' MTI tag, tests). A profile whose flows carry no MTI tag (Form Post) lists its tests only.
PROFILES = [
    ("Basic", "C", BASIC), ("Config", "CNF", CONFIG), ("Dynamic", "DYN", DYNAMIC), ("Form Post", None, FORM_POST),
    ("Optional", None, OPTIONAL), ("Encryption", None, ENCRYPTION),
]

# Flows tagged for a profile above that auth-cli cannot take part in, with the reason.
NOT_APPLICABLE = {
    "rp-request_uri-sig": "sends a signed request object by reference (request_uri); auth-cli sends plain "
    "authorization parameters and registers no request_uris",
    "rp-request_uri-unsigned": "sends an unsigned request object by reference (request_uri); auth-cli sends plain "
    "authorization parameters and registers no request_uris",
    "rp-key-rotation-op-enc-key": "rotates the OP's encryption keys, which a client uses to encrypt request objects to "
    "the OP; auth-cli sends no encrypted requests (its own decryption keys are its configuration)",
}

RP_ID = "swift-auth-providers"


class FormParser(html.parser.HTMLParser):
    """The first form of a page: its action and its inputs (what a browser posts)."""

    def __init__(self):
        super().__init__()
        self.action, self.method, self.inputs = None, "get", []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and self.action is None:
            self.action, self.method = attrs.get("action"), (attrs.get("method") or "get").lower()
        elif tag == "input" and attrs.get("name") is not None:
            self.inputs.append((attrs["name"], attrs.get("value") or ""))


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


opener = urllib.request.build_opener(NoRedirect)


def fetch(url, data=None, headers=None):
    """One request, redirects not followed: (status, headers, body)."""
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with opener.open(request, timeout=15) as response:
            return response.status, response.headers, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode("utf-8", "replace")


def browse(url, redirect_uri):
    """The browser: the OP's answer to the authorization URL, followed to the loopback listener."""
    status, headers, body = fetch(url)
    for _ in range(5):
        if status in (301, 302, 303, 307) and headers.get("Location"):
            location = urllib.parse.urljoin(url, headers["Location"])
            status, headers, body = fetch(location)
            url = location
            if location.startswith(redirect_uri):
                return f"redirected ({status})"
            continue
        break
    if status == 200 and "<form" in body:
        form = FormParser()
        form.feed(body)
        if form.method == "post" and form.action:
            data = urllib.parse.urlencode(form.inputs).encode()
            status, _, _ = fetch(
                urllib.parse.urljoin(url, form.action), data, {"Content-Type": "application/x-www-form-urlencoded"}
            )
            return f"posted ({status})"
    return f"the OP answered {status}"


def register(issuer, redirect_uri, extra):
    metadata = {
        "redirect_uris": [redirect_uri],
        "response_types": ["code"],
        "grant_types": ["authorization_code"],
        "application_type": "native",
        "token_endpoint_auth_method": "client_secret_basic",
        "contacts": ["rp-suite@example.com"],  # the suite's OP requires one
        **extra,
    }
    status, _, body = fetch(issuer + "/registration", json.dumps(metadata).encode(), {"Content-Type": "application/json"})
    if status not in (200, 201):
        raise RuntimeError(f"registration at {issuer} answered {status}: {body[:300]}")
    answer = json.loads(body)
    return answer["client_id"], answer.get("client_secret")


def encryption_key(work, kind):
    """The client's decryption key (made once per run with openssl): its PEM file and its public JWK (use enc)."""
    path = os.path.join(work, f"enc-{kind}.pem")
    if not os.path.exists(path):
        generate = (["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"] if kind == "rsa"
                    else ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
        subprocess.run(generate + ["-out", path], check=True, capture_output=True)
        os.chmod(path, 0o600)
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, rsa

    def b64(number, length):
        import base64
        return base64.urlsafe_b64encode(number.to_bytes(length, "big")).rstrip(b"=").decode()

    key = serialization.load_pem_private_key(open(path, "rb").read(), password=None).public_key()
    if isinstance(key, rsa.RSAPublicKey):
        numbers = key.public_numbers()
        jwk = {"kty": "RSA", "n": b64(numbers.n, (numbers.n.bit_length() + 7) // 8), "e": b64(numbers.e, 3)}
    else:
        assert isinstance(key.curve, ec.SECP256R1)
        numbers = key.public_numbers()
        jwk = {"kty": "EC", "crv": "P-256", "x": b64(numbers.x, 32), "y": b64(numbers.y, 32)}
    return path, {**jwk, "use": "enc"}


def last_json(text):
    for line in reversed(text.strip().splitlines()):
        try:
            return json.loads(line)
        except ValueError:
            continue
    return None


def login(cli, issuer, client_id, secret_file, redirect_uri, store, options):
    if options.get("cli_register"):
        # auth-cli registers the client itself; the suite's OP requires contacts.
        where = ["--account-hint", options["account_hint"]] if "account_hint" in options else ["--issuer", issuer]
        # auth-cli registers a public client (none) unless asked; the suite's OP supports only the secret and key
        # methods (token_endpoint_auth_methods_supported), so the run asks for client_secret_basic.
        who = where + ["--register", "--registration-contact", "rp-suite@example.com", "--register-auth-method", "client_secret_basic"]
    else:
        who = ["--issuer", issuer, "--client-id", client_id, "--client-secret-file", secret_file]
    arguments = [
        cli, "login", *who, "--redirect-uri", redirect_uri, "--browser", "print", "--json", "--store", store,
        "--timeout", "20", "--request-timeout", "10", "--scope", "openid email profile",
    ]
    if options.get("form_post"):
        arguments += ["--response-mode", "form_post"]
    arguments += options.get("login", [])
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = process.stdout.readline()
    browsed = ""
    if first.startswith("http"):
        browsed = browse(first.strip(), redirect_uri)
    try:
        rest, errors = process.communicate(timeout=40)
    except subprocess.TimeoutExpired:
        process.kill()
        rest, errors = process.communicate()
    return process.returncode, last_json(first + rest), browsed, errors


def observe(cli, base, test_id, options, work, redirect_uri):
    """('accept', None) or ('refuse', code), and a detail for the log."""
    flow_id = options.get("issuer_flow", test_id.split("@")[0])
    issuer = f"{base}/{RP_ID}/{flow_id}"
    if "account" in options:
        host = urllib.parse.urlparse(base).netloc
        options = {**options, "account_hint": options["account"].format(base=base, rp=RP_ID, host=host)}
    if options.get("enc_key"):
        key_file, public_jwk = encryption_key(work, options["enc_key"])
        options = {**options, "login": ["--decryption-key", key_file, *options.get("login", [])]}
        if not options.get("cli_register"):
            options["register"] = {**options.get("register", {}), "jwks": {"keys": [public_jwk]}}
    client_id, secret = (None, None) if options.get("cli_register") else register(issuer, redirect_uri, options.get("register", {}))
    secret_file = os.path.join(work, "secret")
    with open(secret_file, "w") as handle:
        handle.write((secret or "") + "\n")
    os.chmod(secret_file, 0o600)
    store = os.path.join(work, test_id.replace("@", "-") + ".json")
    details = []
    for _ in range(2 if options.get("twice") else 1):
        if os.path.exists(store):
            os.remove(store)
        status, result, browsed, errors = login(cli, issuer, client_id, secret_file, redirect_uri, store, options)
        details.append(f"login exit {status}, browser: {browsed or 'not started'}")
        # A form_post test must have been answered by a posted form (a redirect would not test the listener's POST).
        if options.get("form_post") and browsed and not browsed.startswith("posted"):
            return ("error", "answer not posted"), details
        if result is None:
            return ("error", "no JSON"), details + [errors.strip()[-400:]]
        if "error" in result:
            return ("refuse", result["error"]["code"]), details + [result["error"]["message"]]
        if "userinfo" in options:
            run = subprocess.run([cli, "userinfo", "--store", store, "--json"], capture_output=True, text=True, timeout=30)
            answer = last_json(run.stdout)
            details.append(f"userinfo exit {run.returncode}")
            if answer is None:
                return ("error", "no JSON"), details + [run.stderr.strip()[-400:]]
            if "error" in answer:
                return ("refuse", answer["error"]["code"]), details + [answer["error"]["message"]]
            missing = [claim for claim in options["userinfo"] if claim not in answer]
            if missing:
                return ("error", f"userinfo without {missing}"), details
    return ("accept", None), details


def matches(expected, observed):
    kind, codes = expected
    outcome, code = observed
    if kind == "accept":
        return outcome == "accept"
    if kind == "refuse":
        return outcome == "refuse" and code in codes
    return outcome == "accept" or (outcome == "refuse" and code in codes)


def describe(expected, options):
    kind, codes = expected
    text = kind if not codes else f"{kind} ({'|'.join(codes)})"
    return text + (" by design" if "by_design" in options else "")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def check_profiles(flows_dir):
    """Every listed test has a flow; every flow tagged for a profile is listed (applicable or not)."""
    problems = []
    flows = {name[:-5]: json.load(open(os.path.join(flows_dir, name))) for name in os.listdir(flows_dir) if name.endswith(".json")}
    for profile, tag, tests in PROFILES:
        for test_id in tests:
            if test_id.split("@")[0] not in flows:
                problems.append(f"{profile}: {test_id} has no flow definition")
        if tag:
            for flow_id, flow in flows.items():
                if tag in flow.get("MTI", []) and flow_id not in tests and flow_id not in NOT_APPLICABLE:
                    problems.append(f"{profile}: the flow {flow_id} (MTI {tag}) is neither run nor listed as not applicable")
    return flows, problems


def response_mode_refused(cli, work):
    """`auth-cli login --response-mode form_post` against an issuer whose discovery document lists response modes
    without form_post: refused (invalid_configuration) before any browser is shown. The suite's OP lists form_post, so
    this one is a discovery document served here."""

    class Discovery(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            base = f"http://127.0.0.1:{self.server.server_port}"
            body = json.dumps({
                "issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
                "jwks_uri": base + "/jwks", "response_types_supported": ["code"], "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"], "response_modes_supported": ["query", "fragment"],
            }).encode()
            self.send_response(200 if self.path == "/.well-known/openid-configuration" else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Discovery)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        run = subprocess.run(
            [cli, "login", "--issuer", f"http://127.0.0.1:{server.server_port}", "--client-id", "cli",
             "--redirect-uri", f"http://127.0.0.1:{free_port()}/callback", "--browser", "print", "--json",
             "--store", os.path.join(work, "unsupported.json"), "--response-mode", "form_post"],
            capture_output=True, text=True, timeout=30)
    finally:
        server.shutdown()
    result = last_json(run.stdout)
    printed_url = any(line.startswith("http") for line in run.stdout.splitlines())
    if printed_url or result is None or "error" not in result:
        return ("error", "not refused before the browser"), [run.stdout[-300:], run.stderr[-300:]]
    return ("refuse", result["error"]["code"]), [result["error"]["message"]]


def main():
    base, cli, flows_dir, work = sys.argv[1:5]
    verbose = "--verbose" in sys.argv
    only = sys.argv[sys.argv.index("--only") + 1:] if "--only" in sys.argv else None
    flows, problems = check_profiles(flows_dir)
    for problem in problems:
        print(f"oidc-rp-suite: {problem}")
    redirect_uri = f"http://127.0.0.1:{free_port()}/callback"
    started = time.monotonic()
    failures = len(problems)
    ran = 0
    deadline = started + float(os.environ.get("AUTH_OIDC_RP_DEADLINE", "200"))
    print(f"{'profile':<10} {'test id':<52} {'expected':<58} {'observed':<36} result")
    for profile, _, tests in PROFILES:
        for test_id, (expected, options) in tests.items():
            if only and test_id not in only:
                continue
            ran += 1
            if time.monotonic() > deadline:
                failures += 1
                print(f"{profile:<10} {test_id:<52} {describe(expected, options):<58} {'not run (deadline)':<36} FAIL", flush=True)
                continue
            try:
                observed, details = observe(cli, base, test_id, options, work, redirect_uri)
            except Exception as error:  # the run goes on; this test fails
                observed, details = ("error", type(error).__name__), [str(error)]
            passed = matches(expected, observed)
            failures += 0 if passed else 1
            shown = observed[0] if observed[1] is None else f"{observed[0]} ({observed[1]})"
            verdict = ("PASS" if passed else "FAIL") + (" (refused by design)" if "by_design" in options and passed else "")
            print(f"{profile:<10} {test_id:<52} {describe(expected, options):<58} {shown:<36} {verdict}", flush=True)
            if verbose or not passed:
                flow = flows.get(test_id.split("@")[0], {})
                print(f"    flow expected_result: {flow.get('expected_result', '?')}")
                if "by_design" in options:
                    print(f"    by design: {options['by_design']}")
                for line in details:
                    print(f"    {line}")
    # auth-cli's own check: form_post is not asked of a provider that lists response modes without it.
    expected = refuse("invalid_configuration")
    observed, details = response_mode_refused(cli, work)
    passed = matches(expected, observed)
    failures += 0 if passed else 1
    ran += 1
    print(f"{'auth-cli':<10} {'--response-mode form_post, not in response_modes_supported':<52} {describe(expected, {}):<58} "
          f"{observed[0] + ' (' + str(observed[1]) + ')':<36} {'PASS' if passed else 'FAIL'}", flush=True)
    if verbose or not passed:
        for line in details:
            print(f"    {line}")
    for test_id, reason in NOT_APPLICABLE.items():
        print(f"{'':<10} {test_id:<52} not applicable: {reason}")
    if not NOT_APPLICABLE:
        print("oidc-rp-suite: not applicable: none (every flow tagged C, CNF or DYN and both form_post flows run)")
    elapsed = time.monotonic() - started
    print(f"oidc-rp-suite: {max(0, ran - failures)}/{ran} tests as expected in {elapsed:.0f}s")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
