"""Creates the database, the test user and the two clients, and writes .idp/clients.json. Idempotent."""
import json
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dotidp.settings")
django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from oauth2_provider.models import get_application_model  # noqa: E402

call_command("migrate", verbosity=0)

User = get_user_model()
user, _ = User.objects.get_or_create(username="alice", defaults={"email": "alice@example.com", "first_name": "Alice"})
user.set_password("wonderland")  # test-only credentials
user.save()
# A second user: auth-cli's keyring test signs in as both (two accounts, `switch` between them).
second, _ = User.objects.get_or_create(username="bob", defaults={"email": "bob@example.com", "first_name": "Bob"})
second.set_password("looking-glass")  # test-only credentials
second.save()

Application = get_application_model()
redirects = "http://127.0.0.1/callback http://127.0.0.1:53682/callback"
clients = {
    "public": {"client_id": "swift-auth-public", "client_type": Application.CLIENT_PUBLIC, "secret": ""},
    "confidential": {
        "client_id": "swift-auth-confidential",
        "client_type": Application.CLIENT_CONFIDENTIAL,
        "secret": "test-only-confidential-secret",
    },
    # A command line without a browser: the device authorization grant (RFC 8628).
    "device": {"client_id": "swift-auth-device", "client_type": Application.CLIENT_PUBLIC, "secret": "",
               "grant": Application.GRANT_DEVICE_CODE},
}
for name, spec in clients.items():
    app, _ = Application.objects.get_or_create(client_id=spec["client_id"], defaults={"user": user})
    app.name = f"swift-auth-providers {name}"
    app.client_type = spec["client_type"]
    app.authorization_grant_type = spec.get("grant", Application.GRANT_AUTHORIZATION_CODE)
    app.redirect_uris = redirects
    app.post_logout_redirect_uris = "http://127.0.0.1:53682/logged-out"
    app.skip_authorization = True
    app.algorithm = Application.RS256_ALGORITHM
    if spec["secret"]:
        app.client_secret = spec["secret"]
    app.save()

out = {
    "issuer": settings.ISSUER,
    "username": "alice",
    "password": "wonderland",
    "second_username": "bob",
    "second_password": "looking-glass",
    "public_client_id": clients["public"]["client_id"],
    "confidential_client_id": clients["confidential"]["client_id"],
    "confidential_client_secret": clients["confidential"]["secret"],
    "device_client_id": clients["device"]["client_id"],
}
(settings.STATE_DIR / "clients.json").write_text(json.dumps(out, indent=2))
print(json.dumps(out))
