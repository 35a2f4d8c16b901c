"""The unavailability window of a failover (issue 51.5), for scripts/bench/ha.

Eight threads send messages (each with a dedup id; after a 503 the same message again, as
clients are told to) to the server on PORT as the admin, into the channels c1..c100; after
3 seconds FAULT runs (a command, waited for), and the sends go on until SECONDS. Prints:
window (s, the longest time in which no send succeeded), sends
acknowledged, answers 503, other answers (should be 0), and the load generator's CPU seconds.
Usage: failover-window.py PORT API_TOKEN SECONDS FAULT...
"""
import http.client
import json
import resource
import subprocess
import sys
import threading
import time

port, token, seconds, fault = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4:]
answers = []  # (sent, answered, status)
lock = threading.Lock()
start = time.monotonic()


def sender(index):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    number = 0
    while time.monotonic() - start < seconds:
        number += 1
        body = json.dumps({"user_id": f"u{index % 10 + 1}", "message": f"w{index}-{number}", "dedup_id": f"w{index}-{number}"})
        while True:
            sent = time.monotonic()
            try:
                connection.request("POST", f"/v3/group_channels/c{index * 7 % 100 + 1}/messages", body,
                                   {"Api-Token": token, "Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                status = response.status
            except OSError:
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                status = 0
            with lock:
                answers.append((sent, time.monotonic(), status))
            if 200 <= status < 300 or status != 503:
                break
            time.sleep(0.2)


threads = [threading.Thread(target=sender, args=(i,)) for i in range(8)]
for thread in threads:
    thread.start()
time.sleep(3)
subprocess.run(fault, check=True, stdout=subprocess.DEVNULL)
for thread in threads:
    thread.join()
failed = [a for a in answers if a[2] == 503]
# The longest time in which no send succeeded.
successes = sorted(a[1] for a in answers if 200 <= a[2] < 300)
window = max((b - a for a, b in zip(successes, successes[1:])), default=0.0) if failed else 0.0
usage = resource.getrusage(resource.RUSAGE_SELF)
print(f"{window:.2f} {sum(1 for a in answers if 200 <= a[2] < 300)} {len(failed)} "
      f"{sum(1 for a in answers if not 200 <= a[2] < 300 and a[2] != 503)} {usage.ru_utime + usage.ru_stime:.1f}")
