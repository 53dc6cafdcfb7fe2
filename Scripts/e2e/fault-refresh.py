#!/usr/bin/env python3
"""Drives and checks one server's rounds of Scripts/e2e/fault-refresh.sh (standard library only).

    python3 Scripts/e2e/fault-refresh.py run --server grace|strict --cli AUTH_CLI --issuer URL --client-id ID \\
        --username U --password P --store FILE --proxy-port PORT --upstream-port PORT --proxy-log FILE \\
        --result FILE [--rounds N] [--processes N] [--seed N] [--delay SECONDS]
    python3 Scripts/e2e/fault-refresh.py table RESULT… [--docs SECURITY.md]

`run` starts the proxy (Scripts/e2e/fault-proxy.py on PROXY_PORT, the port the server's issuer names, in front
of the server on UPSTREAM_PORT, with --clients-of this process: it may SIGKILL the auth-cli processes this one
starts, and no other), signs in once through it, then runs ROUNDS rounds in
which PROCESSES `auth-cli refresh` share the one session file while the proxy injects its faults; in some rounds
this script also SIGKILLs one of them at a random moment. A thread watches the session file throughout. After a
sign-out it signs in again, so the rounds go on. At the end the faults are turned off and the session is used once
more. Then it checks, against the proxy's log of every token answer (fingerprints, and whether each reached the
client intact):

  - every refresh/access token pair the file ever held was delivered intact by the server (a successful refresh or
    the sign-in): nothing a fault withheld or mangled, never an older pair written back;
  - the file never lost its credential but right after the server refused, with invalid_grant delivered intact, the
    very refresh token it held (a definitive refusal), and it was never unreadable;
  - grace: zero sign-outs; strict (reuse protection, no grace): every sign-out follows a lost answer (the server had
    already redeemed the refresh token the file held) and says so: its message has "refresh answer was lost";
  - a 429/503 with Retry-After of at most 30 s is waited out (the same process asks again no sooner) and a longer
    one ends the process with the error code rate_limited;
  - the session works at the end, whenever the server allows it.

It writes the numbers and any violations to RESULT (JSON) and exits 1 on a violation. `table` prints the numbers of
one or more results as a Markdown table and, with --docs, writes it between the markers in that file.
"""
import argparse
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOST_WORDS = "refresh answer was lost"
SHORT_RETRY = {"rate_limit_seconds", "unavailable_date"}
KILL_FAULTS = {"kill_before", "kill_after_answer", "kill_after_deliver"}


def fingerprint(token):
    return hashlib.sha256(token.encode()).hexdigest()[:16] if token else None


def tokens_in(profile):
    """(refresh, access) fingerprints of the session file's credential, or None when it holds none."""
    for credential in profile.get("credentials") or []:
        found = {}

        def walk(value):
            if isinstance(value, dict):
                for key, inner in value.items():
                    if key in ("refreshToken", "accessToken") and isinstance(inner, str):
                        found.setdefault(key, inner)
                    else:
                        walk(inner)
            elif isinstance(value, list):
                for inner in value:
                    walk(inner)

        walk(credential)
        if "accessToken" in found:
            return fingerprint(found.get("refreshToken")), fingerprint(found["accessToken"])
    return None


class Watcher(threading.Thread):
    """Reads the session file every 10 ms and records each change: ('tokens', refresh, access), ('none',) or
    ('unreadable', why)."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path, self.states, self.stopping = Path(path), [], threading.Event()

    def read(self):
        try:
            text = self.path.read_bytes()
        except FileNotFoundError:
            return ("none",)
        try:
            pair = tokens_in(json.loads(text))
        except ValueError as error:
            return ("unreadable", str(error)[:80])
        return ("tokens",) + pair if pair else ("none",)

    def run(self):
        while not self.stopping.is_set():
            self.poll()
            time.sleep(0.01)
        self.poll()

    def poll(self):
        state = self.read()
        if not self.states or self.states[-1][1] != state:
            self.states.append((time.time(), state))


class Driver:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.outcomes = []
        self.sign_ins = []
        self.driver_kills = 0

    def cli(self, *arguments, timeout=120):
        started = time.time()
        process = subprocess.run([self.args.cli, *arguments, "--store", self.args.store, "--json"],
                                 capture_output=True, text=True, timeout=timeout)
        return self.outcome(process.returncode, process.stdout, process.stderr, started, "final")

    def outcome(self, returncode, stdout, stderr, started, round_number, pid=None):
        record = {"round": round_number, "pid": pid, "rc": returncode, "t0": started, "t1": time.time()}
        if returncode < 0:
            record["signal"] = -returncode
        lines = [line for line in stdout.splitlines() if line.startswith("{")]
        try:
            answer = json.loads(lines[-1]) if lines else None
        except ValueError:
            answer = None
        if isinstance(answer, dict) and isinstance(answer.get("error"), dict):
            record["code"] = answer["error"].get("code")
            record["message"] = answer["error"].get("message", "")
        elif returncode == 0:
            record["code"] = "ok"
        elif returncode < 0:
            record["code"] = "killed"
        else:
            record["code"] = "no_output"
            record["stderr"] = stderr[-400:]
        return record

    def sign_in(self):
        started = time.time()
        redirect = "http://127.0.0.1/callback"  # any port: RFC 8252 loopback, so no fixed port to collide on
        login = subprocess.Popen(
            [self.args.cli, "login", "--issuer", self.args.issuer, "--client-id", self.args.client_id,
             "--redirect-uri", redirect, "--browser", "print", "--json", "--store", self.args.store, "--timeout", "60"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        url = login.stdout.readline().strip()
        if not url.startswith("http"):
            login.kill()
            raise SystemExit(f"fault-refresh: auth-cli login printed no URL: {url!r} {login.stderr.read()[-400:]}")
        redirect_uri = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["redirect_uri"][0]
        parts = urllib.parse.urlsplit(redirect_uri)
        subprocess.run([sys.executable, str(ROOT / "Scripts/browser/idp-login.py"), url, self.args.username,
                        self.args.password, f"{parts.scheme}://{parts.netloc}/"], check=True, timeout=60,
                       stderr=subprocess.DEVNULL)
        out, err = login.communicate(timeout=60)
        if login.returncode != 0:
            raise SystemExit(f"fault-refresh: sign-in failed: {out[-400:]} {err[-400:]}")
        self.sign_ins.append({"t0": started, "t1": time.time()})

    def signed_in(self):
        return self.watcher.read()[0] == "tokens"

    def record(self, outcome):
        """Keeps `outcome`, also in RESULT.partial (one JSON line each), which survives a run stopped at its limit."""
        self.outcomes.append(outcome)
        with open(self.args.result + ".partial", "a") as partial:
            partial.write(json.dumps(outcome) + "\n")

    def round(self, number):
        processes = []
        for _ in range(self.args.processes):
            started = time.time()
            process = subprocess.Popen([self.args.cli, "refresh", "--store", self.args.store, "--json"],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            processes.append((process, started))
            # Django's development server drops connections that arrive in the same instant (cli-integration.sh).
            time.sleep(0.03)
        victim = None
        if self.rng.random() < 0.4:
            # A kill of this script's own, at a moment of its choosing: waiting for the lock, mid-request, mid-write.
            time.sleep(self.rng.uniform(0.05, 0.8))
            victim = self.rng.choice(processes)[0]
            if victim.poll() is None:
                victim.send_signal(signal.SIGKILL)
        deadline = time.time() + self.args.round_timeout
        for process, started in processes:
            try:
                out, err = process.communicate(timeout=max(1, deadline - time.time()))
                self.record(self.outcome(process.returncode, out, err, started, number, process.pid))
                if process is victim and process.returncode == -signal.SIGKILL:
                    self.driver_kills += 1
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
                record = self.outcome(-9, "", "", started, number, process.pid)
                record["code"] = "hung"
                self.record(record)

    def start_proxy(self):
        args = self.args
        Path(args.proxy_log).unlink(missing_ok=True)
        self.proxy = subprocess.Popen(
            [sys.executable, str(ROOT / "Scripts/e2e/fault-proxy.py"), "--listen", str(args.proxy_port),
             "--upstream", str(args.upstream_port), "--log", args.proxy_log, "--seed", str(args.seed),
             "--clients-of", str(os.getpid()), "--delay", str(args.delay)],
            stdin=subprocess.DEVNULL, stderr=open(args.proxy_log + ".err", "w"))
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{self.proxy_url}/.fault-proxy/on", timeout=2).read()
                return
            except OSError:
                if self.proxy.poll() is not None:
                    break
                time.sleep(0.1)
        raise SystemExit(f"fault-refresh: the proxy did not start: {Path(args.proxy_log + '.err').read_text()[-400:]}")

    def run(self):
        args = self.args
        self.proxy_url = f"http://127.0.0.1:{args.proxy_port}"
        Path(args.store).unlink(missing_ok=True)
        Path(args.result + ".partial").unlink(missing_ok=True)
        self.start_proxy()
        try:
            return self.rounds()
        finally:
            self.proxy.terminate()
            self.proxy.wait()

    def rounds(self):
        args = self.args
        self.watcher = Watcher(args.store)
        self.watcher.start()
        started = time.time()
        self.sign_in()
        for number in range(1, args.rounds + 1):
            self.round(number)
            if not self.signed_in() and number < args.rounds:
                self.sign_in()
        urllib.request.urlopen(f"{self.proxy_url}/.fault-proxy/off", timeout=5).read()
        final = {"signed_in_before": self.signed_in()}
        if final["signed_in_before"]:
            final["refresh"] = self.cli("refresh")
            if final["refresh"]["code"] == "ok":
                final["userinfo"] = self.cli("userinfo")
        time.sleep(0.05)
        self.watcher.stopping.set()
        self.watcher.join()
        return {
            "server": args.server, "seed": args.seed, "rounds": args.rounds, "processes": args.processes,
            "seconds": round(time.time() - started, 1), "sign_ins": self.sign_ins, "driver_kills": self.driver_kills,
            "outcomes": self.outcomes, "final": final, "states": self.watcher.states,
        }


def check(result, records):
    """The violations of the rules above, and the numbers."""
    violations, storage = [], []
    server = result["server"]
    refreshes = [r for r in records if r.get("grant") == "refresh_token"]
    delivered = {(r["issued_refresh"], r["issued_access"]) for r in records
                 if r["delivered"] and r["status"] == 200 and r["issued_access"]}
    refusals = [r for r in records if r["delivered"] and r["error"] == "invalid_grant"]
    redeemed, lost_by = {}, {}  # refresh token -> when the server first answered it; the fault that lost that answer
    for r in refreshes:
        if r["status"] == 200 and r["issued_access"] and r["sent"] not in redeemed:
            redeemed[r["sent"]] = r["t0"]
            # Delivered intact, it was still lost if the process died before storing it (a kill, ours or the proxy's).
            lost_by[r["sent"]] = r["fault"] if r["fault"] != "pass" else "killed after delivery"

    # The file, change by change.
    seen, previous, sign_outs = set(), None, []
    for when, state in result["states"]:
        state = tuple(state)
        if state[0] == "unreadable":
            storage.append(f"the session file was unreadable at {when:.3f}: {state[1]}")
        elif state[0] == "tokens":
            pair = state[1:]
            if pair not in delivered:
                storage.append(f"the file held tokens the server never delivered intact (refresh {pair[0]}) at {when:.3f}")
            if pair in seen and previous is not None and previous[0] == "tokens" and previous[1:] != pair:
                storage.append(f"an older token pair was written back at {when:.3f} (refresh {pair[0]})")
            seen.add(pair)
        elif state[0] == "none" and previous is not None and previous[0] == "tokens":
            held = previous[1]
            refusal = [r for r in refusals if r["sent"] == held and r["t0"] <= when + 0.5]
            if not refusal:
                storage.append(f"the credential was deleted at {when:.3f} without a refusal of the refresh token it held ({held})")
            sign_outs.append({"t": when, "refresh": held, "lost": held in redeemed and redeemed[held] < when,
                              "lost_by": lost_by.get(held, "nothing")})
        previous = state

    violations += storage

    # What each process said.
    outcomes = result["outcomes"]
    # The check after the last round refreshes too: when the last round lost an answer, its refusal is the one that
    # says why the session ended.
    final_refresh = (result.get("final") or {}).get("refresh")
    invalid_grants = [o for o in outcomes + ([final_refresh] if final_refresh else []) if o["code"] == "invalid_grant"]
    for sign_out in sign_outs:
        # The process that saw the refusal: the one whose answer was the refusal (same round, ended after it).
        near = [o for o in invalid_grants if o["t1"] >= sign_out["t"] - 0.5]
        said = near[0] if near else None
        sign_out["cause"] = ("refreshAnswerLost" if said and LOST_WORDS in said.get("message", "")
                             else "invalid_grant" if said else "unreported")
    if server == "grace":
        if sign_outs or invalid_grants:
            violations.append(f"the grace-period server: {len(sign_outs)} sign-out(s), {len(invalid_grants)} invalid_grant answer(s) reported; expected none")
    else:
        for sign_out in sign_outs:
            if not sign_out["lost"]:
                violations.append(f"a sign-out at {sign_out['t']:.3f} that no lost answer explains (the server had not redeemed {sign_out['refresh']} before)")
            if sign_out["cause"] != "refreshAnswerLost":
                violations.append(f"a sign-out at {sign_out['t']:.3f} after a lost answer does not say '{LOST_WORDS}' (cause: {sign_out['cause']})")
    for o in outcomes:
        if o["code"] in ("hung", "no_output"):
            violations.append(f"round {o['round']}: an auth-cli refresh {o['code'].replace('_', ' ')} {o.get('stderr', '')}")

    # Retry-After.
    by_pid = {}
    for r in refreshes:
        by_pid.setdefault(r.get("pid"), []).append(r)
    outcome_of = {o["pid"]: o for o in outcomes if o["pid"] is not None}
    for r in refreshes:
        pid, fault = r.get("pid"), r["fault"]
        if fault not in SHORT_RETRY | {"rate_limit_long"}:
            continue
        outcome = outcome_of.get(pid)
        if pid is None or outcome is None or outcome["code"] in ("killed",):
            continue
        later = [x for x in by_pid.get(pid, []) if x["t0"] > r["t1"]]
        if fault == "rate_limit_long":
            if later:
                violations.append(f"pid {pid} asked again {later[0]['t0'] - r['t1']:.1f} s after a Retry-After of 120 s")
            if outcome["code"] != "rate_limited":
                violations.append(f"pid {pid}: a 429 with Retry-After 120 s ended with {outcome['code']}, expected rate_limited")
        else:
            wait = 1.0  # Retry-After: 1, or an HTTP date 2 s ahead (to the second: 1 to 2 s)
            if not later:
                violations.append(f"pid {pid}: a {r['client_status']} with Retry-After {r['retry_after']!r} was not retried (it ended with {outcome['code']})")
            elif later[0]["t0"] - r["t1"] < wait - 0.05:
                violations.append(f"pid {pid}: retried {later[0]['t0'] - r['t1']:.2f} s after Retry-After {r['retry_after']!r}")

    # The end.
    final = result["final"]
    if server == "grace" or final.get("signed_in_before"):
        refresh = final.get("refresh") or {"code": "not_signed_in"}
        if refresh["code"] != "ok":
            lost_ok = server == "strict" and refresh["code"] == "invalid_grant" and LOST_WORDS in refresh.get("message", "")
            if not lost_ok:
                violations.append(f"the session did not work at the end: refresh {refresh['code']} {refresh.get('message', '')[:200]}")
        elif (final.get("userinfo") or {}).get("code") != "ok":
            violations.append(f"userinfo failed at the end: {final.get('userinfo')}")

    faults = Counter(r["fault"] for r in refreshes if r["fault"] != "pass")
    numbers = {
        "server": server,
        "rounds": result["rounds"],
        "processes": result["processes"],
        "auth_cli_runs": len(outcomes),
        "refresh_requests": len(refreshes),
        "refreshes_delivered": sum(1 for r in refreshes if r["delivered"] and r["status"] == 200),
        "faults": dict(sorted(faults.items())),
        "faults_total": sum(faults.values()),
        "lost_answers": sum(1 for r in refreshes if r["forwarded"] and r["status"] == 200 and not r["delivered"]),
        "kills_by_proxy": sum(1 for r in refreshes if r.get("killed")),
        "kill_faults": sum(1 for r in refreshes if r["fault"] in KILL_FAULTS),
        "kills_by_driver": result["driver_kills"],
        "killed_processes": sum(1 for o in outcomes if o.get("signal") == 9),
        "sign_outs": dict(Counter(s["cause"] for s in sign_outs)),
        "sign_outs_total": len(sign_outs),
        "sign_outs_after": dict(Counter(s["lost_by"].replace("_", " ") for s in sign_outs)),
        "sign_ins": len(result["sign_ins"]),
        "outcomes": dict(sorted(Counter(o["code"] for o in outcomes).items())),
        "storage_violations": len(storage),
        "usable_at_end": ("yes" if (final.get("refresh") or {}).get("code") == "ok"
                          else "signed out by the server" if not final.get("signed_in_before") or (final.get("refresh") or {}).get("code") == "invalid_grant"
                          else "no"),
        "seconds": result["seconds"],
    }
    return violations, numbers


def table(numbers_list):
    kinds = sorted({kind for numbers in numbers_list for kind in numbers["faults"]})
    header = "| | " + " | ".join(
        "grace period (60 s)" if n["server"] == "grace" else "reuse protection, no grace" for n in numbers_list) + " |"
    rows = [header, "|---|" + "---|" * len(numbers_list)]

    def row(name, values):
        rows.append(f"| {name} | " + " | ".join(str(v) for v in values) + " |")

    row("rounds × auth-cli processes sharing one session file", [f"{n['rounds']} × {n['processes']}" for n in numbers_list])
    row("refresh requests through the proxy", [n["refresh_requests"] for n in numbers_list])
    row("… answered and delivered intact", [n["refreshes_delivered"] for n in numbers_list])
    row("faults injected", [n["faults_total"] for n in numbers_list])
    for kind in kinds:
        row(f"… {kind.replace('_', ' ')}", [n["faults"].get(kind, 0) for n in numbers_list])
    row("answers withheld by a fault after the server rotated the token", [n["lost_answers"] for n in numbers_list])
    row("processes SIGKILLed (by the proxy mid-refresh / at random)",
        [f"{n['killed_processes']} ({n['kills_by_proxy']} / {n['kills_by_driver']})" for n in numbers_list])
    row("sign-outs (the server refused the stored refresh token: invalid_grant)", [n["sign_outs_total"] for n in numbers_list])
    names = {"refreshAnswerLost": "… saying the refresh answer was lost (refreshAnswerLost)",
             "invalid_grant": "… saying only invalid_grant", "unreported": "… reported by no process"}
    for cause in sorted({cause for n in numbers_list for cause in n["sign_outs"]}):
        row(names.get(cause, cause), [n["sign_outs"].get(cause, 0) for n in numbers_list])
    for fault in sorted({fault for n in numbers_list for fault in n["sign_outs_after"]}):
        row(f"… whose answer was lost by: {fault}", [n["sign_outs_after"].get(fault, 0) for n in numbers_list])
    row("credentials deleted, or replaced by anything but a delivered answer", [n["storage_violations"] for n in numbers_list])
    row("auth-cli outcomes", [", ".join(f"{code} {count}" for code, count in n["outcomes"].items()) for n in numbers_list])
    row("session usable at the end (faults off)", [n["usable_at_end"] for n in numbers_list])
    row("seconds", [n["seconds"] for n in numbers_list])
    return "\n".join(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run")
    for name in ("server", "cli", "issuer", "client-id", "username", "password", "store", "proxy-log", "result"):
        run.add_argument(f"--{name}", required=True)
    run.add_argument("--proxy-port", type=int, required=True)
    run.add_argument("--upstream-port", type=int, required=True)
    run.add_argument("--delay", type=float, default=32, help="seconds the delay fault holds an answer (auth-cli waits 30)")
    run.add_argument("--rounds", type=int, default=10)
    run.add_argument("--processes", type=int, default=6)
    run.add_argument("--seed", type=int, default=57)
    run.add_argument("--round-timeout", type=float, default=90)
    tables = commands.add_parser("table")
    tables.add_argument("results", nargs="+")
    tables.add_argument("--docs")
    tables.add_argument("--caption", default="", help="a line above the table (what was measured)")
    args = parser.parse_args()

    if args.command == "table":
        numbers_list = [json.loads(Path(path).read_text())["numbers"] for path in args.results]
        text = (args.caption + "\n\n" if args.caption else "") + table(numbers_list)
        print(text)
        if args.docs:
            docs = Path(args.docs)
            begin, end = "<!-- fault-refresh table: begin -->", "<!-- fault-refresh table: end -->"
            content = docs.read_text()
            if begin not in content or end not in content:
                raise SystemExit(f"fault-refresh: {docs} has no table markers")
            head, rest = content.split(begin, 1)
            docs.write_text(head + begin + "\n" + text + "\n" + end + rest.split(end, 1)[1])
        return

    # `timeout` ends a run that overstays with SIGTERM: stop the proxy (in `finally`) on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    result = Driver(args).run()
    records = [json.loads(line) for line in Path(args.proxy_log).read_text().splitlines() if line.strip()]
    violations, numbers = check(result, records)
    result.update(numbers=numbers, violations=violations)
    Path(args.result).write_text(json.dumps(result, indent=1))
    print(f"fault-refresh: {args.server}: " + json.dumps(numbers, sort_keys=True))
    for violation in violations:
        print(f"fault-refresh: {args.server}: VIOLATION: {violation}", file=sys.stderr)
    sys.exit(1 if violations else 0)


if __name__ == "__main__":
    main()
