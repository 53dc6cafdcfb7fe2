#!/usr/bin/env python3
"""Account changes at the provider reach the web sign-in sample, over HTTP (the security review's N8 and N9).

Usage: web-account-changes.py BASE_URL CHECK [CHECK ...]

BASE_URL is the sample (http://127.0.0.1:8802). Environment: GITHUB_USER and GITHUB_CONFIG (the GitHub emulator's
test account and configuration file, as `auth-emulator emulate all --config-dir DIR` writes it), APPLE_USER and
APPLE_CONFIG (the same for Sign in with Apple, whose emulator was started with
`--notification-uri apple=BASE_URL/auth/apple/notifications`), OTHER_INSTANCE (optional: another instance on the same
store) and PSQL (optional: a command that runs one SQL statement, to count rows). Checks:

  github-revocation   (N9) a browser signs in with GitHub; the GitHub emulator's user API answers 200 to the token it
                      issued (asked through its /_emulator/api-check, since the sample keeps tokens encrypted); the
                      browser signs out: the emulator answers 401 to every token of that user, the grant deleted with
                      GitHub's `DELETE /applications/{client_id}/grant`. Then with the emulator failing the deletion
                      (a queued server_error): the sign-out still ends the session here.
  apple-notifications (N8) two browsers sign in with Apple; the Apple emulator sends Apple's server-to-server
                      notification to the sample: a bad signature, another audience, another issuer, an unknown event
                      type and an `events` object are each refused 400 with their code, nothing changed (both still
                      signed in; PSQL: no row changed); email-disabled is acted on (the two sessions' credentials) and
                      its replay refused here and on OTHER_INSTANCE; consent-revoked signs both browsers out and deletes
                      their rows; account-delete does the same to a new sign-in.

Prints one line per check and exits non-zero on the first failure. Every sign-in a check makes ends signed out.
"""
import importlib.util
import json
import os
import pathlib
import sys
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from scripted_browser import Browser, sign_in_on_emulator  # noqa: E402

# The helpers of the second review's script: its sample client (App), Apple's form_post sign-in, row counts.
_spec = importlib.util.spec_from_file_location("web_native_attacks", pathlib.Path(__file__).with_name("web-native-attacks.py"))
native = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(native)
App, apple_sign_in, expect, rows = native.App, native.apple_sign_in, native.expect, native.rows


def config(name):
    return json.loads(pathlib.Path(os.environ[name]).read_text())


def post_json(url, data):
    status, _, body = Browser().request(url, data=data)
    return status, (json.loads(body) if body.startswith(b"{") else {"raw": body[:200]})


def signed_in(app):
    _, _, body = app.request("/auth/session")
    return json.loads(body).get("signed_in") is True


def github_revocation(base):
    emulator = config("GITHUB_CONFIG")["web_url"].rstrip("/")
    user = os.environ["GITHUB_USER"]

    def api_check():
        status, answer = post_json(emulator + "/_emulator/api-check", {"username": user})
        expect(status == 200, f"the emulator's api-check answered {status}: {answer}")
        return answer["statuses"]

    def sign_in():
        app = App(base)
        status, head = sign_in_on_emulator(app, app.start("github"), user)
        expect(status == 302, f"the GitHub emulator's login form answered {status}")
        status, _, _ = app.request(head["Location"])
        expect(status == 303, f"the sample's GitHub callback answered {status}")
        expect(signed_in(app), "not signed in after GitHub's callback")
        return app

    app = sign_in()
    before = api_check()
    expect(200 in before, f"the emulator's API does not accept the signed-in user's token: {before}")
    app.sign_out()
    expect(not signed_in(app), "still signed in after sign-out")
    after = api_check()
    expect(after and 200 not in after, f"a token still works at the emulator's API after sign-out: {after}")
    # The grant deletion fails (the emulator's next answer is a 500): the browser is signed out all the same.
    app = sign_in()
    status, answer = post_json(emulator + "/_emulator/faults", {"next": "server_error"})
    expect(status == 200, f"queueing the fault answered {status}: {answer}")
    app.sign_out()
    expect(not signed_in(app), "a failed grant deletion kept the browser signed in")
    left = api_check().count(200)
    expect(left == 1, f"{left} tokens work after the failed deletion (the one it could not delete: 1)")
    # Clean up at the emulator, as the app's next sign-out would: sign in and out again deletes the grant.
    sign_in().sign_out()
    expect(200 not in api_check(), "the grant survived the last sign-out")
    return (f"the emulator's API answered {before} before sign-out and {after} after (grant deleted); "
            "with the deletion failing, the sign-out still ended the session")


def apple_notifications(base):
    emulator = config("APPLE_CONFIG")["issuer"].rstrip("/")
    user = os.environ["APPLE_USER"]
    other = os.environ.get("OTHER_INSTANCE", "").rstrip("/")

    def notify(event, fault=None):
        fields = {"username": user, "type": event, **({"fault": fault} if fault else {})}
        status, answer = post_json(emulator + "/_emulator/apple-notification", fields)
        expect(status == 200, f"the emulator's apple-notification answered {status}: {answer}")
        body = answer.get("body", "")
        return answer["status"], (json.loads(body) if body.startswith("{") else {}), answer["payload"]

    def counts():
        return rows("auth_sessions"), rows("auth_credentials")

    browsers = []
    for _ in range(2):
        app = App(base)
        apple_sign_in(app, base)
        browsers.append(app)
    before = counts()
    hostile = [("consent-revoked", "bad-signature", "invalid_signature"), ("consent-revoked", "wrong-aud", "invalid_account_notification"),
               ("account-delete", "wrong-iss", "invalid_account_notification"), ("consent-revoked", "events-object", "invalid_account_notification"),
               ("account-suspended", None, "invalid_account_notification")]
    for event, fault, code in hostile:
        status, answer, _ = notify(event, fault)
        description = answer.get("error_description", "")
        expect(status == 400 and description.endswith(f"({code})"), f"{event}/{fault}: {status} {answer}")
        expect(all(signed_in(app) for app in browsers), f"{event}/{fault} signed a browser out")
    expect(counts() == before, f"rows (sessions, credentials) {before} -> {counts()} after refused notifications")
    status, answer, payload = notify("email-disabled")
    expect(status == 200 and answer == {"event": "email-disabled", "sessions": 2}, f"email-disabled: {status} {answer}")
    expect(all(signed_in(app) for app in browsers), "email-disabled signed a browser out")
    for where in [base] + ([other] if other else []):
        status, _, body = Browser().send("POST", where + "/auth/apple/notifications", json.dumps({"payload": payload}).encode(),
                                         {"Content-Type": "application/json"}, 30)
        expect(status == 400 and b"invalid_account_notification" in body, f"the replay at {where} answered {status}: {body[:200]!r}")
    status, answer, _ = notify("consent-revoked")
    expect(status == 200 and answer == {"event": "consent-revoked", "sessions": 2}, f"consent-revoked: {status} {answer}")
    expect(not any(signed_in(app) for app in browsers), "a browser is still signed in after consent-revoked")
    after = counts()
    if before[0] is not None:
        expect(after == (before[0] - 2, before[1] - 2), f"rows (sessions, credentials) {before} -> {after} after consent-revoked")
    app = App(base)
    apple_sign_in(app, base)
    status, answer, _ = notify("account-delete")
    expect(status == 200 and answer == {"event": "account-delete", "sessions": 1}, f"account-delete: {status} {answer}")
    expect(not signed_in(app), "still signed in after account-delete")
    counted = "" if before[0] is None else "; rows unchanged by refusals, two sessions and credentials deleted by consent-revoked"
    replays = "here and on the other instance" if other else "here"
    return (f"{len(hostile)} hostile notifications refused with their codes, nothing changed; email-disabled acted on 2 sessions "
            f"and its replay refused {replays}; consent-revoked and account-delete signed the user out{counted}")


CHECKS = {"github-revocation": github_revocation, "apple-notifications": apple_notifications}


def main():
    base, *checks = sys.argv[1:]
    for check in checks:
        try:
            print(f"web-account-changes {check}: {CHECKS[check](base.rstrip('/'))}", flush=True)
        except AssertionError as error:
            sys.exit(f"web-account-changes {check}: FAILED: {error}")


if __name__ == "__main__":
    main()
