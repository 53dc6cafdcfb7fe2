#!/usr/bin/env python3
"""Changes parameters of the running instance's OpenID Connect plugin through the admin API, then reloads it.

    plugin_set.py BASE_URL STATE_DIR NAME=JSON…     e.g. oauth-par-required=true

Glewlwyd keeps a plugin's discovery document and settings from its start: after PUT /api/mod/plugin/oidc the
instance is disabled and enabled again (PUT …/disable, …/enable) so the new parameters apply.
"""
import http.cookiejar
import json
import os
import ssl
import sys
import urllib.request

base, state = sys.argv[1:3]
changes = {}
for item in sys.argv[3:]:
    name, _, value = item.partition("=")
    changes[name] = json.loads(value)

handlers = [urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())]
if base.startswith("https://"):
    handlers.append(urllib.request.HTTPSHandler(context=ssl.create_default_context(cafile=os.path.join(state, "tls", "ca.pem"))))
session = urllib.request.build_opener(*handlers)


def call(method, path, body=None):
    request = urllib.request.Request(base + "/api" + path, method=method, headers={"Content-Type": "application/json"},
                                     data=None if body is None else json.dumps(body).encode())
    with session.open(request, timeout=10) as response:
        text = response.read().decode()
    return json.loads(text) if text.startswith("{") else text


with open(os.path.join(state, "secrets.json")) as handle:
    admin_password = json.load(handle)["admin_password"]
call("POST", "/auth/", {"username": "admin", "password": admin_password})
plugin = call("GET", "/mod/plugin/oidc")
plugin["parameters"].update(changes)
call("PUT", "/mod/plugin/oidc", {key: plugin[key] for key in ("module", "name", "display_name", "parameters")})
call("PUT", "/mod/plugin/oidc/disable")
call("PUT", "/mod/plugin/oidc/enable")
