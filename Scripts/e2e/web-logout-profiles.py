#!/usr/bin/env python3
"""The logout profiles over HTTP against a running web sample (Examples/WebSignIn or Examples/VaporWebSignIn) and the
GOV.UK One Login emulator it signs in with (auth-emulator emulate all).

Usage: web-logout-profiles.py BASE_URL GOVUK_USERNAME GOVUK_CONFIG (the emulator's govuk-service.json)

  1. RP-initiated logout (GOV.UK One Login, "Log your users out of GOV.UK One Login"): a browser signs in with
     GOV.UK One Login and signs out; the sample's 303 goes to the emulator's /logout with the session's own
     id_token_hint, post_logout_redirect_uri = BASE_URL/auth/govuk/signed-out and a fresh state; the emulator's 302
     lands on exactly that URI with that state; the sample's return answers 303 to its signed-out page and clears
     the sign-out cookie; the same return again is 400 sign_out_state_mismatch.
  2. Hostile: a return with a foreign state (another browser's, made up) is 400 sign_out_state_mismatch and sets no
     cookie; a front-channel logout with a foreign iss is 400 front_channel_issuer_mismatch and the signed-in browser
     stays signed in; a third-party-initiated login whose target_link_uri points off-site is 400 target_link_off_site
     and starts nothing (no cookie, no redirect).

Prints one line per step; exits non-zero on the first failure.
"""
import base64
import json
import pathlib
import sys
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from scripted_browser import Browser, sign_in_on_emulator  # noqa: E402


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def code(body):
    """The `(code)` a refusal page of the web module ends its message with."""
    text = body.decode()
    end = text.find(")</p>")
    return text[text.rfind("(", 0, end) + 1:end] if end > 0 else None


def sign_in(base, provider, username):
    browser = Browser(base)
    status, head, _ = browser.request(f"/auth/{provider}/login")
    expect(status == 302, f"{provider} login answered {status}")
    status, head = sign_in_on_emulator(browser, head["Location"], username)
    expect(status == 302, f"the emulator's login form answered {status}")
    status, head, _ = browser.request(head["Location"])
    expect(status == 303, f"the sample's callback answered {status}")
    return browser


def session(browser):
    status, _, body = browser.request("/auth/session")
    expect(status == 200, f"/auth/session answered {status}")
    return json.loads(body)


def main():
    base, username, config = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    issuer = json.load(open(config))["issuer"]
    browser = sign_in(base, "govuk", username)
    csrf = session(browser)["csrf_token"]
    status, head, _ = browser.request("/auth/logout", data={"csrf_token": csrf})
    expect(status == 303, f"sign-out answered {status}")
    end_session = head["Location"]
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(end_session).query)
    hint, state = query.get("id_token_hint", [""])[0], query.get("state", [""])[0]
    expected_return = base + "/auth/govuk/signed-out"
    expect(query.get("post_logout_redirect_uri") == [expected_return], f"post_logout_redirect_uri: {query.get('post_logout_redirect_uri')}")
    expect(len(state) >= 32, f"no fresh state: {state!r}")
    claims = json.loads(base64.urlsafe_b64decode(hint.split(".")[1] + "=" * (-len(hint.split(".")[1]) % 4)))
    expect(claims["sub"].startswith("urn:fdc:gov.uk:2022:"), f"the hint is not the GOV.UK ID token: {claims.get('sub')}")
    expect("__Host-auth_signout" in browser.cookies, "no sign-out cookie")
    status, head, _ = browser.request(end_session)  # the emulator's /logout: the browser follows the 302
    expect(status == 302, f"the emulator's /logout answered {status}")
    landed = head["Location"]
    expect(landed == f"{expected_return}?state={urllib.parse.quote(state, safe='')}",
           f"the emulator sent the browser to {landed}, not the registered URI with our state")
    print(f"web-logout-profiles: sign-out sends id_token_hint (sub {claims['sub'][:28]}…), post_logout_redirect_uri and state; "
          f"GOV.UK One Login's emulator lands on {expected_return}?state=<ours>")

    # Hostile: a foreign state, with this browser's sign-out cookie: refused, cookie kept.
    foreign = "A" * len(state)
    status, head, body = browser.request(f"/auth/govuk/signed-out?state={foreign}")
    expect(status == 400 and code(body) == "sign_out_state_mismatch", f"a foreign state answered {status} {code(body)}")
    expect(not head.get_all("Set-Cookie"), "a foreign state changed a cookie")
    expect("__Host-auth_signout" in browser.cookies, "the sign-out cookie went with a foreign state")
    print("web-logout-profiles: a post-logout return with a foreign state: 400 sign_out_state_mismatch, no cookie changed")

    status, head, _ = browser.request(landed)
    expect(status == 303, f"the sample's post-logout return answered {status}")
    expect("__Host-auth_signout" not in browser.cookies, "the sign-out cookie was not cleared")
    status, _, body = browser.request(landed)
    expect(status == 400 and code(body) == "sign_out_state_mismatch", f"a replayed return answered {status} {code(body)}")
    print("web-logout-profiles: our state's return completes (303, sign-out cookie cleared); replayed: 400 sign_out_state_mismatch")

    # Hostile: a front-channel logout with a foreign iss ends nothing.
    signed_in = sign_in(base, "govuk", username)
    expect(session(signed_in)["signed_in"] is True, "not signed in")
    frame = Browser(base)
    status, _, body = frame.request("/auth/govuk/frontchannel-logout?iss=https%3A%2F%2Fevil.example%2F&sid=anything",
                                    headers={"Sec-Fetch-Dest": "iframe"})
    expect(status == 400 and code(body) == "front_channel_issuer_mismatch", f"a foreign iss answered {status} {code(body)}")
    expect(session(signed_in)["signed_in"] is True, "a front-channel logout with a foreign iss ended a session")
    print("web-logout-profiles: a front-channel logout with a foreign iss: 400 front_channel_issuer_mismatch, the session stays")

    # Hostile: a third-party-initiated login to an off-site target starts nothing.
    target = urllib.parse.quote("https://evil.example/phish", safe="")
    stranger = Browser(base)
    status, head, body = stranger.request(
        f"/auth/govuk/initiate-login?iss={urllib.parse.quote(issuer, safe='')}&target_link_uri={target}", headers={"Sec-Fetch-Dest": "document"})
    expect(status == 400 and code(body) == "target_link_off_site", f"an off-site target_link_uri answered {status} {code(body)}")
    expect(not head.get_all("Set-Cookie") and not head.get("Location"), "an off-site target_link_uri started something")
    own = urllib.parse.quote(base + "/", safe="")
    status, head, _ = stranger.request(
        f"/auth/govuk/initiate-login?iss={urllib.parse.quote(issuer, safe='')}&target_link_uri={own}&login_hint=x%40example.com",
        headers={"Sec-Fetch-Dest": "document"})
    expect(status == 302 and "login_hint=x%40example.com" in head["Location"], f"an on-site initiate-login answered {status}")
    print("web-logout-profiles: a third-party login to an off-site target_link_uri: 400 target_link_off_site, nothing started; "
          "on-site, a sign-in with the login_hint starts")
    status, _, _ = signed_in.request("/auth/logout", data={"csrf_token": session(signed_in)["csrf_token"]})
    expect(status == 303, f"the last sign-out answered {status}")


if __name__ == "__main__":
    main()
