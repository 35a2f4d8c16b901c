#!/usr/bin/env python3
"""Paced lookups against a running Parley, as a user who is not the one loading the server:
prints "sent p50 p99 max non-200" (milliseconds, and the statuses that were not 200).

Usage: paced-lookups.py PORT SESSION_TOKEN PATH RATE SECONDS
One request every 1/RATE s on one connection (a late one is sent at once, never skipped), so the
figures are what a user would see, not what a closed loop as fast as the server allows would.
"""
import http.client
import sys
import time


def main() -> None:
    port, token, path, rate, seconds = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Session-Token": token}
    samples, refused = [], {}
    start = time.perf_counter()
    count = int(rate * seconds)
    for index in range(count):
        due = start + index / rate
        pause = due - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
        sent = time.perf_counter()
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        samples.append((time.perf_counter() - sent) * 1000)
        if response.status != 200:
            refused[response.status] = refused.get(response.status, 0) + 1
    samples.sort()
    pick = lambda q: samples[min(len(samples) - 1, int(q * len(samples)))]
    other = ",".join(f"{status}x{n}" for status, n in sorted(refused.items())) or "none"
    print(f"{len(samples)} {pick(0.5):.1f} {pick(0.99):.1f} {samples[-1]:.1f} {other}")


if __name__ == "__main__":
    main()
