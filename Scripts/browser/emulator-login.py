#!/usr/bin/env python3
"""A scripted browser for the HTTP emulators' login page (auth-emulator emulate), standard library only.

Usage: emulator-login.py URL USERNAME PASSWORD [approve|deny]

Opens URL (an authorization request), checks that the answer is the emulator's login page, fills in the form and
presses "Sign in" (approve) or "Deny", and follows the redirect to the app's loopback callback as a browser would.
Prints the callback URL's query parameter names and exits non-zero when the page or the redirect is not as expected.
For a device sign-in's verification page (`verification_uri_complete`, RFC 8628) it connects the device instead.
"""
import pathlib
import sys
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from scripted_browser import Browser, LoginForm  # noqa: E402


def main():
    url, username, password = sys.argv[1:4]
    action = sys.argv[4] if len(sys.argv) > 4 else "approve"
    browser = Browser(timeout=20)
    status, _, body = browser.request(url, follow=10)
    page = body.decode()
    if status != 200:
        sys.exit(f"the authorization request answered HTTP {status}: {page[:300]}")
    form = LoginForm(page)
    if "user_code" in form.fields:
        connect_device(browser, url, form, username, password, action)
        return
    if form.action is None or not {"username", "password"} <= form.fields or "login_id" not in form.hidden:
        sys.exit(f"not a login page: {page[:300]}")
    if not form.title.startswith("Sign in"):
        sys.exit(f"unexpected title: {form.title!r}")
    fields = {**form.hidden, "username": username, "password": password, "action": action}
    status, head, body = browser.request(urllib.parse.urljoin(url, form.action), data=fields)
    if status == 401:
        sys.exit("the emulator refused the credentials (HTTP 401)")
    if status != 302:
        sys.exit("the login form did not redirect" if status < 300 else f"the login form answered HTTP {status}: {body[:300]!r}")
    location = head["Location"]
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)
    # Deliver the redirect to the app's loopback listener, as the browser would.
    status, _, _ = browser.request(location, follow=10)
    if status >= 500:
        sys.exit(f"the app's callback answered HTTP {status}")
    print(f"{form.title.strip()}: {action} -> {sorted(query)}")


def connect_device(browser, url, form, username, password, action):
    if not form.title.startswith("Connect a device") or not form.hidden.get("user_code"):
        sys.exit(f"not a device verification page with a code: {form.title!r}")
    fields = {"user_code": form.hidden["user_code"], "username": username, "password": password, "action": action}
    status, _, body = browser.request(urllib.parse.urljoin(url, form.action), data=fields, follow=10)
    if status >= 400:
        sys.exit(f"the verification page answered HTTP {status}")
    expected = "is connected" if action == "approve" else "was not connected"
    page = body.decode()
    if expected not in page:
        sys.exit(f"unexpected answer: {page[:300]}")
    print(f"{form.title.strip()}: {action} -> device {expected}")


if __name__ == "__main__":
    main()
