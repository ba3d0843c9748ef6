"""Holds COUNT slow connections to 127.0.0.1:PORT from SOURCE (each sends a POST head, then one body byte every
INTERVAL seconds) for HOLD seconds, while another address, PROBE, asks GET /healthz every 2 s with a 5 s timeout.
Prints one JSON object: opened, closed_by_server, still_open, probes (seconds per answer, null when none came).
Standard library only; raises its own RLIMIT_NOFILE; closes everything before it exits."""
import json, resource, select, socket, sys, threading, time

port, count, source, probe = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
hold, interval = float(sys.argv[5]), float(sys.argv[6])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 256), hard))

head = b"POST /v1/log HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n"
sockets, closed = {}, 0
for _ in range(count):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    s.bind((source, 0))
    s.settimeout(5)
    try:
        s.connect(("127.0.0.1", port))
        s.sendall(head)
        s.setblocking(False)
        sockets[s.fileno()] = s
    except OSError:
        closed += 1
        s.close()
opened = len(sockets) + closed

probes, done = [], threading.Event()
def ask():
    while not done.is_set():
        started = time.monotonic()
        try:
            c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            c.bind((probe, 0))
            c.settimeout(5)
            c.connect(("127.0.0.1", port))
            c.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = c.recv(100)
            c.close()
            probes.append(round(time.monotonic() - started, 3) if answer.startswith(b"HTTP/1.1 200") else None)
        except OSError:
            probes.append(None)
        done.wait(2)
prober = threading.Thread(target=ask)
prober.start()

poller = select.poll()
for fd in sockets:
    poller.register(fd, select.POLLIN)
def reap(timeout_ms):
    global closed
    for fd, _ in poller.poll(timeout_ms):
        s = sockets.pop(fd, None)
        if s is None:
            continue
        poller.unregister(fd)
        try:
            s.recv(65536)
        except OSError:
            pass
        closed += 1
        s.close()

end = time.monotonic() + hold
next_byte = time.monotonic() + interval
while time.monotonic() < end:
    reap(200)
    if time.monotonic() >= next_byte:
        next_byte += interval
        for s in list(sockets.values()):
            try:
                s.send(b"{")
            except OSError:
                pass
reap(200)
done.set()
prober.join()
still_open = len(sockets)
for s in sockets.values():
    s.close()
print(json.dumps({"opened": opened, "closed_by_server": closed, "still_open": still_open, "probes": probes}))
