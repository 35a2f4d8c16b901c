#!/usr/bin/env python3
"""How many of the operations in Sendbird's description of its Platform API Parley serves (issue 52).

Usage: scripts/check-sendbird-coverage.py [sendbird-platform-api-v3.yaml] [--require N]

An operation is served when openapi.yaml has the same method on a path of the same shape: a
parameter matches a parameter whatever its name, and Sendbird's `{channel_type}` matches
`group_channels` or `open_channels`. Prints the count and the operations missing; with
`--require N`, exits 1 when fewer than N are served.
"""
import os
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METHODS = ("get", "put", "post", "delete", "patch")


def operations(spec):
    return {(method.upper(), path.rstrip("/")) for path, item in spec["paths"].items() for method in item if method in METHODS}


def matches(theirs, ours):
    if theirs == "{channel_type}":
        return ours in ("group_channels", "open_channels") or ours.startswith("{")
    if theirs.startswith("{"):
        return ours.startswith("{")
    return theirs == ours


def served(operation, ours):
    method, path = operation
    segments = path.split("/")
    for our_method, our_path in ours:
        other = our_path.split("/")
        if our_method == method and len(other) == len(segments) and all(map(matches, segments, other)):
            return True
    return False


def main(arguments):
    required = None
    if "--require" in arguments:
        index = arguments.index("--require")
        required = int(arguments[index + 1])
        arguments = arguments[:index] + arguments[index + 2:]
    reference = arguments[0] if arguments else os.path.join(ROOT, "..", "shared", "reference", "sendbird-platform-api-v3.yaml")
    theirs = operations(yaml.safe_load(open(reference)))
    ours = operations(yaml.safe_load(open(os.path.join(ROOT, "openapi.yaml"))))
    missing = sorted(operation for operation in theirs if not served(operation, ours))
    print(f"{len(theirs) - len(missing)} of {len(theirs)} operations of Sendbird's Platform API served")
    for method, path in missing:
        print(f"  missing: {method} {path}")
    return 1 if required is not None and len(theirs) - len(missing) < required else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
