"""Makes the OpenID Foundation's RP test tool run here: oidctest 0.8.2 and otest 0.7.8 (installed with --no-deps) on
oic 1.1.2 and Python 3.11. Edits the installed files in place, idempotently (an edit already made is skipped; one whose
text is not found fails the install, so a different release is noticed rather than half-patched).

- oidctest 0.8.2 declares oic==0.15.1 but imports `do_front_channel_logout_iframe` from `oic.oic.provider`, which no oic
  release has at module level; oic 1.1.2 has it as a static method of `Provider` (oidctest's 0.9 line calls it there).
- oic 1.1.2's `Server.__init__` takes keyword arguments (verify_ssl, keyjar, client_cert) and has no ca_certs;
  `create_providerinfo(setup=None)` lost its `pcr_class` parameter. oidctest 0.9 made the same two edits.
- future's backports/http/cookies.py puts the verbose flag `(?x)` after a newline; Python 3.11 refuses a global flag
  that is not at the start of the expression.

The logout profiles (RP-Initiated, Front- and Back-Channel Logout) as the suite's own later releases run them; 0.8.2
has the flows but not yet these parts of the OP (each from oidctest's repository, openid-certification/oidctest):
- the OP's session database on oic's `DictSessionBackend` (upstream's op_handler.py calls `create_session_db`
  without the plain dict 0.8.2 passes): oic 1.1.2 finds a session by `sub` or user only through a backend, and its
  end-session endpoint does so for every `id_token_hint`.
- `sid` in ID tokens (commits 1fd72b3 and 5dcbf7d, "Add 'sid' to ID Tokens"): without it no relying party can match a
  front-channel logout's `sid` to a session.
- the end-session endpoint's `nst` and `ost` behaviours (rp-init-logout-no-state drops the RP's `state`,
  rp-init-logout-other-state puts "RandomString" in its place), and the logout page's redirect to the
  post-logout URI with the `state` in its query (commit d798e41, "State should be part of the query"); 0.8.2 drops
  the `state` in every test.
- `wrong_aud` (rp-backchannel-rpinitlogout-lt-wrong-aud) put in the logout token's `aud`: 0.8.2 computes the foreign
  audience and then signs the client's own.
And one of ours: the registration endpoint (oidctest's check and oic's `RegistrationRequest.verify`) refuses a
non-https `initiate_login_uri`, as OpenID Connect Dynamic Client Registration §2 says it must be; the suite here runs
on plain http on 127.0.0.1 (its own OP included), so a loopback http one (`http://127.0.0.1:PORT/…`) is accepted.

Usage: python patch_oidctest.py SITE_PACKAGES
"""
import pathlib
import sys

site = pathlib.Path(sys.argv[1])

EDITS = [
    ("oidctest/rp/provider.py",
     "from oic.oic.provider import do_front_channel_logout_iframe\n", ""),
    ("oidctest/rp/provider.py",
     "_iframe = do_front_channel_logout_iframe(c_info, iss, sid)",
     "_iframe = provider.Provider.do_front_channel_logout_iframe(c_info, iss, sid)"),
    ("oidctest/rp/provider.py",
     "oic.Server.__init__(self, keyjar, ca_certs, verify_ssl)",
     "oic.Server.__init__(self, verify_ssl=verify_ssl, keyjar=keyjar)"),
    ("oidctest/rp/provider.py",
     "def create_providerinfo(self, pcr_class=ProviderConfigurationResponse,\n                            setup=None):",
     "def create_providerinfo(self, setup=None):"),
    ("oidctest/rp/provider.py",
     "provider.Provider.create_providerinfo(self, pcr_class,\n                                                          setup)",
     "provider.Provider.create_providerinfo(self, setup)"),
    ("future/backports/http/cookies.py",
     '_CookiePattern = re.compile(r"""\n    (?x)                           # This is a verbose pattern\n',
     '_CookiePattern = re.compile(r"""(?x)                           # This is a verbose pattern\n'),
    # The logout profiles (see above).
    ("oidctest/rp/provider.py",
     "        # self._update_client_keys(client_info[\"client_id\"])\n\n        return provider.Provider.sign_encrypt_id_token(",
     "        # self._update_client_keys(client_info[\"client_id\"])\n"
     "        try:  # oidctest 1fd72b3, 5dcbf7d: the session id as the ID token's sid\n"
     "            sinfo[\"sid\"] = self.sdb.access_token.get_key(sinfo[\"access_token\"])\n"
     "        except KeyError:\n"
     "            sinfo[\"sid\"] = self.sdb.get(\"code\", sinfo[\"code\"])\n\n"
     "        return provider.Provider.sign_encrypt_id_token("),
    ("oidctest/rp/provider.py",
     "        _jws = provider.Provider.id_token_as_signed_jwt(\n            self, session, loa=loa,",
     "        if \"sid\" in session:  # oidctest 1fd72b3\n"
     "            extra_claims = dict(extra_claims or {}, sid=session[\"sid\"])\n\n"
     "        _jws = provider.Provider.id_token_as_signed_jwt(\n            self, session, loa=loa,"),
    ("oidctest/rp/provider.py",
     "    def end_session_endpoint(self, request=\"\", cookie=None, **kwargs):\n        return provider",
     "    def end_session_endpoint(self, request=\"\", cookie=None, **kwargs):\n"
     "        if \"nst\" in self.behavior_type or \"ost\" in self.behavior_type:  # as oidctest's later releases\n"
     "            _req = self.server.message_factory.get_request_type(\"endsession_endpoint\")\n"
     "            esr = _req().from_urlencoded(request)\n"
     "            if \"nst\" in self.behavior_type:\n"
     "                esr.pop(\"state\", None)\n"
     "            else:\n"
     "                esr[\"state\"] = \"RandomString\"\n"
     "            request = esr.to_urlencoded()\n"
     "        return provider"),
    ("oidctest/rp/provider.py",
     "        sjwt = _jws.pack(aud=cinfo[\"client_id\"], **payload)",
     "        sjwt = _jws.pack(aud=aud, **payload)  # wrong_aud applied, as oidctest's later releases"),
    ("oidctest/cp/op.py",
     "            _body = _body.replace('{postLogoutRedirectUri}',\n                                  _info['redirect_uri'])",
     "            _redirect_uri = _info['redirect_uri']  # oidctest d798e41: the state in the query\n"
     "            if _info.get('state'):\n"
     "                _redirect_uri += ('&' if '?' in _redirect_uri else '?') + urlencode({'state': _info['state']})\n"
     "            _body = _body.replace('{postLogoutRedirectUri}', _redirect_uri)"),
    ("oidctest/cp/op.py",
     "from future.backports.urllib.parse import urlparse\n",
     "from future.backports.urllib.parse import urlparse\nfrom future.backports.urllib.parse import urlencode\n"),
    ("oidctest/cp/op_handler.py",
     "_sdb = create_session_db(com_args[\"baseurl\"], 'automover', '430X', {})",
     "_sdb = create_session_db(com_args[\"baseurl\"], 'automover', '430X')  # a DictSessionBackend, as upstream"),
    ("oic/oic/message.py",
     "        if \"initiate_login_uri\" in self and not self[\"initiate_login_uri\"].startswith(\n            \"https:\"\n        ):",
     "        if \"initiate_login_uri\" in self and not self[\"initiate_login_uri\"].startswith(\n            (\"https:\", \"http://127.0.0.1:\")\n        ):"),
    ("oidctest/rp/provider.py",
     "                if not uri.startswith(\"https://\"):",
     "                if not uri.startswith(\"https://\") and not uri.startswith(\"http://127.0.0.1:\"):"),
]

for relative, old, new in EDITS:
    path = site / relative
    text = path.read_text()
    if new and new in text:
        continue  # made before (a new text may hold the old one)
    elif old in text:
        path.write_text(text.replace(old, new, 1))
    elif not new and relative == "oidctest/rp/provider.py":
        continue  # a removed import stays removed
    else:
        sys.exit(f"patch_oidctest: the text to edit in {relative} is not there (another release?): {old[:60]!r}")
print("patch_oidctest: oidctest 0.8.2 / otest 0.7.8 / oic 1.1.2 / future edited for Python 3.11")
