#!/usr/bin/env bash
# GOV.UK One Login for a web service, end to end over real HTTP: `auth-emulator emulate govuk-service` serves the
# simulator-faithful emulator on 127.0.0.1; `auth-cli login --provider govuk --config <file>` signs in with the
# private key from a file (private_key_jwt), a scripted browser hop (curl) follows the printed URL; `auth-cli userinfo`
# prints the core identity only after verifying it against the DID document. Exits non-zero on the first failure.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
cli="$(swift build --show-bin-path)/auth-cli"
emulator="$(swift build --show-bin-path)/auth-emulator"
make_work_dir

start_background "$work/emulator.out" "$emulator" emulate govuk-service --port 0 --config-dir "$work/govuk"
emulator_pid=$background_pid
wait_for_file "$work/govuk/govuk-service.json" --pid "$emulator_pid" --log "$work/emulator.out"
wait_for_line "$work/emulator.out" "sign in with" --pid "$emulator_pid" --log "$work/emulator.out"
test "$(stat -c %a "$work/govuk/govuk-service-key.pem")" = "600" || { echo "govuk-service: the key file is not mode 0600"; exit 1; }
grep -q '"private_key_file"' "$work/govuk/govuk-service.json" || { echo "govuk-service: the configuration does not read the key from a file"; exit 1; }

start_background --stdout "$work/login.out" "$work/login.err" "$cli" login --provider govuk \
  --config "$work/govuk/govuk-service.json" --browser print --json --store "$work/session.json" --timeout 60
login_pid=$background_pid
wait_for_first_line "$work/login.out" --timeout 10 --pid "$login_pid" --log "$work/login.err"
url="$(head -n 1 "$work/login.out")"
case "$url" in http://127.0.0.1:*/authorize\?*) ;; *) echo "govuk-service: auth-cli printed no authorization URL"; cat "$work/login.err"; exit 1 ;; esac
case "$url" in *vtr=*claims=*|*claims=*vtr=*) ;; *) echo "govuk-service: the request lacks vtr or claims: $url"; exit 1 ;; esac
# The emulator's login page: a scripted browser signs in as the simulator's user and follows the redirect to
# auth-cli's loopback listener.
python3 Scripts/browser/emulator-login.py "$url" test@example.com emulator-password | grep -q "approve -> \['code', 'state'\]" \
  || { echo "govuk-service: no code in the redirect"; exit 1; }
wait_background "$login_pid"
python3 - "$(tail -n 1 "$work/login.out")" <<'PY'
import json, sys
result = json.loads(sys.argv[1])
assert result["provider"] == "govuk" and result["subject"].startswith("urn:fdc:gov.uk:2022:"), result
assert result["has_refresh_token"] is False, "GOV.UK One Login issues services no refresh token"
assert result["id_token_claims"]["vot"] == "Cl.Cm", result
assert result["issuer"].endswith("/"), "the issuer keeps GOV.UK's trailing slash"
print(f"govuk-service: login with private_key_jwt ok, subject {result['subject']}")
PY

"$cli" userinfo --store "$work/session.json" --json > "$work/userinfo.json"
python3 - "$work/userinfo.json" <<'PY'
import json, sys
info = json.load(open(sys.argv[1]))
identity = info["verified_identity"]
assert identity == {"level_of_confidence": "P2", "name": "GEOFFREY HEARNSHAW", "birth_dates": ["1955-04-19"]}, identity
assert "https://vocab.account.gov.uk/v1/coreIdentityJWT" not in info, "the raw JWT is not printed"
assert info["https://vocab.account.gov.uk/v1/address"][0]["postalCode"] == "GL1 5QB", info
print("govuk-service: userinfo ok, core identity P2 verified against the DID document")
PY

# RP-initiated logout as GOV.UK One Login documents it ("Log your users out of GOV.UK One Login"): `auth-cli logout`
# prints the end-session URL with the ID token (--show-tokens), the registered post_logout_redirect_uri and a fresh
# state; the emulator's /logout answers 302 to exactly that URI with that state.
"$cli" logout --store "$work/session.json" --json --show-tokens > "$work/logout.json"
location="$(python3 - "$work/logout.json" "$work/govuk/govuk-service.json" <<'PY'
import json, sys, urllib.parse
out, config = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert out["signed_out"] is True, out
assert out["post_logout_redirect_uri"] == config["post_logout_redirect_uri"], out
query = urllib.parse.parse_qs(urllib.parse.urlsplit(out["end_session_url"]).query)
assert query["post_logout_redirect_uri"] == [config["post_logout_redirect_uri"]] and query["state"] == [out["state"]], query
assert query["id_token_hint"][0].count(".") == 2, "GOV.UK One Login needs id_token_hint with post_logout_redirect_uri"
assert len(out["state"]) >= 32, out
print(out["end_session_url"])
PY
)"
landed="$(curl -sS -o /dev/null -w '%{http_code} %{redirect_url}' "$location")"
expected="302 $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["post_logout_redirect_uri"])' "$work/govuk/govuk-service.json")?state=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["state"])' "$work/logout.json")"
[ "$landed" = "$expected" ] || { echo "govuk-service: logout landed on '$landed', not '$expected'"; exit 1; }
echo "govuk-service: auth-cli logout lands on the registered post-logout URI with our state ($landed)"
