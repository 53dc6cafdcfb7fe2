"""The suite's logout and third-party login profiles against the web samples (and auth-cli logout where they apply).

RP-Initiated Logout, Front-Channel Logout, Back-Channel Logout and 3rd-Party-Initiated Login are tests of a web
relying party: the OP calls the RP's logout URIs and redirects the browser to its post-logout and initiate-login URIs.
For every sample given (Examples/WebSignIn on Hummingbird, Examples/VaporWebSignIn on Vapor), this registers one
client per test id at the test's issuer (`<base>/<rp-id>/<test-id>`) with the sample's URIs for a route named after
the test (redirect_uris, post_logout_redirect_uris, and as the test needs frontchannel_logout_uri,
backchannel_logout_uri or initiate_login_uri), starts the sample with those clients
(`--oidc-provider ROUTE=FILE`, sessions in memory), and plays the browsers in Python (a cookie jar per browser
for the sample's cookies; the OP's own are not kept, so the end-session request is identified by the id_token_hint
the sample sends, which is what these tests check; the OP's logout page read as a browser runs it: its iframes
loaded, cookie-less as a browser loads a cross-site frame, then its redirect followed).

- RP-initiated: browser A signs in and signs out (POST /auth/logout); the sample's 303 must carry the session's own
  ID token as id_token_hint, the registered post_logout_redirect_uri and a fresh state; the OP's logout page sends A
  back there, and the sample takes the return (303, A signed out) or refuses it (400 and its code).
- Front- and back-channel: browsers A and C sign in (two sessions with the OP; the OP ends both when A signs out,
  and names C's session — its sid — to the RP); A signs out. Front-channel: the OP's page's iframe is loaded; the
  sample must end C's session (200) or refuse the request (400 and its code) and leave C signed in. Back-channel: the
  OP posts the logout token to the sample through a recording relay here (the relay forwards the request unchanged
  and keeps the sample's answer, so the line can show its code); C's session must end (200) or stay (400 and code).
- 3rd-party: a browser opens the OP's /rp/<rp-id>/rp-3rd_party-init-login/<client-id>, which redirects to the
  registered initiate_login_uri (the suite's OP adds no parameters, so the registration carries iss and
  target_link_uri in the URI's query, as a third party sends them); the sample must start an authentication request
  at that OP, and the browser ends signed in at the target.
- auth-cli: rp-init-logout with `auth-cli logout --show-tokens --json` after a login with a registered
  post_logout_redirect_uri: the OP's logout page must send the browser to that URI with the state auth-cli printed.

Usage: python logout_profiles.py OP_BASE_URL AUTH_CLI FLOWS_DIR WORK_DIR SERVER=BINARY ... [--verbose] [--only ID ...]
Prints one line per test id (profile, id, expected, observed, PASS/FAIL) and a summary; exits 1 on any mismatch.
"""
import base64
import html
import http.server
import json
import os
import pathlib
import re
import subprocess
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "lib"))
import driver  # noqa: E402  (the suite's driver: browse, last_json, free_port)
from scripted_browser import Browser  # noqa: E402

# Expectations. "accept": the return or request is taken (the session it names ends); "refuse": the sample answers
# 400 with one of these codes and nothing else ends; "ignore": 200 with nothing ended (a sid no session has).
ACCEPT = ("accept", ())
IGNORE = ("ignore", ())


def refuse(*codes):
    return ("refuse", codes)


# (test id, profile, expectation, what the test registers, why). Each expectation restates the flow's
# expected_result (flows/<id>.json, printed with --verbose) as the sample's observable answer.
TESTS = [
    # "That the Single Sign On session on the OP disappears.": the OP takes the end-session request (our
    # id_token_hint, registered post_logout_redirect_uri, state) and returns our state; the sample takes the return.
    ("rp-init-logout", "RP-Init", ACCEPT, {}),
    # "The OP returns wrong 'state' variable." / "… does not return the 'state' variable.": the return is refused.
    ("rp-init-logout-other-state", "RP-Init", refuse("sign_out_state_mismatch"), {}),
    ("rp-init-logout-no-state", "RP-Init", refuse("sign_out_state_mismatch"), {}),
    # "That the Single Sign On session on the OP disappears." (front-channel): the iframe ends the RP session the OP
    # names; with a foreign iss it is refused, with a sid no session has nothing ends.
    ("rp-frontchannel-rpinitlogout", "Front", ACCEPT, {"front": True}),
    ("rp-frontchannel-rpinitlogout-wrong-issuer", "Front", refuse("front_channel_issuer_mismatch"), {"front": True}),
    ("rp-frontchannel-rpinitlogout-wrong-sid", "Front", IGNORE, {"front": True}),
    # Back-channel: -all is the logout token as specified (the session ends); every -lt-* test sends a logout token
    # Back-Channel Logout 1.0 §2.6 makes the RP refuse (upstream's flows since 0448e1b say "Error"): the sample answers
    # 400 with the engine's code — invalid_logout_token naming the rule ("names"), or unsupported_algorithm from the
    # signature check — and the session the token names stays.
    ("rp-backchannel-rpinitlogout-all", "Back", ACCEPT, {"back": True}),
    ("rp-backchannel-rpinitlogout-lt-alg-none", "Back", refuse("unsupported_algorithm"), {"back": True, "names": "'none'"}),
    ("rp-backchannel-rpinitlogout-lt-no-event", "Back", refuse("invalid_logout_token"), {"back": True, "names": "no back-channel logout event"}),
    ("rp-backchannel-rpinitlogout-lt-wrong-event", "Back", refuse("invalid_logout_token"), {"back": True, "names": "no back-channel logout event"}),
    ("rp-backchannel-rpinitlogout-lt-with-nonce", "Back", refuse("invalid_logout_token"), {"back": True, "names": "'nonce'"}),
    # Signed ES256 while the client registered RS256 (the OP's default; the sample's configuration names it in
    # id_token_signed_response_alg, which pins ID and logout tokens alike).
    ("rp-backchannel-rpinitlogout-lt-wrong-alg", "Back", refuse("unsupported_algorithm"), {"back": True, "names": "'ES256'"}),
    ("rp-backchannel-rpinitlogout-lt-wrong-aud", "Back", refuse("invalid_logout_token"), {"back": True, "names": "not addressed to this client"}),
    ("rp-backchannel-rpinitlogout-lt-wrong-issuer", "Back", refuse("invalid_logout_token"), {"back": True, "names": "not from the provider's issuer"}),
    # "A successful Authentication Request to the OP triggered by accessing the … URL."
    ("rp-3rd_party-init-login", "3rd-Party", ACCEPT, {"initiate": True}),
]

# Tests of these profiles auth-cli does not take part in, with the reason (the CLI runs rp-init-logout).
CLI_NOT_APPLICABLE = {
    "rp-init-logout-other-state, rp-init-logout-no-state": "auth-cli logout prints the end-session URL and its state "
    "and ends; the browser lands on the registered page, and no listener of auth-cli takes the return to check a state",
    "rp-frontchannel-*, rp-backchannel-*": "need a logout URI the OP can reach while the user is away: a web app's, "
    "not a command's",
    "rp-3rd_party-init-login": "needs an initiate_login_uri (https, reachable by the third party): a web app's",
}

RP_ID = "swift-auth-providers"
CONTACT = "rp-suite@example.com"
REPLACE = re.compile(r'window\.location\.replace\("([^"]*)"\)')
IFRAME = re.compile(r'<iframe src="([^"]*)"')


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def http_post_json(url, body):
    return driver.fetch(url, json.dumps(body).encode(), {"Content-Type": "application/json"})


def code_of(body):
    """The `(code)` a refusal of the web module ends its message with, or the OAuth error of a JSON answer."""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    try:
        answer = json.loads(text)
        found = re.findall(r"\(([a-z_]+)\)\s*$", answer.get("error_description", ""))
        return found[-1] if found else answer.get("error")
    except ValueError:
        found = re.findall(r"\(([a-z_]+)\)</p>", text)
        return found[-1] if found else None


def claims(jwt):
    part = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


class Relay:
    """Forwards POSTs to the sample unchanged (the OP's back-channel logout requests) and keeps each answer by path."""

    def __init__(self, target):
        answers = self.answers = {}

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                status, _, answer = driver.fetch(target + self.path, body, {"Content-Type": self.headers.get("Content-Type", "")})
                answers.setdefault(self.path, []).append((status, answer))
                data = answer.encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


class Sample:
    """One web sample with a client registered at every test's issuer, a route per test."""

    def __init__(self, name, binary, base, work, tests):
        self.name, self.base_op = name, base
        self.rp = f"{RP_ID}-{name}"  # each sample its own OP instances (the suite's OP keeps one per RP id and test)
        self.port = driver.free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.relay = Relay(self.url)
        self.work = os.path.join(work, name)
        os.makedirs(self.work, exist_ok=True)
        self.clients = {}
        arguments = [binary, "--port", str(self.port), "--instance", name]
        for test_id, _, _, needs in tests:
            route = self.route(test_id)
            issuer = f"{base}/{self.rp}/{test_id}"
            uris = self.uris(route)
            metadata = {
                "redirect_uris": [uris["callback"]], "response_types": ["code"], "grant_types": ["authorization_code"],
                "application_type": "web", "token_endpoint_auth_method": "client_secret_basic", "contacts": [CONTACT],
                "post_logout_redirect_uris": [uris["signed_out"]],
            }
            if needs.get("front"):
                metadata.update(frontchannel_logout_uri=uris["front"], frontchannel_logout_session_required=True)
            if needs.get("back"):
                metadata.update(backchannel_logout_uri=self.relay.base + uris["back_path"], backchannel_logout_session_required=True)
            if needs.get("initiate"):
                target = f"{self.url}/auth/session"
                metadata["initiate_login_uri"] = uris["initiate"] + "?" + urllib.parse.urlencode({"iss": issuer, "target_link_uri": target})
            status, _, body = http_post_json(issuer + "/registration", metadata)
            if status not in (200, 201):
                raise RuntimeError(f"registration at {issuer} answered {status}: {body[:300]}")
            answer = json.loads(body)
            self.clients[route] = answer["client_id"]
            # The client's ID token algorithm as registered (RS256 when the answer leaves it out: OpenID Connect
            # Dynamic Client Registration §2's default).
            configuration = {
                "issuer": issuer, "client_id": answer["client_id"], "client_secret": answer["client_secret"],
                "redirect_uri": uris["callback"], "post_logout_redirect_uri": uris["signed_out"], "scope": "openid email profile",
                "id_token_signed_response_alg": answer.get("id_token_signed_response_alg", "RS256"),
            }
            path = os.path.join(self.work, f"{route}.json")
            with open(path, "w") as handle:
                json.dump(configuration, handle)
            os.chmod(path, 0o600)
            arguments += ["--oidc-provider", f"{route}={path}"]
        self.log = open(os.path.join(self.work, "sample.log"), "w")
        self.process = subprocess.Popen(arguments, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                if driver.fetch(self.url + "/auth/session")[0] == 200:
                    break
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not start (see {self.work}/sample.log)")
            time.sleep(0.3)

    @staticmethod
    def route(test_id):
        """The sample's route name for a test: the test id."""
        return test_id

    def uris(self, route):
        prefix = f"{self.url}/auth/{route}"
        return {
            "callback": prefix + "/callback", "signed_out": prefix + "/signed-out", "front": prefix + "/frontchannel-logout",
            "back_path": f"/auth/{route}/backchannel-logout", "initiate": prefix + "/initiate-login",
        }

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.relay.server.shutdown()
        self.log.close()

    # The browser's steps.

    def sign_in(self, test_id, browser=None):
        browser = browser or Browser(self.url)
        route = self.route(test_id)
        status, head, _ = browser.request(f"{self.url}/auth/{route}/login")
        expect(status == 302, f"/auth/{route}/login answered {status}")
        return self.complete_sign_in(browser, head["Location"], test_id)

    def complete_sign_in(self, browser, authorization, test_id):
        route = self.route(test_id)
        expect(authorization.startswith(f"{self.base_op}/{self.rp}/{test_id}/authorization"), f"not the OP's authorization endpoint: {authorization[:120]}")
        status, head, body = browser.request(authorization)
        expect(status in (302, 303), f"the OP's authorization answered {status}: {body[:200]!r}")
        callback = head["Location"]
        expect(callback.startswith(f"{self.url}/auth/{route}/callback"), f"the OP sent the browser to {callback[:120]}")
        status, head, body = browser.request(callback)
        expect(status == 303, f"the sample's callback answered {status}: {body[:300]!r}")
        expect(self.session(browser).get("signed_in"), "not signed in after the callback")
        return browser, head["Location"]

    def session(self, browser):
        status, _, body = browser.request(f"{self.url}/auth/session")
        expect(status == 200, f"/auth/session answered {status}")
        return json.loads(body)

    def sign_out(self, test_id, browser, details):
        """Signs `browser` out; returns the OP's logout page (its iframes and where it sends the browser)."""
        route = self.route(test_id)
        signed_in = self.session(browser)
        status, head, _ = browser.request(f"{self.url}/auth/logout", data={"csrf_token": signed_in["csrf_token"]})
        expect(status == 303, f"sign-out answered {status}")
        end_session = head["Location"]
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(end_session).query)
        expect(end_session.startswith(f"{self.base_op}/{self.rp}/{test_id}/end_session"), f"not the OP's end-session endpoint: {end_session[:120]}")
        hint = query.get("id_token_hint", [""])[0]
        expect(hint and claims(hint).get("sub") == signed_in["subject"] and claims(hint).get("aud") in (self.clients[route], [self.clients[route]]),
               "no id_token_hint of this session")
        expect(query.get("post_logout_redirect_uri") == [self.uris(route)["signed_out"]], f"post_logout_redirect_uri {query.get('post_logout_redirect_uri')}")
        state = query.get("state", [""])[0]
        expect(len(state) >= 32, f"no fresh state: {state!r}")
        details.append(f"sign-out: 303 to the OP's end_session with id_token_hint (sub {claims(hint)['sub']}), post_logout_redirect_uri, state")
        expect(not self.session(browser).get("signed_in"), "still signed in after sign-out")
        status, head, body = browser.request(end_session)
        expect(status in (302, 303), f"the OP's end_session answered {status}: {body[:300]!r}")
        status, _, page = browser.request(urllib.parse.urljoin(end_session, head["Location"]))
        expect(status == 200, f"the OP's logout page answered {status}: {page[:300]!r}")
        page = page.decode("utf-8", "replace")
        found = REPLACE.search(page)
        expect(found, "the OP's logout page has no redirect")
        return state, [html.unescape(src) for src in IFRAME.findall(page)], html.unescape(found.group(1))

    def run(self, test_id, needs):
        """('accept'|'ignore'|'refuse', code) and details."""
        route, details = self.route(test_id), []
        if needs.get("initiate"):
            browser = Browser(self.url)
            status, head, body = browser.request(f"{self.base_op}/rp/{self.rp}/{test_id}/{self.clients[route]}")
            expect(status in (302, 303), f"the OP's 3rd-party login answered {status}: {body[:200]!r}")
            initiate = head["Location"]
            expect(initiate.startswith(self.uris(route)["initiate"]), f"the OP sent the browser to {initiate[:120]}")
            status, head, body = browser.request(initiate)
            if status != 302:
                return ("refuse", code_of(body)), details + [f"initiate-login answered {status}"]
            details.append("initiate-login: 302 to the OP's authorization endpoint")
            _, landed = self.complete_sign_in(browser, head["Location"], test_id)
            expect(landed == "/auth/session", f"signed in, then sent to {landed}, not the target_link_uri's path")
            details.append(f"signed in ({self.session(browser)['subject']}), sent to the target {landed}")
            return ("accept", None), details
        a, _ = self.sign_in(test_id)
        c = self.sign_in(test_id)[0] if needs.get("front") or needs.get("back") else None
        state, iframes, redirect = self.sign_out(test_id, a, details)
        observed = None
        if needs.get("front"):
            expect(len(iframes) == 1, f"the OP's logout page has {len(iframes)} iframes")
            status, _, body = Browser().request(iframes[0])  # a cross-site frame: no cookie
            details.append(f"front-channel iframe {iframes[0].split('?')[0]}?{urllib.parse.urlsplit(iframes[0]).query}: {status}")
            ended = not self.session(c).get("signed_in")
            details.append(f"browser C {'signed out' if ended else 'still signed in'}")
            if status == 200:
                observed = ("accept", None) if ended else ("ignore", None)
            else:
                observed = ("refuse", code_of(body)) if not ended else ("error", "refused, yet ended")
        if needs.get("back"):
            answers = self.relay.answers.get(self.uris(route)["back_path"], [])
            expect(len(answers) == 1, f"the OP made {len(answers)} back-channel requests")
            status, body = answers[0]
            ended = not self.session(c).get("signed_in")
            details.append(f"back-channel logout: the sample answered {status} {body[:160]}; browser C {'signed out' if ended else 'still signed in'}")
            if status == 200:
                observed = ("accept", None) if ended else ("error", "200, nothing ended")
            elif ended:
                observed = ("error", "refused, yet ended")
            elif needs.get("names") and needs["names"] not in body:
                observed = ("error", f"{code_of(body)}, not naming {needs['names']}")
            else:
                observed = ("refuse", code_of(body))
        # The OP's page sends A back to the post-logout URI (the state in its query, or none, or another).
        returned = urllib.parse.parse_qs(urllib.parse.urlsplit(redirect).query).get("state")
        details.append(f"the OP returns the browser to {redirect.split('?')[0]} with state {'ours' if returned == [state] else returned}")
        expect(redirect.startswith(self.uris(route)["signed_out"]), f"the OP sent the browser to {redirect[:120]}")
        status, head, body = a.request(redirect)
        details.append(f"the sample's post-logout return: {status}")
        if status == 303:
            expect(not self.session(a).get("signed_in"), "signed in after the return")
            return_observed = ("accept", None)
        else:
            return_observed = ("refuse", code_of(body))
        if observed is None:
            return return_observed, details
        expect(return_observed == ("accept", None), f"the post-logout return was {return_observed}")
        return observed, details


def cli_init_logout(cli, base, work):
    """auth-cli login then logout: the OP's logout page sends the browser to the registered URI with our state."""
    test_id = "rp-init-logout"
    issuer = f"{base}/{RP_ID}-cli/{test_id}"
    port = driver.free_port()
    redirect_uri, signed_out = f"http://127.0.0.1:{port}/callback", f"http://127.0.0.1:{port}/signed-out"
    status, _, body = http_post_json(issuer + "/registration", {
        "redirect_uris": [redirect_uri], "response_types": ["code"], "grant_types": ["authorization_code"],
        "application_type": "native", "token_endpoint_auth_method": "client_secret_basic", "contacts": [CONTACT],
        "post_logout_redirect_uris": [signed_out],
    })
    expect(status in (200, 201), f"registration answered {status}: {body[:200]}")
    answer = json.loads(body)
    config, store = os.path.join(work, "cli-logout.json"), os.path.join(work, "cli-logout-session.json")
    with open(config, "w") as handle:
        json.dump({"issuer": issuer, "client_id": answer["client_id"], "client_secret": answer["client_secret"],
                   "redirect_uri": redirect_uri, "post_logout_redirect_uri": signed_out}, handle)
    os.chmod(config, 0o600)
    process = subprocess.Popen([cli, "login", "--provider", "oidc", "--config", config, "--browser", "print", "--json", "--store", store,
                                "--timeout", "20", "--scope", "openid email profile"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = process.stdout.readline()
    browsed = driver.browse(first.strip(), redirect_uri) if first.startswith("http") else "not started"
    rest, errors = process.communicate(timeout=40)
    result = driver.last_json(first + rest)
    details = [f"login exit {process.returncode}, browser: {browsed}"]
    if not result or "error" in result:
        return ("error", "login failed"), details + [errors[-300:]]
    run = subprocess.run([cli, "logout", "--store", store, "--json", "--show-tokens"], capture_output=True, text=True, timeout=30)
    out = driver.last_json(run.stdout) or {}
    end_session, state = out.get("end_session_url", ""), out.get("state")
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(end_session).query)
    details.append(f"logout exit {run.returncode}: end_session_url with {sorted(query)}")
    expect(query.get("post_logout_redirect_uri") == [signed_out] and query.get("state") == [state] and query.get("id_token_hint"),
           f"the end-session URL lacks the hint, the URI or the state: {sorted(query)}")
    browser = Browser()
    status, head, body = browser.request(end_session)
    expect(status in (302, 303), f"the OP's end_session answered {status}: {body[:200]!r}")
    status, _, page = browser.request(urllib.parse.urljoin(end_session, head["Location"]))
    found = REPLACE.search(page.decode("utf-8", "replace"))
    expect(status == 200 and found, f"the OP's logout page answered {status}")
    landed = html.unescape(found.group(1))
    details.append(f"the OP sends the browser to {landed.split('?')[0]} with state {'ours' if landed == signed_out + '?' + urllib.parse.urlencode({'state': state}) else landed}")
    if landed == signed_out + "?" + urllib.parse.urlencode({"state": state}):
        return ("accept", None), details
    return ("error", "another return"), details


def describe(expected):
    kind, codes = expected
    return kind if not codes else f"{kind} ({'|'.join(codes)})"


def main():
    base, cli, flows_dir, work = sys.argv[1:5]
    rest = sys.argv[5:]
    verbose = "--verbose" in rest
    only = rest[rest.index("--only") + 1:] if "--only" in rest else None
    samples = [argument.split("=", 1) for argument in rest if "=" in argument and not argument.startswith("--")]
    flows = {name[:-5]: json.load(open(os.path.join(flows_dir, name))) for name in os.listdir(flows_dir) if name.endswith(".json")}
    tests = [test for test in TESTS if not only or test[0] in only]
    started, failures, ran = time.monotonic(), 0, 0

    def report(profile, test_id, expected, observed, details):
        nonlocal failures, ran
        ran += 1
        kind, codes = expected
        passed = observed[0] == kind and (not codes or observed[1] in codes)
        failures += 0 if passed else 1
        shown = observed[0] if observed[1] is None else f"{observed[0]} ({observed[1]})"
        print(f"{profile:<10} {test_id:<52} {describe(expected):<58} {shown:<36} {'PASS' if passed else 'FAIL'}", flush=True)
        if verbose or not passed:
            print(f"    flow expected_result: {flows.get(test_id.split(' ')[0], {}).get('expected_result', '?')}")
            for line in details:
                print(f"    {line}")

    os.makedirs(work, exist_ok=True)
    for name, binary in samples if tests else []:
        try:
            sample = Sample(name, binary, base, work, tests)
        except Exception as error:
            for test_id, profile, expected, _ in tests:
                report(f"{profile}", f"{test_id} ({name})", expected, ("error", "no sample"), [str(error)])
            continue
        try:
            for test_id, profile, expected, needs in tests:
                try:
                    observed, details = sample.run(test_id, needs)
                except Exception as error:  # the run goes on; this test fails
                    observed, details = ("error", type(error).__name__), [str(error)]
                report(profile, f"{test_id} ({name})", expected, observed, details)
        finally:
            sample.stop()
    if not only or "rp-init-logout" in only:
        try:
            observed, details = cli_init_logout(cli, base, work)
        except Exception as error:
            observed, details = ("error", type(error).__name__), [str(error)]
        report("RP-Init", "rp-init-logout (auth-cli logout)", ACCEPT, observed, details)
    for test_id, reason in CLI_NOT_APPLICABLE.items():
        print(f"{'':<10} {test_id + ' (auth-cli)':<52} not applicable: {reason}")
    print(f"oidc-rp-suite: logout and 3rd-party login profiles: {ran - failures}/{ran} tests as expected in {time.monotonic() - started:.0f}s")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
