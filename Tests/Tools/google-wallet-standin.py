#!/usr/bin/env python3
"""A local HTTPS stand-in for Google's Wallet API and OAuth 2 token endpoint (test tool; run with the venv
scripts/install-deps makes, /opt/passmint-pyenv).

  google-wallet-standin.py --cert PEM --key PEM --service-account KEY.json --issuer ID --log FILE.jsonl
                           [--control FILE.json] [--fetch-images CA.pem]

Prints "PORT <n>" once listening on 127.0.0.1 (any free port), then serves until stdin closes.

It checks what Google checks, as strictly as Google documents it:
- POST /token: the JWT bearer grant; the assertion's RS256 signature with the service account's public key
  (`cryptography`), its header (alg RS256, kid = private_key_id) and claims (iss = client_email, scope = the Wallet
  scope, aud = this endpoint's URL, iat not in the future, exp after now and at most an hour after iat). Answers an
  access token (opaque, random) valid for an hour (or `tokenLifetime` seconds from the control file).
- /walletobjects/v1/{kind}Class|{kind}Object[/{id}[/addMessage]]: a current bearer token (401 otherwise); every
  body validated against Google's discovery document walletobjects.v1.json with Tests/Tools/google-wallet-check.py
  (property names, types, enum values without the deprecated aliases, "Required." fields) (400 otherwise); IDs of
  this issuer; insert of an existing ID 409; patch, get, addMessage of a missing one 404; an object whose class
  does not exist 404; more than 3 TEXT_AND_NOTIFY messages per object in 24 hours 429 (QuotaExceededException).
  Patch replaces the members sent (arrays whole). With --fetch-images every image URL in a body is fetched as
  Google's fetcher would (must answer 200 with an image whose SHA-256 is the URL's name).
- GET /gp/v/save/<JWT>: the save page, for a browser sent to Google's save link (pay.google.com mapped here); it
  shows the JWT in an element with id "jwt".

The control file (re-read on every request) injects Google's transient answers: {"fail": [{"method": "PATCH",
"status": 429, "times": 2, "retryAfter": 1}], "delayMs": 0, "tokenLifetime": 3600}. Every request is logged as one
JSON line: {"method", "path", "status", "body", "errors", "at"}.
"""
import base64
import hashlib
import importlib.util
import json
import os
import secrets
import ssl
import sys
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("google_wallet_check", os.path.join(HERE, "google-wallet-check.py"))
checker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(checker)

SCOPE = "https://www.googleapis.com/auth/wallet_object.issuer"
KINDS = ["loyalty", "eventTicket", "generic", "offer", "flight", "transit", "giftCard"]
MAX_BODY = 1 << 20


def arg(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


with open(arg("--service-account"), encoding="utf-8") as f:
    ACCOUNT = json.load(f)
PUBLIC_KEY = serialization.load_pem_private_key(ACCOUNT["private_key"].encode(), password=None).public_key()
ISSUER = arg("--issuer")
LOG = arg("--log")
CONTROL = arg("--control")
FETCH_CA = arg("--fetch-images")

lock = threading.Lock()
tokens = {}  # token -> expiry (seconds)
resources = {}  # (segment, id) -> JSON object
notices = {}  # object id -> [times of TEXT_AND_NOTIFY messages]
failures_used = {}  # index in the control file's "fail" list -> times used
PORT = [0]


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def control():
    if not CONTROL or not os.path.exists(CONTROL):
        return {}
    try:
        with open(CONTROL, encoding="utf-8") as f:
            return json.load(f)
    except ValueError:
        return {}


def log(entry):
    entry["at"] = time.time()
    with lock:
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")


def check_assertion(assertion):
    """The errors of an OAuth 2 JWT bearer assertion (empty when Google would take it)."""
    try:
        header_part, claims_part, signature_part = assertion.split(".")
        header = json.loads(b64url(header_part))
        claims = json.loads(b64url(claims_part))
        PUBLIC_KEY.verify(
            b64url(signature_part), (header_part + "." + claims_part).encode(), padding.PKCS1v15(), hashes.SHA256()
        )
    except InvalidSignature:
        return ["signature: does not verify with the service account's public key"]
    except (ValueError, TypeError) as error:
        return [f"assertion: not a JWT ({error})"]
    errors = []
    now = time.time()
    if header.get("alg") != "RS256":
        errors.append("header.alg: not RS256")
    if header.get("kid") != ACCOUNT.get("private_key_id"):
        errors.append("header.kid: not the key file's private_key_id")
    if claims.get("iss") != ACCOUNT["client_email"]:
        errors.append("iss: not the service account's client_email")
    if claims.get("scope") != SCOPE:
        errors.append(f"scope: {claims.get('scope')!r}, not the Wallet scope")
    if claims.get("aud") != f"https://127.0.0.1:{PORT[0]}/token":
        errors.append(f"aud: {claims.get('aud')!r}, not this token endpoint")
    iat, exp = claims.get("iat"), claims.get("exp")
    if not isinstance(iat, int) or iat > now + 60:
        errors.append("iat: missing or in the future")
    if not isinstance(exp, int) or exp <= now or (isinstance(iat, int) and exp - iat > 3600):
        errors.append("exp: missing, past, or more than an hour after iat")
    return errors


def image_errors(value, path="body"):
    """Fetches every image URL in `value` as Google's fetcher would; returns what failed."""
    errors = []
    if isinstance(value, dict):
        source = value.get("sourceUri")
        if isinstance(source, dict) and isinstance(source.get("uri"), str):
            uri = source["uri"]
            name = uri.rsplit("/", 1)[-1].split(".")[0]
            try:
                context = ssl.create_default_context(cafile=FETCH_CA)
                with urllib.request.urlopen(uri, timeout=10, context=context) as answer:
                    data = answer.read()
                    kind = answer.headers.get("Content-Type", "")
                if not kind.startswith("image/"):
                    errors.append(f"{path}.sourceUri.uri: {uri} answered {kind}, not an image")
                elif not hashlib.sha256(data).hexdigest().startswith(name) or len(name) < 32:
                    errors.append(f"{path}.sourceUri.uri: {uri} answered bytes of another digest")
            except Exception as error:  # noqa: BLE001 - any failure is the image being unreachable
                errors.append(f"{path}.sourceUri.uri: {uri} cannot be fetched ({error})")
        for key, item in value.items():
            errors += image_errors(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            errors += image_errors(item, f"{path}[{i}]")
    return errors


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=None, content_type="application/json"):
        # Recorded before the answer is written: a client killed mid-request still had its request applied (as
        # Google would), and the log must say so.
        self.entry["status"] = status
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def google_error(self, status, message, errors=None, headers=None):
        self.answer(status, {"error": {"code": status, "message": message, "errors": errors or []}}, headers)
        return status

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return None
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PATCH(self):
        self.handle_any("PATCH")

    def do_PUT(self):
        self.handle_any("PUT")

    def handle_any(self, method):
        raw = self.read_body()
        path = urllib.parse.urlsplit(self.path).path
        entry = {"method": method, "path": path, "body": None, "errors": []}
        self.entry = entry
        settings = control()
        if settings.get("delayMs"):
            time.sleep(settings["delayMs"] / 1000)
        try:
            if raw is None:
                self.google_error(413, "body too large")
            elif path == "/token" and method == "POST":
                self.token(raw, entry, settings)
            elif path.startswith("/gp/v/save/") and method == "GET":
                self.save(path[len("/gp/v/save/"):], entry)
            elif path.startswith("/walletobjects/v1/"):
                self.api(method, path[len("/walletobjects/v1/"):], raw, entry, settings)
            else:
                self.google_error(404, f"no such endpoint: {method} {path}")
        finally:
            # Also when the client went away before the answer was written: what was applied is logged.
            if "status" in entry:
                log(entry)

    def save(self, jwt, entry):
        """What Google does when the holder saves a link: the JWT must be the service account's, and the classes
        and objects it carries are created (an object that exists is not overwritten; a reference must exist)."""
        entry["body"] = {"jwt": jwt}
        errors = []
        try:
            header_part, claims_part, signature_part = jwt.split(".")
            PUBLIC_KEY.verify(
                b64url(signature_part), (header_part + "." + claims_part).encode(), padding.PKCS1v15(), hashes.SHA256()
            )
            claims = json.loads(b64url(claims_part))
        except (InvalidSignature, ValueError, TypeError):
            claims, errors = {}, ["the JWT does not verify with the service account's key"]
        if not errors:
            for member, expected in (("aud", "google"), ("typ", "savetowallet"), ("iss", ACCOUNT["client_email"])):
                if claims.get(member) != expected:
                    errors.append(f"{member}: not {expected!r}")
            errors += checker.check_payload(claims.get("payload"))
        if not errors:
            with lock:
                for key, items in sorted(claims["payload"].items(), key=lambda kv: not kv[0].endswith("Classes")):
                    segment = key[:-2] if key.endswith("Classes") else key[:-1]
                    for item in items:
                        if set(item) <= {"id", "classId"}:
                            if (segment, item["id"]) not in resources:
                                errors.append(f"object {item['id']} referenced by the link does not exist")
                            continue
                        if segment.endswith("Object") and (segment[:-6] + "Class", item.get("classId")) not in resources:
                            errors.append(f"class {item.get('classId')} of object {item['id']} does not exist")
                            continue
                        resources.setdefault((segment, item["id"]), item)
        entry["errors"] = errors
        status = 400 if errors else 200
        title = "Something went wrong" if errors else "Saved to Google Wallet (stand-in)"
        page = (
            f"<!DOCTYPE html><html><head><title>{title}</title></head><body><h1 id=\"save\">{title}</h1>"
            f"<pre id=\"jwt\">{jwt}</pre></body></html>"
        )
        self.answer(status, page.encode(), content_type="text/html; charset=utf-8")
        return status

    def token(self, raw, entry, settings):
        if self.headers.get("Content-Type", "").split(";")[0] != "application/x-www-form-urlencoded":
            return self.google_error(400, "the token request must be form-encoded")
        form = urllib.parse.parse_qs(raw.decode(), strict_parsing=True)
        if form.get("grant_type") != ["urn:ietf:params:oauth:grant-type:jwt-bearer"] or len(form.get("assertion", [])) != 1:
            self.answer(400, {"error": "unsupported_grant_type"})
            return 400
        errors = check_assertion(form["assertion"][0])
        entry["errors"] = errors
        if errors:
            self.answer(400, {"error": "invalid_grant", "error_description": "; ".join(errors)})
            return 400
        lifetime = int(settings.get("tokenLifetime", 3600))
        token = "ya29.standin-" + secrets.token_urlsafe(24)
        with lock:
            tokens[token] = time.time() + lifetime
        self.answer(200, {"access_token": token, "token_type": "Bearer", "expires_in": lifetime})
        return 200

    def injected(self, method, settings):
        """A failure the control file asks for, answered here; None otherwise."""
        for index, rule in enumerate(settings.get("fail", [])):
            if rule.get("method", method) != method or rule.get("pathContains", "") not in self.path:
                continue
            with lock:
                used = failures_used.get(index, 0)
                if used >= rule.get("times", 1):
                    continue
                failures_used[index] = used + 1
            headers = {"Retry-After": str(rule["retryAfter"])} if "retryAfter" in rule else None
            return self.google_error(rule["status"], rule.get("message", "injected by the test"), headers=headers)
        return None

    def api(self, method, rest, raw, entry, settings):
        authorization = self.headers.get("Authorization", "")
        with lock:
            expiry = tokens.get(authorization[len("Bearer "):]) if authorization.startswith("Bearer ") else None
        if expiry is None or expiry < time.time():
            return self.google_error(401, "Request had invalid authentication credentials.")
        injected = self.injected(method, settings)
        if injected is not None:
            return injected
        parts = [urllib.parse.unquote(p) for p in rest.split("/")]
        segment = parts[0]
        part = "class" if segment.endswith("Class") else "object" if segment.endswith("Object") else None
        kind = segment[: -len("Class")] if part == "class" else segment[: -len("Object")] if part == "object" else None
        if kind not in KINDS:
            return self.google_error(404, f"no resource {segment}")
        body = None
        if raw:
            if not self.headers.get("Content-Type", "").startswith("application/json"):
                return self.google_error(400, "the body must be application/json")
            try:
                body = json.loads(raw)
            except ValueError:
                return self.google_error(400, "the body is not JSON")
        entry["body"] = body
        if len(parts) == 1 and method == "POST":
            return self.insert(segment, kind, part, body, entry)
        if len(parts) == 2 and method in ("PATCH", "GET"):
            return self.patch_or_get(method, segment, kind, part, parts[1], body, entry)
        if len(parts) == 3 and parts[2] == "addMessage" and method == "POST" and part == "object":
            return self.add_message(segment, parts[1], body, entry)
        return self.google_error(404, f"no method {method} /{rest}")

    def validate(self, kind, part, body, entry):
        if not isinstance(body, dict):
            entry["errors"] = ["body: not a JSON object"]
        else:
            entry["errors"] = checker.check_resource(kind, part, body, part)
            if not str(body.get("id", "")).startswith(ISSUER + "."):
                entry["errors"].append(f"{part}.id: not of issuer {ISSUER}")
            if FETCH_CA is not None:
                entry["errors"] += image_errors(body)
        if entry["errors"]:
            return self.google_error(400, "Invalid argument: " + "; ".join(entry["errors"][:5]), entry["errors"])
        return None

    def class_missing(self, kind, part, body):
        if part != "object":
            return False
        with lock:
            return (kind + "Class", body.get("classId")) not in resources

    def insert(self, segment, kind, part, body, entry):
        refused = self.validate(kind, part, body, entry)
        if refused:
            return refused
        if self.class_missing(kind, part, body):
            return self.google_error(404, f"Class {body.get('classId')} not found (IssuerClassNotFoundException)")
        with lock:
            if (segment, body["id"]) in resources:
                exists = True
            else:
                exists = False
                resources[(segment, body["id"])] = body
        if exists:
            return self.google_error(409, f"Resource {body['id']} already exists (AlreadyExistsException)")
        self.answer(200, body)
        return 200

    def patch_or_get(self, method, segment, kind, part, resource_id, body, entry):
        with lock:
            current = resources.get((segment, resource_id))
        if current is None:
            return self.google_error(404, f"Resource {resource_id} not found (NotFoundException)")
        if method == "GET":
            self.answer(200, current)
            return 200
        if not isinstance(body, dict) or body.get("id", resource_id) != resource_id:
            return self.google_error(400, "the body's id is not the resource's")
        merged = dict(current)
        merged.update(body)
        refused = self.validate(kind, part, merged, entry)
        if refused:
            return refused
        if self.class_missing(kind, part, merged):
            return self.google_error(404, f"Class {merged.get('classId')} not found (IssuerClassNotFoundException)")
        with lock:
            resources[(segment, resource_id)] = merged
        self.answer(200, merged)
        return 200

    def add_message(self, segment, resource_id, body, entry):
        errors = []
        if not isinstance(body, dict):
            errors = ["body: not a JSON object"]
        else:
            checker.check_object(body, "AddMessageRequest", "body", errors)
            if not isinstance(body.get("message"), dict):
                errors.append("body.message: missing")
        entry["errors"] = errors
        if errors:
            return self.google_error(400, "Invalid argument: " + "; ".join(errors[:5]), errors)
        message = body["message"]
        with lock:
            current = resources.get((segment, resource_id))
            if current is None:
                refused = 404
            else:
                refused = None
                now = time.time()
                recent = [t for t in notices.get(resource_id, []) if t > now - 86400]
                if message.get("messageType") == "TEXT_AND_NOTIFY":
                    if len(recent) >= 3:
                        refused = 429
                    else:
                        recent.append(now)
                notices[resource_id] = recent
                if refused is None:
                    current = dict(current)
                    current["messages"] = list(current.get("messages", [])) + [message]
                    resources[(segment, resource_id)] = current
        if refused == 404:
            return self.google_error(404, f"Resource {resource_id} not found (NotFoundException)")
        if refused == 429:
            return self.google_error(429, "QuotaExceededException: 3 notifications per pass per 24 hours")
        self.answer(200, {"resource": current})
        return 200


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(arg("--cert"), arg("--key"))
    server.socket = context.wrap_socket(server.socket, server_side=True)
    PORT[0] = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"PORT {PORT[0]}", flush=True)
    sys.stdin.read()  # the test closes stdin (or dies) to stop us
    server.shutdown()


if __name__ == "__main__":
    main()
