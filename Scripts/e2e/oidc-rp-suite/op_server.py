"""The OpenID Foundation's RP test OP (oidctest 0.8.2's `test_tool/cp/test_rplib/rp/server.py`, reduced to the OP it
serves) on 127.0.0.1 over plain http: one issuer per test, `http://127.0.0.1:PORT/<rp-id>/<test-id>`, behaving as the
flow definition `flows/<test-id>.json` says. It authenticates without a login form (the suite's `NoAuthn`, user
`diana`). Run from its state directory (it writes `static/jwks_*.json`, `keys/`, `log/` there).

Usage: python op_server.py PORT FLOWS_DIR
"""
import collections
import collections.abc
import inspect
import sys
import types

# Python 3.11 removed these; oic, CherryPy 8 and Mako's era of the suite still use them.
for _name in ("Mapping", "MutableMapping", "Sequence", "Callable", "Iterable"):
    setattr(collections, _name, getattr(collections.abc, _name))
if not hasattr(inspect, "getargspec"):
    def _getargspec(function):
        spec = inspect.getfullargspec(function)
        return inspect.ArgSpec(spec.args, spec.varargs, spec.varkw, spec.defaults) if hasattr(inspect, "ArgSpec") \
            else collections.namedtuple("ArgSpec", "args varargs keywords defaults")(spec.args, spec.varargs, spec.varkw, spec.defaults)
    inspect.getargspec = _getargspec

import logging  # noqa: E402
import os  # noqa: E402

import cherrypy  # noqa: E402
from otest.flow import Flow  # noqa: E402
from otest.prof_util import SimpleProfileHandler  # noqa: E402

from oidctest.cp import dump_log  # noqa: E402
from oidctest.cp.op import Provider, RelyingParty, WebFinger  # noqa: E402
from oidctest.cp.op_handler import OPHandler  # noqa: E402
from oidctest.cp.setup import cb_setup  # noqa: E402
from oidctest.rp import provider  # noqa: E402
from oic.utils.webfinger import WebFinger as WebFingerResponder  # noqa: E402

port = int(sys.argv[1])
flows_dir = os.path.abspath(sys.argv[2])

# The suite's example configuration (test_tool/cp/test_rplib/rp/example_conf.py) for 127.0.0.1 over http: its keys
# (generated into keys/ on first use), its NoAuthn user and user database.
config = types.ModuleType("rp_suite_conf")
config.baseurl = "http://127.0.0.1"
config.keys = [
    {"type": "RSA", "key": "keys/pyoidc_enc", "use": ["enc"]},
    {"type": "RSA", "key": "keys/pyoidc_sig", "use": ["sig"]},
    {"type": "EC", "crv": "P-256", "use": ["sig"]},
    {"type": "EC", "crv": "P-256", "use": ["enc"]},
]
config.multi_keys = [
    {"type": "RSA", "use": ["enc"], "name": "rsa_enc_1", "key": "keys/pyoidc_enc"},
    {"type": "RSA", "use": ["sig"], "name": "rsa_sig_1", "key": "keys/pyoidc_sig"},
    {"type": "RSA", "use": ["enc"], "name": "rsa_enc_2", "key": "keys/sec_enc"},
    {"type": "RSA", "use": ["sig"], "name": "rsa_sig_2", "key": "keys/sec_sig"},
    {"type": "EC", "crv": "P-256", "use": ["sig"]},
    {"type": "EC", "crv": "P-256", "use": ["enc"]},
    {"type": "EC", "crv": "P-256", "use": ["sig"]},
    {"type": "EC", "crv": "P-256", "use": ["enc"]},
]
config.AUTHENTICATION = {"NoAuthn": {"ACR": "PASSWORD", "WEIGHT": 1, "user": "diana"}}
config.COOKIE = {"name": "pyoic", "ttl": 4 * 60}
config.SSO_TTL = 2 * 60
config.SYM_KEY = "SoLittleTime,Got"
config.LOGOUT_PATH = "logout"
config.USERINFO = "SIMPLE"
config.USERDB = {
    "diana": {
        "sub": "dikr0001", "name": "Diana Krall", "given_name": "Diana", "family_name": "Krall", "nickname": "Dina",
        "email": "diana@example.org", "email_verified": False, "phone_number": "+46 90 7865000",
        "address": {"street_address": "Umeå Universitet", "locality": "Umeå", "postal_code": "SE-90187", "country": "Sweden"},
    },
}
sys.modules["rp_suite_conf"] = config

os.makedirs("static", exist_ok=True)
os.makedirs("keys", exist_ok=True)
logging.basicConfig(filename="op.log", level=logging.INFO, format="%(asctime)s %(name)s:%(levelname)s %(message)s")

args = types.SimpleNamespace(config="rp_suite_conf", path=None, port=port, insecure=True, debug=False, tls=False)
com_args, op_arg, _ = cb_setup(args)
flows = Flow(flows_dir, profile_handler=SimpleProfileHandler)
op_handler = OPHandler(provider.Provider, op_arg, com_args, flows, os.path.abspath(os.curdir))

cherrypy.tools.dumplog = cherrypy.Tool("before_finalize", dump_log)
cherrypy.config.update({
    "environment": "production",
    "log.error_file": "site.log",
    "log.screen": False,
    "tools.trailing_slash.on": False,
    "server.socket_host": "127.0.0.1",
    "server.socket_port": port,
    "server.thread_pool": 10,
    "tools.sessions.on": True,
    "tools.encode.on": True,
    "tools.encode.encoding": "utf-8",
    "tools.dumplog.on": True,
})
static = os.path.abspath("static")
cherrypy.tree.mount(Provider(op_handler, flows, version="oidctest 0.8.2"), "/", {
    "/": {"root_path": "localhost"},
    "/static": {"tools.staticdir.dir": static, "tools.staticdir.on": True},
})
# WebFinger issuer discovery (the Dynamic profile's rp-discovery-webfinger-* tests), mounted as the suite's own server
# does: `acct:<rp-id>.<test-id>@host` or `http://host/<rp-id>/<test-id>` names the test's issuer.
cherrypy.tree.mount(WebFinger(WebFingerResponder(), version="oidctest 0.8.2"), "/.well-known/webfinger", {
    "/": {"base_url": f"http://127.0.0.1:{port}"},
})
# Third-party-initiated login (rp-3rd_party-init-login), mounted as the suite's own server does:
# /rp/<rp-id>/<test-id>/<client-id> redirects the browser to the client's registered initiate_login_uri.
cherrypy.tree.mount(RelyingParty(op_handler, version="oidctest 0.8.2"), "/rp", {"/": {}})
cherrypy.engine.start()
cherrypy.engine.block()
