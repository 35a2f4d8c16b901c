#!/usr/bin/env python3
"""Sequential request latency against a running Parley: prints "p50 p99" in milliseconds, one
line per path.

Usage: latency.py PORT API_TOKEN COUNT PATH [PATH ...]
Paths are requested round-robin, COUNT times each, so that whatever else the machine does in
the meantime falls on every path alike and their figures compare.
"""
import http.client
import statistics
import sys
import time


def main() -> None:
    port, token, count, paths = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    connection = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Api-Token": token}
    samples = {path: [] for path in paths}
    warm_up = 20 * len(paths)  # the first requests warm caches and prepared statements
    for index in range(warm_up + count * len(paths)):
        path = paths[index % len(paths)]
        start = time.perf_counter()
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        elapsed = (time.perf_counter() - start) * 1000
        if response.status != 200:
            sys.exit(f"{path} answered {response.status}")
        if index >= warm_up:
            samples[path].append(elapsed)
    for path in paths:
        values = sorted(samples[path])
        print(f"{statistics.median(values):.2f} {values[int(len(values) * 0.99) - 1]:.2f}")


if __name__ == "__main__":
    main()
