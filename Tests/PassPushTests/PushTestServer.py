#!/usr/bin/env python3
"""A scriptable APNs stand-in for PassMint's push tests: HTTP/2 over TLS, client certificate required.

usage: PushTestServer.py --cert SERVER.pem --key SERVER.key --ca CA.pem --log FILE.jsonl
                         [--token-key PUBLIC.pem --token-key-id KID --token-team TEAM --token-topics T1,T2
                          [--clock-file FILE]]

Listens on 127.0.0.1 on a free port and prints "PORT <n>" on stdout once ready. Exits when stdin closes
(so it never outlives the test that started it) or on SIGTERM.

The answer depends on the device token's first characters (tokens are hex):
  410  -> 410 {"reason":"Unregistered","timestamp":...}
  400b -> 400 {"reason":"BadDeviceToken"}        400d -> 400 {"reason":"DeviceTokenNotForTopic"}
  400a -> 400 {"reason":"BadTopic"}              403  -> 403 {"reason":"Forbidden"}
  429  -> 429 {"reason":"TooManyRequests"}       500  -> 500 {"reason":"InternalServerError"}
  503  -> 503 (no body)                          anything else -> 200 (no body)
Every answer carries an apns-id header. Every request is appended to the log as one JSON line:
  {"connection": n, "stream": id, "method", "path", "headers": [[name, value], ...], "body", "client_cn",
   "auth": "certificate" | "token" | null, "token_iat": n | null, "status": n, "reason": ... }
and every accepted TLS connection as {"event": "connection", "connection": n, "client_cn": ...}.

With --token-key the server also takes token authentication as APNs documents it ("Establishing a token-based
connection to APNs"), and then a client certificate is optional: a request with `authorization: bearer <JWT>` is
checked before the answer by token prefix above: the JWT's header must be {"alg": "ES256", "kid": KID}, its claims
{"iss": TEAM, "iat": seconds}, its signature valid ES256 (raw r||s) over `header.claims` with PUBLIC.pem
(403 InvalidProviderToken otherwise, also for an iat more than a minute in the future); older than an hour:
403 ExpiredProviderToken; a new token (another iat) less than 20 minutes after the last one accepted:
429 TooManyProviderTokenUpdates (an expired token does not count: its replacement is accepted); a topic not in
--token-topics: 400 TopicDisallowed. A request without a token needs a client certificate (403
MissingProviderToken) whose UID, or CN after "Pass Type ID: ", is the apns-topic (400 TopicDisallowed otherwise).
"Now" is the number of seconds in --clock-file when it exists (a test's injected clock), else the real time.
"""
import argparse
import asyncio
import base64
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


def subject_field(writer, name):
    cert = writer.get_extra_info("peercert") or {}
    for rdn in cert.get("subject", ()):
        for key, value in rdn:
            if key == name:
                return value
    return None


def client_cn(writer):
    return subject_field(writer, "commonName")


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class TokenAuth:
    """Provider token checks (see the module docstring)."""

    def __init__(self, args):
        from cryptography.hazmat.primitives.serialization import load_pem_public_key
        with open(args.token_key, "rb") as file:
            self.public_key = load_pem_public_key(file.read())
        self.key_id = args.token_key_id
        self.team = args.token_team
        self.topics = set(filter(None, (args.token_topics or "").split(",")))
        self.clock_file = args.clock_file
        self.last_iat = None

    def now(self):
        if self.clock_file and os.path.exists(self.clock_file):
            with open(self.clock_file, encoding="utf-8") as file:
                text = file.read().strip()
            if text:
                return float(text)
        return time.time()

    def check(self, authorization, topic):
        """(status, reason, iat) of a refusal, or (None, None, iat) when the token is accepted."""
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or token.count(".") != 2:
            return 403, "InvalidProviderToken", None
        header_part, claims_part, signature_part = token.split(".")
        try:
            header = json.loads(b64url(header_part))
            claims = json.loads(b64url(claims_part))
            signature = b64url(signature_part)
        except ValueError:
            return 403, "InvalidProviderToken", None
        iat = claims.get("iat") if isinstance(claims, dict) else None
        if header != {"alg": "ES256", "kid": self.key_id} or set(claims) != {"iss", "iat"}:
            return 403, "InvalidProviderToken", iat
        if claims.get("iss") != self.team or not isinstance(iat, int) or len(signature) != 64:
            return 403, "InvalidProviderToken", iat
        r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
        try:
            self.public_key.verify(encode_dss_signature(r, s), f"{header_part}.{claims_part}".encode(),
                                   ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return 403, "InvalidProviderToken", iat
        now = self.now()
        if iat > now + 60:
            return 403, "InvalidProviderToken", iat
        if now - iat > 3600:
            self.last_iat = None
            return 403, "ExpiredProviderToken", iat
        if self.last_iat is not None and iat != self.last_iat and abs(iat - self.last_iat) < 1200:
            return 429, "TooManyProviderTokenUpdates", iat
        if topic not in self.topics:
            return 400, "TopicDisallowed", iat
        self.last_iat = iat
        return None, None, iat


async def serve_connection(reader, writer, number, log, tokens):
    cn = client_cn(writer)
    uid = subject_field(writer, "userId")
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
                        respond(conn, event.stream_id, request, number, (cn, uid), log, tokens)
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


def authenticate(headers, client, tokens):
    """(auth, status, reason, iat): how the request authenticated and the refusal, if any (token mode only)."""
    cn, uid = client
    authorization = headers.get("authorization")
    if tokens is None:
        return "certificate", None, None, None
    topic = headers.get("apns-topic")
    if authorization is not None:
        status, reason, iat = tokens.check(authorization, topic)
        return "token", status, reason, iat
    if cn is None:
        return None, 403, "MissingProviderToken", None
    certified = uid or (cn[len("Pass Type ID: "):] if cn.startswith("Pass Type ID: ") else cn)
    if topic != certified:
        return "certificate", 400, "TopicDisallowed", None
    return "certificate", None, None, None


def respond(conn, stream_id, request, number, client, log, tokens):
    headers = dict(request["headers"])
    auth, status, reason, iat = authenticate(headers, client, tokens)
    if status is None:
        status, reason = answer_for(headers.get(":path", ""))
    log.write({
        "connection": number,
        "stream": stream_id,
        "method": headers.get(":method"),
        "path": headers.get(":path"),
        "headers": [[name, value] for name, value in request["headers"]],
        "body": request["body"].decode("utf-8", "replace"),
        "client_cn": client[0],
        "auth": auth,
        "token_iat": iat,
        "status": status,
        "reason": reason,
    })
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
    parser.add_argument("--token-key", help="PEM public key of the APNs auth key: take token authentication")
    parser.add_argument("--token-key-id")
    parser.add_argument("--token-team")
    parser.add_argument("--token-topics", help="comma-separated pass type IDs of the token's team")
    parser.add_argument("--clock-file", help="a file holding the seconds since 1970 the server takes as now")
    args = parser.parse_args()
    tokens = TokenAuth(args) if args.token_key else None

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH, cafile=args.ca)
    context.load_cert_chain(args.cert, args.key)
    context.verify_mode = ssl.CERT_OPTIONAL if tokens else ssl.CERT_REQUIRED
    context.set_alpn_protocols(["h2"])
    log = Log(args.log)
    counter = {"next": 0}

    async def accept(reader, writer):
        counter["next"] += 1
        await serve_connection(reader, writer, counter["next"], log, tokens)

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
