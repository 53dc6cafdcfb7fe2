#!/usr/bin/env bash
# The OpenID Foundation's relying-party test suite against auth-cli: the suite's OP (oidctest 0.8.2 from PyPI, in a
# virtual environment made on first use, .build/oidc-rp-suite/venv) on 127.0.0.1, and for every applicable test id of
# the Basic, Config, Dynamic (auth-cli registering its own client) and Form Post profiles, and the signed and encrypted
# response flows (Encryption: RSA-OAEP, ECDH-ES, A128KW with the key from the client secret), an `auth-cli login` (and `auth-cli userinfo` where the test is about it)
# against the test's own issuer, http://127.0.0.1:PORT/swift-auth-providers/<test-id>. One line per test id: id,
# expected, observed, PASS/FAIL; exits non-zero on any mismatch. The profiles and expectations are in
# Scripts/e2e/oidc-rp-suite/driver.py; the flow definitions (the OP's behaviour per test) in .../flows/.
#
#     Scripts/e2e/oidc-rp-suite.sh                 # every test id
#     Scripts/e2e/oidc-rp-suite.sh --verbose       # with each flow's expected_result and what happened
#     Scripts/e2e/oidc-rp-suite.sh --only rp-id_token-aud rp-response_mode-form_post
#
# Then the RP-Initiated, Front-Channel and Back-Channel Logout and 3rd-Party-Initiated Login profiles against the web
# samples (Examples/WebSignIn, Examples/VaporWebSignIn) and auth-cli logout: Scripts/e2e/oidc-rp-suite/logout_profiles.py.
#
# Needs auth-cli and the web samples built (swift build --product auth-cli / web-sign-in / web-sign-in-vapor, with the
# HummingbirdSignIn, VaporSignIn and PostgresStorage traits). The port is AUTH_OIDC_RP_PORT (default 8870).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
suite="$repo_root/Scripts/e2e/oidc-rp-suite"
state="$repo_root/.build/oidc-rp-suite"
venv="$state/venv"
port="${AUTH_OIDC_RP_PORT:-8870}"
base="http://127.0.0.1:$port"
cli="$(swift build --show-bin-path)/auth-cli"
[ -x "$cli" ] || fail "auth-cli is not built: swift build --product auth-cli"

install() {
  [ -f "$venv/.installed-0.8.2" ] && return 0
  echo "oidc-rp-suite: installing oidctest 0.8.2 into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$suite/requirements.txt"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps "oidctest==0.8.2" "otest==0.7.8"
  "$venv/bin/python" "$suite/patch_oidctest.py" "$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  touch "$venv/.installed-0.8.2"
}

install
# The edits are idempotent: a venv made before an edit was added gets it too.
"$venv/bin/python" "$suite/patch_oidctest.py" "$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" >/dev/null
mkdir -p "$state/op"
make_work_dir
# The OP's keys are generated on its first start (pure Python RSA, slow) and kept in $state/op for the next runs;
# the flows it serves are this repository's copies.
rm -rf "$state/op/static" "$state/op/log"
start_background "$state/op/server.out" bash -c "cd '$state/op' && exec '$venv/bin/python' '$suite/op_server.py' '$port' '$suite/flows'"
op_pid=$background_pid
wait_for_url "$base/swift-auth-providers/rp-response_type-code/.well-known/openid-configuration" --timeout 120 --pid "$op_pid" --log "$state/op/server.out"
status=0
"$venv/bin/python" "$suite/driver.py" "$base" "$cli" "$suite/flows" "$work" "$@" || status=$?
# The logout profiles and third-party login against the web samples (each built one: web-sign-in on Hummingbird,
# web-sign-in-vapor on Vapor; sessions in memory) and auth-cli logout.
samples=()
for sample in hummingbird=web-sign-in vapor=web-sign-in-vapor; do
  binary="$(swift build --show-bin-path)/${sample#*=}"
  if [ -x "$binary" ]; then samples+=("${sample%%=*}=$binary"); else echo "oidc-rp-suite: ${sample#*=} is not built; its logout profiles are not run" >&2; fi
done
[ "${#samples[@]}" -gt 0 ] || { echo "oidc-rp-suite: no web sample built (swift build --product web-sign-in)" >&2; status=1; }
"$venv/bin/python" "$suite/logout_profiles.py" "$base" "$cli" "$suite/flows" "$work/logout" "${samples[@]}" "$@" || status=$?
# auth-cli's side of dynamic registration the suite's OP cannot take (it serves no RFC 7592 client configuration
# endpoint and takes any initial access token): read and update against auth-emulator's, a closed endpoint here.
if [ "$#" -eq 0 ]; then
  python3 "$repo_root/Scripts/e2e/cli-registration.py" "$cli" "$(swift build --show-bin-path)/auth-emulator" "$work/registration" || status=$?
fi
[ "$status" -eq 0 ] || echo "oidc-rp-suite: the OP's log is $state/op/op.log" >&2
exit "$status"
