"""Settings for the local django-oauth-toolkit identity server used by the integration tests.

Everything lives under STATE_DIR (the repo's .idp/ by default). Test-only choices are marked.
"""
import os
from pathlib import Path

STATE_DIR = Path(os.environ.get("AUTH_IDP_STATE", Path(__file__).resolve().parents[3] / ".idp"))
PORT = int(os.environ.get("AUTH_IDP_PORT", "8765"))
# The port clients reach the server on: its own, or that of a proxy in front of it (Scripts/e2e/fault-proxy.py), so
# that discovery sends every request through the proxy.
ISSUER_PORT = int(os.environ.get("AUTH_IDP_ISSUER_PORT") or PORT)
ISSUER = f"http://127.0.0.1:{ISSUER_PORT}/o"
# Seconds during which a rotated refresh token may be redeemed again, answered with the tokens its first redemption
# issued (a client that lost that answer); 0 (django-oauth-toolkit's default, and this server's unless set): a reuse
# is theft, and REFRESH_TOKEN_REUSE_PROTECTION revokes the whole family.
GRACE_SECONDS = int(os.environ.get("AUTH_IDP_GRACE_SECONDS") or 0)
# Whether a refresh answers a new ID token (oauthlib's default); see dotidp/validators.py for when it is turned off.
REFRESH_ID_TOKEN = os.environ.get("AUTH_IDP_REFRESH_ID_TOKEN", "1") != "0"

SECRET_KEY = "test-only-not-secret"  # test-only
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "dotidp.urls"
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [Path(__file__).resolve().parent / "templates"],
    # django-oauth-toolkit's own pages: the device flow's code entry and accept/deny forms.
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": STATE_DIR / "db.sqlite3"}}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # test-only: fast logins
LOGIN_URL = "/accounts/login/"
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": (STATE_DIR / "oidc.key").read_text() if (STATE_DIR / "oidc.key").exists() else "",
    "OIDC_ISS_ENDPOINT": ISSUER,
    "OIDC_RP_INITIATED_LOGOUT_ENABLED": True,
    "OIDC_RP_INITIATED_LOGOUT_ALWAYS_PROMPT": False,
    "PKCE_REQUIRED": True,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": GRACE_SECONDS,
    "ACCESS_TOKEN_EXPIRE_SECONDS": 3600,
    # The device authorization grant (RFC 8628): the page where the user enters the code, with and without it.
    "OAUTH_DEVICE_VERIFICATION_URI": f"{ISSUER}/device/",
    "OAUTH_DEVICE_VERIFICATION_URI_COMPLETE": f"{ISSUER}/device/?user_code={{user_code}}",
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https"],
    "OAUTH2_VALIDATOR_CLASS": "dotidp.validators.Validator",
    "SCOPES": {
        "openid": "OpenID Connect",
        "email": "E-mail address",
        "profile": "Profile",
        "offline_access": "Refresh tokens",
    },
}

# Keep-alive requests otherwise wait ~40 ms on delayed ACKs (NOTES-LINUX.md).
from django.core.servers.basehttp import WSGIRequestHandler  # noqa: E402

WSGIRequestHandler.disable_nagle_algorithm = True
