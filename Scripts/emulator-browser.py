#!/usr/bin/env python3
"""A scripted browser for the HTTP emulators' login page (auth-emulator emulate).

Usage: emulator-browser.py URL USERNAME PASSWORD [approve|deny]

Opens URL (an authorization request), checks that the answer is the emulator's login page, fills in the form and
presses "Sign in" (approve) or "Deny", and follows the redirect to the app's loopback callback as a browser would.
Prints the callback URL's query parameter names and exits non-zero when the page or the redirect is not as expected.
For a device sign-in's verification page (`verification_uri_complete`, RFC 8628) it connects the device instead.
"""
import sys
import urllib.error
import urllib.parse
import urllib.request

from emulator_page import LoginForm


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def main():
    url, username, password = sys.argv[1:4]
    action = sys.argv[4] if len(sys.argv) > 4 else "approve"
    with urllib.request.urlopen(url, timeout=20) as response:
        page = response.read().decode()
    form = LoginForm()
    form.feed(page)
    if "user_code" in form.fields:
        connect_device(form, username, password, action)
        return
    if form.action is None or not {"username", "password"} <= form.fields or "login_id" not in form.hidden:
        sys.exit(f"not a login page: {page[:300]}")
    if not form.title.startswith("Sign in"):
        sys.exit(f"unexpected title: {form.title!r}")
    data = urllib.parse.urlencode({**form.hidden, "username": username, "password": password, "action": action}).encode()
    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(urllib.request.Request(form.action, data=data, method="POST"), timeout=20)
        sys.exit("the login form did not redirect")
    except urllib.error.HTTPError as error:
        if error.code == 401:
            sys.exit("the emulator refused the credentials (HTTP 401)")
        if error.code != 302:
            sys.exit(f"the login form answered HTTP {error.code}: {error.read()[:300]!r}")
        location = error.headers["Location"]
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)
    # Deliver the redirect to the app's loopback listener, as the browser would.
    try:
        with urllib.request.urlopen(location, timeout=20) as callback:
            callback.read()
    except urllib.error.HTTPError as error:
        if error.code >= 500:
            sys.exit(f"the app's callback answered HTTP {error.code}")
    print(f"{form.title.strip()}: {action} -> {sorted(query)}")


def connect_device(form, username, password, action):
    if not form.title.startswith("Connect a device") or not form.hidden.get("user_code"):
        sys.exit(f"not a device verification page with a code: {form.title!r}")
    data = urllib.parse.urlencode({"user_code": form.hidden["user_code"], "username": username, "password": password, "action": action}).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(form.action, data=data, method="POST"), timeout=20) as response:
            page = response.read().decode()
    except urllib.error.HTTPError as error:
        sys.exit(f"the verification page answered HTTP {error.code}")
    expected = "is connected" if action == "approve" else "was not connected"
    if expected not in page:
        sys.exit(f"unexpected answer: {page[:300]}")
    print(f"{form.title.strip()}: {action} -> device {expected}")


if __name__ == "__main__":
    main()
