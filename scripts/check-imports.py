#!/usr/bin/env python3
"""Every module a Swift target imports is one of its declared dependencies, and every declared
dependency of a Swift target is imported somewhere in it (issue 30.2). Reads `swift package
dump-package`; prints the differences and exits 1 when there are any."""
import glob
import json
import re
import subprocess
import sys

# Modules of the toolchain, not packages.
TOOLCHAIN = {"Foundation", "FoundationEssentials", "Dispatch", "Synchronization", "Glibc", "Testing", "XCTest"}

package = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout)
problems = []
for target in package["targets"]:
    if target["type"] == "system":
        continue
    default = ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]
    sources = glob.glob((target.get("path") or default) + "/**/*.swift", recursive=True)
    if not sources:
        continue  # a C target
    declared = {dependency[kind][0] for dependency in target["dependencies"] for kind in ("byName", "product", "target") if kind in dependency}
    imported = set()
    for source in sources:
        with open(source) as file:
            for line in file:
                match = re.match(r"\s*(?:@testable\s+|@preconcurrency\s+|@_exported\s+)?import\s+(\w+)", line)
                if match:
                    imported.add(match.group(1))
    missing, unused = sorted(imported - declared - TOOLCHAIN), sorted(declared - imported)
    if missing:
        problems.append(f"{target['name']} imports undeclared {', '.join(missing)}")
    if unused:
        problems.append(f"{target['name']} declares unused {', '.join(unused)}")
print("\n".join(problems) if problems else "every import is declared, every dependency used")
sys.exit(1 if problems else 0)
