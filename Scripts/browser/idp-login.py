#!/usr/bin/env python3
"""A scripted browser for django-oauth-toolkit's pages (Scripts/services/idp), standard library only.

    python3 Scripts/browser/idp-login.py AUTHORIZATION_URL USERNAME PASSWORD STOP_PREFIX

Follows redirects itself with its cookies, submits the login form (CSRF token and cookie) when it appears,
and stops after requesting the first URL that starts with STOP_PREFIX (the app's loopback redirect).

For a device sign-in (RFC 8628) pass the verification URL with its code (`verification_uri_complete`) and the
server's device-grant-status URL prefix as STOP_PREFIX: after the login form it submits the user code and accepts
the device on the confirmation page.
"""
import pathlib
import re
import sys
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from scripted_browser import Browser  # noqa: E402


def main():
    url, username, password, stop_prefix = sys.argv[1:5]
    browser = Browser()
    data = None
    for _ in range(12):
        # Django's CSRF check on plain HTTP compares the Referer with the host.
        status, headers, content = browser.request(url, data=data, headers={"Referer": url})
        body = content.decode()
        data = None
        if url.startswith(stop_prefix):
            print(f"browser: delivered the redirect, the app answered HTTP {status}", file=sys.stderr)
            sys.exit(0 if status == 200 else 1)
        if 300 <= status < 400:
            url = urllib.parse.urljoin(url, headers["Location"])
            continue
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        if status == 200 and token and 'name="username"' not in body:
            code = re.search(r'name="user_code"[^>]*value="([^"]*)"', body) or re.search(r'value="([^"]*)"[^>]*name="user_code"', body)
            if code:
                data = {"csrfmiddlewaretoken": token.group(1), "user_code": code.group(1)}
            elif 'name="action"' in body:
                data = {"csrfmiddlewaretoken": token.group(1), "action": "accept"}
            else:
                sys.exit(f"browser: an unknown form at {url}")
            continue
        if status == 200 and token:
            next_field = re.search(r'name="next" value="([^"]*)"', body)
            data = {"csrfmiddlewaretoken": token.group(1), "username": username, "password": password,
                    "next": next_field.group(1).replace("&amp;", "&") if next_field else ""}
            continue
        sys.exit(f"browser: unexpected HTTP {status} at {url}")
    sys.exit("browser: too many redirects")


if __name__ == "__main__":
    main()
