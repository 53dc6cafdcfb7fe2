"""PyJWT validating an RS256 ID token signed with AuthTesting's fixed test key: signature, exp, iat, aud, iss and
nonce — the checks our validator makes. Prints one line: `pyjwt_ops_per_second <n>`."""
import re
import sys
import time
from pathlib import Path

import jwt  # PyJWT
from cryptography.hazmat.primitives import serialization

root = Path(__file__).resolve().parents[2]
source = (root / "Sources/AuthTesting/IdentityProvider/TestSigningKeys.swift").read_text()
pem = re.search(r'fixedRSAPrivateKeyPEM = """\n(.*?)\n"""', source, re.S).group(1).encode()
private_key = serialization.load_pem_private_key(pem, None)
public_key = private_key.public_key()

now = int(time.time())
claims = {"iss": "https://idp.example.test", "sub": "user-1234", "aud": "test-client", "nonce": "n-0123456789",
          "iat": now, "exp": now + 3600, "email": "alice@example.com"}
token = jwt.encode(claims, private_key, algorithm="RS256", headers={"kid": "rsa-primary", "typ": "JWT"})


def validate():
    decoded = jwt.decode(token, public_key, algorithms=["RS256"], audience="test-client",
                         issuer="https://idp.example.test", options={"require": ["exp", "iat", "sub", "iss", "aud"]})
    if decoded["nonce"] != "n-0123456789":
        raise ValueError("nonce")


for _ in range(200):
    validate()
seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
count, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    validate()
    count += 1
print(f"pyjwt_ops_per_second {count / (time.perf_counter() - start):.0f}")
