"""Makes the OpenID Foundation's RP test tool run here: oidctest 0.8.2 and otest 0.7.8 (installed with --no-deps) on
oic 1.1.2 and Python 3.11. Edits the installed files in place, idempotently (an edit already made is skipped; one whose
text is not found fails the install, so a different release is noticed rather than half-patched).

- oidctest 0.8.2 declares oic==0.15.1 but imports `do_front_channel_logout_iframe` from `oic.oic.provider`, which no oic
  release has at module level; oic 1.1.2 has it as a static method of `Provider` (oidctest's 0.9 line calls it there).
- oic 1.1.2's `Server.__init__` takes keyword arguments (verify_ssl, keyjar, client_cert) and has no ca_certs;
  `create_providerinfo(setup=None)` lost its `pcr_class` parameter. oidctest 0.9 made the same two edits.
- future's backports/http/cookies.py puts the verbose flag `(?x)` after a newline; Python 3.11 refuses a global flag
  that is not at the start of the expression.

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
]

for relative, old, new in EDITS:
    path = site / relative
    text = path.read_text()
    if old in text:
        path.write_text(text.replace(old, new, 1))
    elif new and new in text:
        continue
    elif not new and relative == "oidctest/rp/provider.py":
        continue  # a removed import stays removed
    else:
        sys.exit(f"patch_oidctest: the text to edit in {relative} is not there (another release?): {old[:60]!r}")
print("patch_oidctest: oidctest 0.8.2 / otest 0.7.8 / oic 1.1.2 / future edited for Python 3.11")
