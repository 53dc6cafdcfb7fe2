"""A scripted browser for django-oauth-toolkit, standard library only.

    python3 browser.py AUTHORIZATION_URL USERNAME PASSWORD STOP_PREFIX

Follows redirects itself with a cookie jar, submits the login form (CSRF token and cookie) when it appears,
and stops after requesting the first URL that starts with STOP_PREFIX (the app's loopback redirect).

For a device sign-in (RFC 8628) pass the verification URL with its code (`verification_uri_complete`) and the
server's device-grant-status URL prefix as STOP_PREFIX: after the login form it submits the user code and accepts
the device on the confirmation page.
"""
import http.cookiejar
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

url, username, password, stop_prefix = sys.argv[1:5]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect)


def fetch(target, data=None):
    request = urllib.request.Request(target, data=data, headers={"Referer": target})
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


data = None
for _ in range(12):
    status, headers, body = fetch(url, data)
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
            data = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1), "user_code": code.group(1)}).encode()
        elif 'name="action"' in body:
            data = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1), "action": "accept"}).encode()
        else:
            sys.exit(f"browser: an unknown form at {url}")
        continue
    if status == 200 and token:
        next_field = re.search(r'name="next" value="([^"]*)"', body)
        form = {"csrfmiddlewaretoken": token.group(1), "username": username, "password": password,
                "next": next_field.group(1).replace("&amp;", "&") if next_field else ""}
        data = urllib.parse.urlencode(form).encode()
        continue
    sys.exit(f"browser: unexpected HTTP {status} at {url}")
sys.exit("browser: too many redirects")
