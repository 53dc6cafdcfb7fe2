"""The RFC 8705 clients of the mTLS instance (setup.py --mtls), registered through Glewlwyd's admin API.

- `cli-mtls`: `tls_client_auth`, recognised by the subject alternative name `DNS:cli-mtls.auth.test` of
  STATE/tls/client.pem, a certificate signed by the test CA (Glewlwyd's `secure_connection_ca_file`), in the
  client property `tls_client_auth_san_dns` (Debian's database client backend stores it: init.sqlite3.sql).
- `cli-self`: `self_signed_tls_client_auth`, its certificate STATE/tls/self.pem registered as the `x5c` of its `jwks`.
"""
import base64
import json
import os
import re
import subprocess

SAN_DNS = "cli-mtls.auth.test"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def certificate_jwk(pem_path):
    """The public JWK of a P-256 certificate, with the certificate as its x5c (openssl does the parsing)."""
    der = subprocess.run(["openssl", "x509", "-in", pem_path, "-outform", "DER"], check=True, capture_output=True).stdout
    text = subprocess.run(["openssl", "x509", "-in", pem_path, "-noout", "-pubkey"], check=True, capture_output=True).stdout
    dump = subprocess.run(["openssl", "ec", "-pubin", "-noout", "-text"], input=text, check=True, capture_output=True).stdout.decode()
    hexdigits = "".join(re.findall(r"[0-9a-f]{2}", dump.split("pub:")[1].split("ASN1")[0]))
    point = bytes.fromhex(hexdigits)
    assert point[0] == 4 and len(point) == 65, "not an uncompressed P-256 point"
    return {"kty": "EC", "crv": "P-256", "x": b64url(point[1:33]), "y": b64url(point[33:]), "use": "sig",
            "kid": "cli-self", "x5c": [base64.b64encode(der).decode()]}


def register(call, admin, state, values):
    tls = os.path.join(state, "tls")
    common = {"confidential": True, "redirect_uri": [values["redirect_uri"]],
              "authorization_type": ["code", "refresh_token", "client_credentials"], "scope": [], "enabled": True}
    call(admin, "POST", "/client/", dict(common, client_id="cli-mtls", name="auth-cli (tls_client_auth)",
                                         token_endpoint_auth_method=["tls_client_auth"], tls_client_auth_san_dns=SAN_DNS))
    jwks = {"keys": [certificate_jwk(os.path.join(tls, "self.pem"))]}
    call(admin, "POST", "/client/", dict(common, client_id="cli-self", name="auth-cli (self_signed_tls_client_auth)",
                                         token_endpoint_auth_method=["self_signed_tls_client_auth"], jwks=json.dumps(jwks)))
    values["mtls_clients"] = ["cli-mtls", "cli-self"]
    values["mtls_san_dns"] = SAN_DNS
