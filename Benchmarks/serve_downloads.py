"""First downloads of stored passes through `passmint serve`: CLIENTS keep-alive connections fetch each pass of
a list once (GET /v1/passes/<type>/<serial> with its ApplePass token); every answer must be 200 with a zip body.
Usage: serve_downloads.py PORT LIST CLIENTS SAMPLE_DIR   (LIST: lines "type|serial|token")
Writes the first five passes to SAMPLE_DIR and prints "<passes> <seconds> <bytes>"."""
import http.client
import sys
import threading
import time

port, listing, clients, sample_dir = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
rows = [line.rstrip("\n").split("|") for line in open(listing) if line.strip()]
failures, sizes = [], [0] * clients


def fetch(index):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for n in range(index, len(rows), clients):
        pass_type, serial, token = rows[n]
        connection.request("GET", f"/v1/passes/{pass_type}/{serial}", headers={"Authorization": f"ApplePass {token}"})
        reply = connection.getresponse()
        body = reply.read()
        if reply.status != 200 or body[:2] != b"PK":
            failures.append(f"{serial}: {reply.status}")
            continue
        sizes[index] += len(body)
        if n < 5:
            open(f"{sample_dir}/{serial}.pkpass", "wb").write(body)
    connection.close()


start = time.monotonic()
threads = [threading.Thread(target=fetch, args=(i,)) for i in range(clients)]
for t in threads:
    t.start()
for t in threads:
    t.join()
elapsed = time.monotonic() - start
if failures:
    sys.exit(f"{len(failures)} downloads failed, first: {failures[0]}")
print(len(rows), f"{elapsed:.3f}", sum(sizes))
