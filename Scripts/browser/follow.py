#!/usr/bin/env python3
"""The browser hop of a sign-in with no page to fill in: opens URL and follows its redirects (up to ten) as a browser
would, to the app's loopback listener. Standard library only.

Usage: follow.py URL

Prints the last answer's status. A listener that has already closed (the app gave up after an error) is reported on
stderr and is not a failure: the caller checks what the app did, not what the browser saw.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from scripted_browser import Browser  # noqa: E402


def main():
    try:
        status, _, _ = Browser(timeout=15).request(sys.argv[1], follow=10)
        print(f"browser: HTTP {status}")
    except Exception as error:  # noqa: BLE001 (the listener may be gone; see above)
        print(f"browser: {error}", file=sys.stderr)


if __name__ == "__main__":
    main()
