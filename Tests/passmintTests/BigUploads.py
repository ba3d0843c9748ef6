"""Sends COUNT unauthenticated uploads of SIZE bytes to POST PATH on 127.0.0.1:PORT, every other one with
`Expect: 100-continue`, and prints one JSON list: per upload its status, whether `100 Continue` came, and how many
body bytes the server took before it answered. Standard library only."""
import json, select, socket, sys, time

port, count, size, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
chunk = b"P1,Gold\n" * 8192
results = []
for i in range(count):
    expect = i % 2 == 0
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: {size}\r\n"
    if expect:
        head += "Expect: 100-continue\r\n"
    s.sendall((head + "\r\n").encode())
    sent, answer = 0, b""
    if not expect:
        s.setblocking(False)
        deadline = time.monotonic() + 30
        while sent < size and time.monotonic() < deadline:
            readable, writable, _ = select.select([s], [s], [], 1)
            if readable:
                break
            if writable:
                try:
                    sent += s.send(chunk[: min(len(chunk), size - sent)])
                except (BlockingIOError, InterruptedError):
                    pass
                except OSError:
                    break
        s.setblocking(True)
    s.settimeout(10)
    try:
        while True:
            data = s.recv(65536)
            if not data:
                break
            answer += data
    except OSError as error:
        answer += b"" if answer else f"<{error}>".encode()
    s.close()
    text = answer.decode("latin-1")
    status = int(text.split(" ")[1]) if text.startswith("HTTP/1.1 ") else 0
    if text.startswith("HTTP/1.1 100"):
        rest = text.split("\r\n\r\n", 1)[1] if "\r\n\r\n" in text else ""
        status = int(rest.split(" ")[1]) if rest.startswith("HTTP/1.1 ") else 0
    results.append({"expect": expect, "status": status, "continue": "100 Continue" in text, "sent": sent,
                    "answer": text[:120]})
print(json.dumps(results))
