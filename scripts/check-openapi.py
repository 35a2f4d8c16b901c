#!/usr/bin/env python3
"""Validate openapi.yaml and, optionally, compare its operations with the server's routes.

Usage: python3 scripts/check-openapi.py openapi.yaml [ROUTES_FILE]

ROUTES_FILE holds one "METHOD /path/{capture}" per line (methods upper-case), e.g. the server's
RouteTable.routes. Exits 1 when the spec is invalid or its operations differ from the routes.
Needs PyYAML and openapi-spec-validator.
"""

import sys

import yaml
from openapi_spec_validator import validate

HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def fail(message: str) -> None:
    print(f"openapi: {message}", file=sys.stderr)
    sys.exit(1)


def spec_operations(spec: dict) -> set[tuple[str, str]]:
    return {
        (method.upper(), path)
        for path, item in (spec.get("paths") or {}).items()
        for method in item
        if method in HTTP_METHODS
    }


def file_routes(filename: str) -> set[tuple[str, str]]:
    routes = set()
    with open(filename, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            parts = line.split()
            if len(parts) != 2:
                fail(f"{filename}:{number}: expected \"METHOD /path\", got {line.strip()!r}")
            routes.add((parts[0], parts[1]))
    return routes


def main(argv: list[str]) -> None:
    if len(argv) not in (2, 3):
        print("usage: check-openapi.py openapi.yaml [ROUTES_FILE]", file=sys.stderr)
        sys.exit(2)
    try:
        with open(argv[1], encoding="utf-8") as file:
            spec = yaml.safe_load(file)
        validate(spec)
    except Exception as error:  # unreadable file, YAML syntax or OpenAPI validation error
        # A validation error's str() dumps whole schemas; its message (shortened) and location suffice.
        message = str(getattr(error, "message", error))
        message = message if len(message) <= 400 else message[:400] + " …"
        where = " > ".join(map(str, getattr(error, "absolute_path", [])))
        fail(f"{argv[1]} is invalid: {message}" + (f" (at {where})" if where else ""))

    operations = spec_operations(spec)
    if len(argv) == 3:
        routes = file_routes(argv[2])
        if operations != routes:
            for method, path in sorted(routes - operations, key=lambda r: (r[1], r[0])):
                print(f"missing from spec: {method} {path}")
            for method, path in sorted(operations - routes, key=lambda r: (r[1], r[0])):
                print(f"not a server route: {method} {path}")
            fail("spec and routes differ")
    print(f"openapi: OK ({len(operations)} operations)")


if __name__ == "__main__":
    main(sys.argv)
