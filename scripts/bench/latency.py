#!/usr/bin/env python3
"""Sequential request latency against a running Parley: prints p50/p99 in milliseconds.

Usage: latency.py PORT API_TOKEN COUNT PATH [PATH ...]  (paths are requested round-robin)
"""
import http.client
import statistics
import sys
import time


def main() -> None:
    port, token, count, paths = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    connection = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Api-Token": token}
    samples = []
    for index in range(count + 20):
        start = time.perf_counter()
        connection.request("GET", paths[index % len(paths)], headers=headers)
        response = connection.getresponse()
        response.read()
        elapsed = (time.perf_counter() - start) * 1000
        if response.status != 200:
            sys.exit(f"{paths[index % len(paths)]} answered {response.status}")
        if index >= 20:  # the first requests warm caches and prepared statements
            samples.append(elapsed)
    samples.sort()
    p50 = statistics.median(samples)
    p99 = samples[int(len(samples) * 0.99) - 1]
    print(f"{p50:.2f} {p99:.2f}")


if __name__ == "__main__":
    main()
