#!/usr/bin/env python3
"""Open-loop load at a fixed rate: POSTs messages to random seeded channels and prints the
p50 and p99 latency in milliseconds, measured from each request's scheduled start (so a slow
server cannot hide its queueing by slowing the generator down).

Usage: paced_sends.py PORT API_TOKEN RATE SECONDS [THREADS]
"""
import http.client
import json
import random
import sys
import threading
import time


def worker(port, token, interval, start, deadline, samples, lock):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Api-Token": token, "Content-Type": "application/json"}
    scheduled = start + random.random() * interval
    local = []
    while scheduled < deadline:
        delay = scheduled - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        channel = random.randint(1, 100)
        body = json.dumps({"user_id": f"u{channel % 10 + 1}", "message": "paced"})
        connection.request("POST", f"/v3/group_channels/c{channel}/messages", body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        if response.status != 201:
            sys.exit(f"send answered {response.status}")
        local.append((time.perf_counter() - scheduled) * 1000)
        scheduled += interval
    with lock:
        samples.extend(local)


def main() -> None:
    port, token, rate, seconds = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
    threads = int(sys.argv[5]) if len(sys.argv) > 5 else 16
    samples, lock = [], threading.Lock()
    start = time.perf_counter() + 0.2
    interval = threads / rate
    workers = [threading.Thread(target=worker, args=(port, token, interval, start, start + seconds, samples, lock))
               for _ in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    samples.sort()
    achieved = len(samples) / seconds
    print(f"{achieved:.0f} {samples[len(samples) // 2]:.2f} {samples[int(len(samples) * 0.99) - 1]:.2f}")


if __name__ == "__main__":
    main()
