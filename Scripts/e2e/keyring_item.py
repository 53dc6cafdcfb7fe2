#!/usr/bin/env python3
"""auth-cli's credential items in the Secret Service, for Scripts/e2e/keyring-cli.sh (through secret-tool only).

    keyring_item.py get ACCOUNT FIELD    prints FIELD (accessToken, refreshToken, expiresAt…) of ACCOUNT's credential
    keyring_item.py expire ACCOUNT       rewrites ACCOUNT's credential with an access token that expired 10 s ago

The secret goes to secret-tool on standard input, never on its command line, as auth-cli does it.
"""
import json
import subprocess
import sys
import time


def item(account):
    result = subprocess.run(
        ["secret-tool", "search", "--all", "application", "auth-cli", "type", "credential", "account", account],
        check=True, capture_output=True, text=True,
    )
    # secret-tool writes the label and the secret on standard output, the attributes on standard error.
    label, secret, attributes = None, None, {}
    for line in result.stdout.splitlines() + result.stderr.splitlines():
        name, _, value = line.partition(" = ")
        if name == "label":
            label = value
        elif name == "secret":
            secret = value
        elif name.startswith("attribute."):
            attributes[name[len("attribute."):]] = value
    if secret is None:
        sys.exit(f"keyring_item: no unlocked credential item for {account}")
    return label, json.loads(secret), attributes


def main():
    command, account = sys.argv[1], sys.argv[2]
    label, credential, attributes = item(account)
    if command == "get":
        print(credential[sys.argv[3]])
    elif command == "expire":
        credential["expiresAt"] = time.time() - 10
        arguments = [word for pair in sorted(attributes.items()) for word in pair]
        subprocess.run(["secret-tool", "store", "--label", label, *arguments], input=json.dumps(credential), text=True, check=True)
    else:
        sys.exit(f"keyring_item: unknown command {command}")


main()
