#!/usr/bin/env python3
"""A scriptable APNs stand-in for PassMint's push tests: HTTP/2 over TLS, client certificate required.

usage: PushTestServer.py --cert SERVER.pem --key SERVER.key --ca CA.pem --log FILE.jsonl

Listens on 127.0.0.1 on a free port and prints "PORT <n>" on stdout once ready. Exits when stdin closes
(so it never outlives the test that started it) or on SIGTERM.

The answer depends on the device token's first characters (tokens are hex):
  410  -> 410 {"reason":"Unregistered","timestamp":...}
  400b -> 400 {"reason":"BadDeviceToken"}        400d -> 400 {"reason":"DeviceTokenNotForTopic"}
  400a -> 400 {"reason":"BadTopic"}              403  -> 403 {"reason":"Forbidden"}
  429  -> 429 {"reason":"TooManyRequests"}       500  -> 500 {"reason":"InternalServerError"}
  503  -> 503 (no body)                          anything else -> 200 (no body)
Every answer carries an apns-id header. Every request is appended to the log as one JSON line:
  {"connection": n, "stream": id, "method", "path", "headers": [[name, value], ...], "body", "client_cn"}
and every accepted TLS connection as {"event": "connection", "connection": n, "client_cn": ...}.
"""
import argparse
import asyncio
import json
import os
import signal
import ssl
import sys
import threading
import time
import uuid

from h2.config import H2Configuration
from h2.connection import H2Connection
from h2.events import ConnectionTerminated, DataReceived, RequestReceived, StreamEnded, StreamReset
from h2.settings import SettingCodes

ANSWERS = [
    ("410", 410, "Unregistered"),
    ("400b", 400, "BadDeviceToken"),
    ("400d", 400, "DeviceTokenNotForTopic"),
    ("400a", 400, "BadTopic"),
    ("403", 403, "Forbidden"),
    ("429", 429, "TooManyRequests"),
    ("500", 500, "InternalServerError"),
    ("503", 503, None),
]


def answer_for(path):
    token = path.rsplit("/", 1)[-1].lower()
    for prefix, status, reason in ANSWERS:
        if token.startswith(prefix):
            return status, reason
    return 200, None


class Log:
    def __init__(self, path):
        self.file = open(path, "a", encoding="utf-8")

    def write(self, record):
        self.file.write(json.dumps(record) + "\n")
        self.file.flush()


def client_cn(writer):
    cert = writer.get_extra_info("peercert") or {}
    for rdn in cert.get("subject", ()):
        for key, value in rdn:
            if key == "commonName":
                return value
    return None


async def serve_connection(reader, writer, number, log):
    cn = client_cn(writer)
    log.write({"event": "connection", "connection": number, "client_cn": cn})
    conn = H2Connection(config=H2Configuration(client_side=False, header_encoding="utf-8"))
    conn.initiate_connection()
    conn.update_settings({SettingCodes.MAX_CONCURRENT_STREAMS: 1000})
    writer.write(conn.data_to_send())
    streams = {}
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            for event in conn.receive_data(data):
                if isinstance(event, RequestReceived):
                    streams[event.stream_id] = {"headers": event.headers, "body": b""}
                elif isinstance(event, DataReceived):
                    if event.stream_id in streams:
                        streams[event.stream_id]["body"] += event.data
                    conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, StreamEnded):
                    request = streams.pop(event.stream_id, None)
                    if request is not None:
                        respond(conn, event.stream_id, request, number, cn, log)
                elif isinstance(event, StreamReset):
                    streams.pop(event.stream_id, None)
                elif isinstance(event, ConnectionTerminated):
                    writer.write(conn.data_to_send())
                    await writer.drain()
                    return
            writer.write(conn.data_to_send())
            await writer.drain()
    except (ConnectionError, ssl.SSLError):
        pass
    finally:
        writer.close()


def respond(conn, stream_id, request, number, cn, log):
    headers = dict(request["headers"])
    log.write({
        "connection": number,
        "stream": stream_id,
        "method": headers.get(":method"),
        "path": headers.get(":path"),
        "headers": [[name, value] for name, value in request["headers"]],
        "body": request["body"].decode("utf-8", "replace"),
        "client_cn": cn,
    })
    status, reason = answer_for(headers.get(":path", ""))
    body = b""
    if reason is not None:
        payload = {"reason": reason}
        if status == 410:
            payload["timestamp"] = int(time.time() * 1000)
        body = json.dumps(payload).encode()
    response = [(":status", str(status)), ("apns-id", str(uuid.uuid4()).upper())]
    if body:
        response += [("content-type", "application/json"), ("content-length", str(len(body)))]
    conn.send_headers(stream_id, response, end_stream=not body)
    if body:
        conn.send_data(stream_id, body, end_stream=True)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH, cafile=args.ca)
    context.load_cert_chain(args.cert, args.key)
    context.verify_mode = ssl.CERT_REQUIRED
    context.set_alpn_protocols(["h2"])
    log = Log(args.log)
    counter = {"next": 0}

    async def accept(reader, writer):
        counter["next"] += 1
        await serve_connection(reader, writer, counter["next"], log)

    server = await asyncio.start_server(accept, "127.0.0.1", 0, ssl=context)
    port = server.sockets[0].getsockname()[1]
    print(f"PORT {port}", flush=True)
    async with server:
        await server.serve_forever()


def exit_when_stdin_closes():
    sys.stdin.read()
    os._exit(0)


if __name__ == "__main__":
    # The parent (a test runner) may have SIGTERM blocked; that mask is inherited: unblock everything.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    asyncio.run(main())
