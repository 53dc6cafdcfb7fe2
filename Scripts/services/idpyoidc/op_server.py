"""The identity-python reference OP (idpyoidc, PyPI) on 127.0.0.1, for auth-cli's checks against a server nobody here wrote.

A small WSGI front (the standard library's wsgiref; idpyoidc ships no server) over idpyoidc's own endpoints, set up for
what the checks need: discovery, JWKS, authorization (PKCE S256 required; the user is signed in without a login form:
idpyoidc's NoAuthn), pushed authorization requests (RFC 9126), the token endpoint with the token-exchange grant
(RFC 8693), userinfo and revocation. One confidential client is registered
from the command line. Every request is logged as a JSON line to the log file so the checks can count them.

Usage: python op_server.py PORT STATE_DIR CLIENT_ID CLIENT_SECRET REDIRECT_URI
"""
import json
import os
import sys
import time
import traceback
import urllib.parse
from wsgiref.simple_server import WSGIRequestHandler, make_server

from idpyoidc.message.oidc import AccessTokenRequest
from idpyoidc.server import Server
from idpyoidc.server.configure import OPConfiguration
from idpyoidc.server.oauth2.add_on.pkce import CC_METHOD
from idpyoidc.server.oidc.token import Token

USERS = {
    "alice": {
        "sub": "alice", "name": "Alice Example", "given_name": "Alice", "family_name": "Example",
        "email": "alice@example.org", "email_verified": True,
    }
}


def configuration(issuer, state):
    keys = lambda name, defs: {"private_path": f"{state}/{name}.json", "key_defs": defs, "read_only": False}
    return {
        "issuer": issuer,
        "httpc_params": {"verify": False},
        "keys": {**keys("jwks", [{"type": "RSA", "use": ["sig"]}, {"type": "EC", "crv": "P-256", "use": ["sig"]}]),
                 "uri_path": "jwks"},
        "token_handler_args": {
            "jwks_def": keys("token_jwks", [{"type": "OCT", "bytes": 24, "use": ["enc"], "kid": "code"}]),
            "code": {"kwargs": {"lifetime": 600}},
            "token": {"class": "idpyoidc.server.token.jwt_token.JWTToken", "kwargs": {"lifetime": 3600}},
            "refresh": {"kwargs": {"lifetime": 86400}},
            "id_token": {"class": "idpyoidc.server.token.id_token.IDToken", "kwargs": {}},
        },
        "cookie_handler": {
            "class": "idpyoidc.server.cookie_handler.CookieHandler",
            "kwargs": {"keys": keys("cookie_jwks", [{"type": "OCT", "use": ["enc"], "kid": "enc"},
                                                    {"type": "OCT", "use": ["sig"], "kid": "sig"}])},
        },
        "authentication": {
            "anon": {"acr": "urn:oasis:names:tc:SAML:2.0:ac:classes:InternetProtocolPassword",
                     "class": "idpyoidc.server.user_authn.user.NoAuthn", "kwargs": {"user": "alice"}},
        },
        "userinfo": {"class": "idpyoidc.server.user_info.UserInfo", "kwargs": {"db": USERS}},
        "authz": {
            "class": "idpyoidc.server.authz.AuthzHandling",
            "kwargs": {"grant_config": {
                "usage_rules": {
                    "authorization_code": {"supports_minting": ["access_token", "refresh_token", "id_token"],
                                           "max_usage": 1},
                    "access_token": {"supports_minting": ["access_token"]},
                    "refresh_token": {"supports_minting": ["access_token", "refresh_token", "id_token"]},
                },
                "expires_in": 43200,
            }},
        },
        "add_on": {
            # PKCE required, S256 only (RFC 9700 §2.1.1). DPoP is left out: idpyoidc 5.0.0 checks `ath` as a hex
            # digest (server/oauth2/add_on/dpop.py), where RFC 9449 §4.2 says base64url, and drops
            # dpop_signing_alg_values_supported from its metadata; DPoP is checked against the emulators.
            "pkce": {"function": "idpyoidc.server.oauth2.add_on.pkce.add_support",
                     "kwargs": {"essential": True, "code_challenge_methods": {"S256": CC_METHOD["S256"]}}},
        },
        "endpoint": {
            "provider_info": {"path": ".well-known/openid-configuration",
                              "class": "idpyoidc.server.oidc.provider_config.ProviderConfiguration",
                              "kwargs": {"client_authn_method": None}},
            "authorization": {"path": "authorization", "class": "idpyoidc.server.oidc.authorization.Authorization",
                              "kwargs": {"client_authn_method": ["pushed_authz", "none"],
                                         "response_types_supported": ["code"],
                                         "response_modes_supported": ["query", "form_post"],
                                         "request_uri_parameter_supported": True}},
            "pushed_authorization": {"path": "par",
                                     "class": "idpyoidc.server.oauth2.pushed_authorization.PushedAuthorization",
                                     "kwargs": {"client_authn_method": ["client_secret_post", "client_secret_basic"],
                                                "ttl": 90}},
            "token": {"path": "token", "class": "idpyoidc.server.oidc.token.Token",
                      "kwargs": {"client_authn_method": ["client_secret_post", "client_secret_basic"],
                                 "grant_types_helpers": {
                                     "authorization_code": {"class": "idpyoidc.server.oidc.token_helper.access_token.AccessTokenHelper"},
                                     "refresh_token": {"class": "idpyoidc.server.oidc.token_helper.refresh_token.RefreshTokenHelper"},
                                     "urn:ietf:params:oauth:grant-type:token-exchange": {
                                         "class": "idpyoidc.server.oidc.token_helper.token_exchange.TokenExchangeHelper",
                                         "kwargs": {
                                             "subject_token_types_supported": [
                                                 "urn:ietf:params:oauth:token-type:access_token",
                                                 "urn:ietf:params:oauth:token-type:refresh_token",
                                             ],
                                             "requested_token_types_supported": [
                                                 "urn:ietf:params:oauth:token-type:access_token",
                                                 "urn:ietf:params:oauth:token-type:refresh_token",
                                             ],
                                             "policy": {"": {
                                                 "function": "idpyoidc.server.oauth2.token_helper.validate_token_exchange_policy",
                                                 "kwargs": {"scope": ["openid", "email", "profile"]}}},
                                         },
                                     },
                                 }}},
            "userinfo": {"path": "userinfo", "class": "idpyoidc.server.oidc.userinfo.UserInfo", "kwargs": {}},
            "revocation": {"path": "revoke", "class": "idpyoidc.server.oauth2.token_revocation.TokenRevocation",
                           "kwargs": {"client_authn_method": ["client_secret_post", "client_secret_basic"]}},
        },
    }


class App:
    """WSGI: each path is one of idpyoidc's endpoints, answered as its Flask example does (example/flask_op/views.py)."""

    def __init__(self, server, log_path):
        self.server = server
        self.log = open(log_path, "a", buffering=1)
        self.routes = {"/" + endpoint.endpoint_path: endpoint for endpoint in server.endpoint.values()}

    def record(self, **row):
        self.log.write(json.dumps({"time": time.time(), **row}) + "\n")

    def __call__(self, environ, start_response):
        path, method = environ.get("PATH_INFO", ""), environ["REQUEST_METHOD"]
        if path == "/jwks":
            return self.answer(start_response, 200, self.server.context.keyjar.export_jwks_as_json(issuer_id=""),
                               "application/json")
        endpoint = self.routes.get(path)
        if endpoint is None:
            return self.answer(start_response, 404, "not found", "text/plain")
        headers = {key[5:].replace("_", "-").lower(): value for key, value in environ.items() if key.startswith("HTTP_")}
        if environ.get("CONTENT_TYPE"):
            headers["content-type"] = environ["CONTENT_TYPE"]
        url = f"{self.server.context.issuer}{path}"
        http_info = {"headers": headers, "method": method, "url": url, "cookie": []}
        if method == "GET":
            arguments = dict(urllib.parse.parse_qsl(environ.get("QUERY_STRING", "")))
        else:
            length = int(environ.get("CONTENT_LENGTH") or 0)
            arguments = environ["wsgi.input"].read(length).decode() if length else ""
        self.record(endpoint=endpoint.name, method=method,
                    grant_type=dict(urllib.parse.parse_qsl(arguments)).get("grant_type") if isinstance(arguments, str) else None,
                    dpop="dpop" in headers)
        try:
            request = endpoint.parse_request(arguments, http_info=http_info)
            if "error" in request:
                return self.error(start_response, endpoint, request)
            if isinstance(endpoint, Token):
                request = AccessTokenRequest(**request)
            # idpyoidc's token endpoint leaves refresh tokens to its host (`issue_refresh`; otherwise only for the
            # offline_access scope, which OpenID Connect Core §11 ties to prompt=consent): this deployment issues them.
            extra = {"issue_refresh": True} if isinstance(endpoint, Token) else {}
            result = endpoint.process_request(request, http_info=http_info, **extra)
        except Exception as error:  # idpyoidc raises for refused requests (a used request_uri, …)
            self.record(endpoint=endpoint.name, refused=f"{type(error).__name__}: {error}")
            traceback.print_exc()
            return self.answer(start_response, 400, json.dumps({"error": "invalid_request",
                                                                 "error_description": str(error)}), "application/json")
        if "error" in result:
            return self.error(start_response, endpoint, result)
        if "redirect_location" in result:
            return self.redirect(start_response, result["redirect_location"])
        if "http_response" in result:
            body = result["http_response"]
            return self.answer(start_response, 201 if endpoint.name == "pushed_authorization" else 200,
                               body if isinstance(body, str) else json.dumps(body), "application/json")
        info = endpoint.do_response(request=request, **result)
        if info.get("response_placement", endpoint.response_placement) == "url":
            return self.redirect(start_response, info["response"])
        return self.answer(start_response, info.get("response_code", 200), info["response"], None,
                           info.get("http_headers", []))

    def error(self, start_response, endpoint, result):
        self.record(endpoint=endpoint.name, refused=str(result.get("error")), description=str(result.get("error_description", "")))
        body = result.to_json() if hasattr(result, "to_json") else json.dumps(result)
        status = 401 if result.get("error") in ("invalid_token", "invalid_client") else 400
        return self.answer(start_response, status, body, "application/json")

    def redirect(self, start_response, location):
        start_response("302 Found", [("Location", location), ("Content-Length", "0")])
        return [b""]

    def answer(self, start_response, status, body, content_type, headers=()):
        data = body.encode() if isinstance(body, str) else body
        names = {name.lower() for name, _ in headers}
        headers = list(headers) + ([("Content-Type", content_type)] if content_type and "content-type" not in names else [])
        headers.append(("Content-Length", str(len(data))))
        reasons = {200: "OK", 201: "Created", 302: "Found", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found"}
        start_response(f"{status} {reasons.get(status, 'Status')}", headers)
        return [data]


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


def main():
    port, state, client_id, secret, redirect_uri = sys.argv[1:6]
    os.makedirs(state, exist_ok=True)
    issuer = f"http://127.0.0.1:{port}"
    server = Server(OPConfiguration(conf=configuration(issuer, state), base_path=state, domain="127.0.0.1", port=int(port)),
                    cwd=state)
    server.context.cdb[client_id] = {
        "client_id": client_id, "client_secret": secret, "client_salt": "salt",
        "redirect_uris": [(redirect_uri, {})], "response_types_supported": ["code"],
        "token_endpoint_auth_method": "client_secret_basic", "allowed_scopes": ["openid", "email", "profile", "offline_access"],
        "grant_types_supported": ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:token-exchange"],
    }
    app = App(server, os.path.join(state, "requests.jsonl"))
    httpd = make_server("127.0.0.1", int(port), app, handler_class=QuietHandler)
    print(f"ready {issuer}", flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    main()
