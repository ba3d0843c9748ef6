#!/usr/bin/env python3
"""A Wallet device simulator for PassMint's end-to-end tests (Python standard library only).

usage: WalletDeviceSimulator.py --pass FILE.pkpass [--base URL] [--devices N] [--device-prefix ID]
                                [--token-prefix HEX] [--wait-file PATH | --wait-stdin] [--timeout S]
                                [--out-dir DIR] [--threads N] [--step STEP]...

It reads pass.json from the .pkpass like a phone does (webServiceURL, authenticationToken, passTypeIdentifier,
serialNumber; --base overrides the URL) and walks Wallet's sequence (wallet-spec §6, §7) for N devices, each
with its own device library ID (PREFIX0000, PREFIX0001, ...) and 64-hex-digit push token (HEX prefix + number):

  register        POST   /v1/devices/D/registrations/PT/S  {"pushToken"}   -> 201
  register-again  POST   (same, same token)                                -> 200
  list            GET    /v1/devices/D/registrations/PT                    -> 200 {serialNumbers, lastUpdated}
  download        GET    /v1/passes/PT/S                                   -> 200 pkpass + Last-Modified
  list-unchanged  GET    ...registrations/PT?passesUpdatedSince=TAG        -> 204 (a reboot: nothing changed)
  download-unchanged GET /v1/passes/PT/S  If-Modified-Since: LM            -> 304, no body
  wait            (all devices) until PATH exists / a line arrives on stdin: the push has reached the phone
  list-since      GET    ...registrations/PT?passesUpdatedSince=TAG        -> 200, S listed, new lastUpdated
  download-updated GET   /v1/passes/PT/S  If-Modified-Since: LM            -> 200, later Last-Modified
  download-again  GET    /v1/passes/PT/S  If-Modified-Since: new LM        -> 304
  unregister      DELETE /v1/devices/D/registrations/PT/S                  -> 200
  list-after      GET    /v1/devices/D/registrations/PT                    -> 204 (no registrations left)

Each step prints one JSON line: {"device", "step", "method", "path", "status", "headers", "body"}; the updated
download adds "notifications" (the changeMessage texts Wallet would show, for fields whose value changed).
Before waiting, each device prints {"device", "step": "waiting"}; at the end {"result": "ok", "devices": N}.
On the first deviation from Apple's protocol (status, content type, JSON shape, Last-Modified, manifest hashes,
immutable keys) it prints {"device", "step", "error"} and exits 1. Downloaded passes are kept in --out-dir as
DEVICE-1.pkpass (first download) and DEVICE-2.pkpass (after the update).

With --step (repeatable) each device walks the given steps instead, in order, to script what a phone does when
something goes wrong; each prints its JSON line and none is checked beyond getting an HTTP answer:
  register            POST the registration (the device's push token)
  unregister          DELETE the registration
  list                GET the list with no passesUpdatedSince
  list-since          ... with the lastUpdated of the device's last 200 list
  list-since=TAG      ... with TAG
  download            GET the pass with no If-Modified-Since
  download-ims        ... with the Last-Modified of the device's last 200 download
  download-ims=DATE   ... with DATE as If-Modified-Since
  log=TEXT            POST /v1/log {"logs": [TEXT]}; {serial}, {passType}, {device} and {url} are filled in
  wait                (all devices) until the push arrived, as --wait-file / --wait-stdin
"""
import argparse
import concurrent.futures
import email.utils
import hashlib
import http.client
import io
import json
import os
import sys
import threading
import time
import urllib.parse
import zipfile

PRINT_LOCK = threading.Lock()
IMMUTABLE = ("serialNumber", "passTypeIdentifier", "authenticationToken", "webServiceURL")
FIELD_GROUPS = ("headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields")
STYLES = ("boardingPass", "coupon", "eventTicket", "generic", "storeCard")


class Deviation(Exception):
    """The server answered something Wallet would not accept."""


def emit(record):
    with PRINT_LOCK:
        sys.stdout.write(json.dumps(record, sort_keys=True) + "\n")
        sys.stdout.flush()


def read_pass(data, where):
    """pass.json of a .pkpass after checking every manifest hash (Wallet refuses a pass otherwise)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = set(archive.namelist())
        manifest = json.loads(archive.read("manifest.json"))
        if "signature" not in names:
            raise Deviation(f"{where}: the pass has no signature file")
        for name in names - {"manifest.json", "signature"}:
            if name.endswith("/"):
                continue
            digest = hashlib.sha1(archive.read(name)).hexdigest()
            if manifest.get(name) != digest:
                raise Deviation(f"{where}: manifest.json has no matching SHA-1 for {name}")
        return json.loads(archive.read("pass.json"))
    except (zipfile.BadZipFile, KeyError, ValueError) as error:
        raise Deviation(f"{where}: not a readable pass archive: {error}")


def fields(pass_json):
    """key -> field dictionary over every field group of the pass style."""
    result = {}
    for style in STYLES:
        for group in FIELD_GROUPS:
            for field in pass_json.get(style, {}).get(group, []):
                result[field.get("key")] = field
    return result


def notifications(old, new):
    """The changeMessage texts Wallet shows: fields whose value changed and that carry a changeMessage."""
    texts = []
    before = fields(old)
    for key, field in fields(new).items():
        message = field.get("changeMessage")
        if message and key in before and before[key].get("value") != field.get("value"):
            texts.append(message.replace("%@", str(field.get("value"))))
    return sorted(texts)


def http_date(text, where):
    if not text:
        raise Deviation(f"{where}: no Last-Modified header on a 200")
    parsed = email.utils.parsedate_to_datetime(text) if text else None
    if parsed is None or not text.endswith("GMT"):
        raise Deviation(f"{where}: Last-Modified {text!r} is not an RFC 7231 HTTP-date")
    return parsed.timestamp()


class Device:
    def __init__(self, options, number, info):
        self.options = options
        self.id = f"{options.device_prefix}{number:04d}"
        tail = f"{number:08x}"
        self.token = options.token_prefix + "0" * (64 - len(options.token_prefix) - len(tail)) + tail
        self.info = info
        self.base = urllib.parse.urlsplit(info["base"])
        self.connection = None
        self.pass_json = None
        self.last_modified = None
        self.tag = None

    # HTTP

    def request(self, step, method, path, headers=None, body=None):
        headers = dict(headers or {})
        headers.setdefault("User-Agent", "passd/1.0 (PassMint simulator)")
        payload = json.dumps(body).encode() if body is not None else None
        if payload is not None:
            headers["Content-Type"] = "application/json"
        full = self.base.path.rstrip("/") + path
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.base.hostname, self.base.port or 80, timeout=30)
            try:
                self.connection.request(method, full, body=payload, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                break
            except (ConnectionError, http.client.HTTPException):
                self.connection.close()
                self.connection = None
                if attempt == 2:
                    raise
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
            self.connection = None
        record = {
            "device": self.id,
            "step": step,
            "method": method,
            "path": full,
            "status": response.status,
            "headers": {
                name: response.getheader(name)
                for name in ("Content-Type", "Last-Modified", "Content-Length")
                if response.getheader(name) is not None
            },
            "body": summary(response.getheader("Content-Type"), data),
        }
        return response, data, record

    def expect(self, step, record, status, response, data):
        if record["status"] != status:
            raise Deviation(f"{step}: expected {status}, got {record['status']} ({record['body']})")
        if status in (204, 304) and data:
            raise Deviation(f"{step}: a {status} must have no body, got {len(data)} bytes")

    def auth(self):
        return {"Authorization": "ApplePass " + self.info["authenticationToken"]}

    def registration_path(self):
        return f"/v1/devices/{self.id}/registrations/{self.info['passTypeIdentifier']}/{self.info['serialNumber']}"

    def list_path(self, since=None):
        path = f"/v1/devices/{self.id}/registrations/{self.info['passTypeIdentifier']}"
        return path + ("?passesUpdatedSince=" + urllib.parse.quote(since) if since is not None else "")

    def pass_path(self):
        return f"/v1/passes/{self.info['passTypeIdentifier']}/{self.info['serialNumber']}"

    # steps

    def register(self, step, status):
        response, data, record = self.request(
            step, "POST", self.registration_path(), self.auth(), {"pushToken": self.token})
        emit(record)
        self.expect(step, record, status, response, data)

    def list(self, step, since, status):
        response, data, record = self.request(step, "GET", self.list_path(since))
        emit(record)
        self.expect(step, record, status, response, data)
        if status != 200:
            return None
        if not (response.getheader("Content-Type") or "").startswith("application/json"):
            raise Deviation(f"{step}: Content-Type must be application/json, got {response.getheader('Content-Type')}")
        try:
            body = json.loads(data)
        except ValueError:
            raise Deviation(f"{step}: the body is not JSON: {data[:200]!r}")
        if not isinstance(body, dict) or set(body) != {"serialNumbers", "lastUpdated"}:
            raise Deviation(f"{step}: the body must be exactly {{serialNumbers, lastUpdated}}, got {body}")
        serials = body["serialNumbers"]
        if not isinstance(serials, list) or not all(isinstance(s, str) for s in serials) or not serials:
            raise Deviation(f"{step}: serialNumbers must be a non-empty array of strings, got {serials!r}")
        if not isinstance(body["lastUpdated"], str) or not body["lastUpdated"]:
            raise Deviation(f"{step}: lastUpdated must be a non-empty string, got {body['lastUpdated']!r}")
        if self.info["serialNumber"] not in serials:
            raise Deviation(f"{step}: serial {self.info['serialNumber']} is not listed in {serials}")
        if len(set(serials)) != len(serials):
            raise Deviation(f"{step}: serialNumbers lists a serial twice: {serials}")
        return body["lastUpdated"]

    def download(self, step, if_modified_since, status):
        headers = self.auth()
        if if_modified_since is not None:
            headers["If-Modified-Since"] = if_modified_since
        response, data, record = self.request(step, "GET", self.pass_path(), headers)
        if status == 200 and record["status"] == 200 and self.pass_json is not None:
            try:
                record["notifications"] = notifications(self.pass_json, read_pass(data, step))
            except Deviation:
                pass  # reported below with the full checks
        emit(record)
        self.expect(step, record, status, response, data)
        if status != 200:
            return None, None
        if response.getheader("Content-Type") != "application/vnd.apple.pkpass":
            raise Deviation(f"{step}: Content-Type must be application/vnd.apple.pkpass, got "
                            f"{response.getheader('Content-Type')}")
        modified = response.getheader("Last-Modified")
        http_date(modified, step)
        pass_json = read_pass(data, step)
        for key in IMMUTABLE:
            if pass_json.get(key) != self.info.get(key):
                raise Deviation(f"{step}: {key} changed from {self.info.get(key)!r} to {pass_json.get(key)!r}")
        return pass_json, (modified, data)

    def save(self, data, number):
        if self.options.out_dir:
            with open(os.path.join(self.options.out_dir, f"{self.id}-{number}.pkpass"), "wb") as file:
                file.write(data)

    def before_push(self):
        self.register("register", 201)
        self.register("register-again", 200)
        self.tag = self.list("list", None, 200)
        self.pass_json, (self.last_modified, data) = self.download("download", None, 200)
        self.save(data, 1)
        self.list("list-unchanged", self.tag, 204)
        self.download("download-unchanged", self.last_modified, 304)
        emit({"device": self.id, "step": "waiting"})

    def after_push(self):
        tag = self.list("list-since", self.tag, 200)
        if tag == self.tag:
            raise Deviation(f"list-since: lastUpdated {tag!r} is the tag the device already had")
        pass_json, (modified, data) = self.download("download-updated", self.last_modified, 200)
        if http_date(modified, "download-updated") <= http_date(self.last_modified, "download"):
            raise Deviation(f"download-updated: Last-Modified {modified!r} is not later than "
                            f"{self.last_modified!r}: Wallet would keep the stale pass")
        if pass_json == self.pass_json:
            raise Deviation("download-updated: the pass listed as updated is unchanged")
        self.save(data, 2)
        self.pass_json, self.last_modified, self.tag = pass_json, modified, tag
        self.download("download-again", modified, 304)
        response, data, record = self.request("unregister", "DELETE", self.registration_path(), self.auth())
        emit(record)
        self.expect("unregister", record, 200, response, data)
        self.list("list-after", None, 204)


def run_step(device, step):
    """One scripted step (see --step); returns nothing, prints its line."""
    name, _, argument = step.partition("=")
    if name == "register":
        _, _, record = device.request(step, "POST", device.registration_path(), device.auth(),
                                      {"pushToken": device.token})
    elif name == "unregister":
        _, _, record = device.request(step, "DELETE", device.registration_path(), device.auth())
    elif name in ("list", "list-since"):
        since = argument if argument else (device.tag if name == "list-since" else None)
        response, data, record = device.request(step, "GET", device.list_path(since))
        if response.status == 200:
            device.tag = json.loads(data).get("lastUpdated", device.tag)
    elif name in ("download", "download-ims"):
        headers = device.auth()
        since = argument if argument else (device.last_modified if name == "download-ims" else None)
        if since is not None:
            headers["If-Modified-Since"] = since
        response, data, record = device.request(step, "GET", device.pass_path(), headers)
        if response.status == 200:
            device.last_modified = response.getheader("Last-Modified")
    elif name == "log":
        text = (argument.replace("{serial}", device.info["serialNumber"])
                .replace("{passType}", device.info["passTypeIdentifier"])
                .replace("{device}", device.id).replace("{url}", device.info["base"]))
        _, _, record = device.request(step, "POST", "/v1/log", None, {"logs": [text]})
    else:
        raise Deviation(f"unknown step {step!r}")
    emit(record)


def run_script(devices, options):
    """--step mode: the steps in order on every device; `wait` waits once for all of them."""
    phases, current = [], []
    for step in options.steps:
        if step == "wait":
            phases.append(current)
            current = None
            phases.append(None)
            current = []
        else:
            current.append(step)
    phases.append(current)
    for phase in phases:
        if phase is None:
            for device in devices:
                emit({"device": device.id, "step": "waiting"})
            wait_for_push(options)
            continue
        for device in devices:
            for step in phase:
                run_step(device, step)


def summary(content_type, data):
    if not data:
        return ""
    if content_type and content_type.startswith("application/json"):
        return data.decode("utf-8", "replace")[:300]
    return f"{len(data)} bytes sha1 {hashlib.sha1(data).hexdigest()[:12]}"


def wait_for_push(options):
    if options.wait_stdin:
        if not sys.stdin.readline():
            raise Deviation("wait: stdin closed before the push arrived")
        return
    if options.wait_file:
        deadline = time.monotonic() + options.timeout
        while not os.path.exists(options.wait_file):
            if time.monotonic() > deadline:
                raise Deviation(f"wait: {options.wait_file} did not appear within {options.timeout} s")
            time.sleep(0.02)


def run_phase(devices, phase, threads):
    """Runs one phase on every device; the first Deviation is printed and ends the run."""
    def run(device):
        try:
            getattr(device, phase)()
            return None
        except Deviation as error:
            return {"device": device.id, "step": phase, "error": str(error)}
        except (OSError, http.client.HTTPException) as error:
            return {"device": device.id, "step": phase, "error": f"HTTP failure: {error!r}"}
    with concurrent.futures.ThreadPoolExecutor(max_workers=threads) as pool:
        for failure in pool.map(run, devices):
            if failure:
                emit(failure)
                sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description="Walk Wallet's web-service sequence against a PassMint server.")
    parser.add_argument("--pass", dest="pass_file", required=True, help="the .pkpass the devices added")
    parser.add_argument("--base", help="web service URL (default: the pass's webServiceURL)")
    parser.add_argument("--devices", type=int, default=1)
    parser.add_argument("--device-prefix", default="simdevice")
    parser.add_argument("--token-prefix", default="ab", help="hex prefix of the push tokens")
    parser.add_argument("--wait-file", help="continue after the push once this file exists")
    parser.add_argument("--wait-stdin", action="store_true", help="continue after the push on a line on stdin")
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for --wait-file")
    parser.add_argument("--out-dir", help="keep downloaded passes here")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--step", dest="steps", action="append", help="script the device (see the docstring)")
    options = parser.parse_args()
    if any(c not in "0123456789abcdefABCDEF" for c in options.token_prefix) or len(options.token_prefix) > 48:
        parser.error("--token-prefix must be at most 48 hex digits")

    with open(options.pass_file, "rb") as file:
        try:
            info = read_pass(file.read(), options.pass_file)
        except Deviation as error:
            emit({"step": "read-pass", "error": str(error)})
            sys.exit(1)
    missing = [key for key in IMMUTABLE if not info.get(key)]
    if missing:
        emit({"step": "read-pass", "error": f"the pass has no {', '.join(missing)}: Wallet would not register it"})
        sys.exit(1)
    info["base"] = options.base or info["webServiceURL"]

    devices = [Device(options, number, info) for number in range(options.devices)]
    if options.steps:
        try:
            run_script(devices, options)
        except (Deviation, OSError, http.client.HTTPException) as error:
            emit({"step": "script", "error": str(error)})
            sys.exit(1)
        emit({"result": "ok", "devices": len(devices)})
        return
    run_phase(devices, "before_push", options.threads)
    try:
        wait_for_push(options)
    except Deviation as error:
        emit({"step": "wait", "error": str(error)})
        sys.exit(1)
    run_phase(devices, "after_push", options.threads)
    emit({"result": "ok", "devices": len(devices)})


if __name__ == "__main__":
    main()
