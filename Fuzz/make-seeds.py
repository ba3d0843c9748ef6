#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target (Fuzz/Sources/Fuzz*) into OUT/<Target>/, and its libFuzzer
dictionary (-dict=) into OUT/<Target>.dict.

Seeds come from the shared fixtures (real .pkpass/.pkpasses files and template folders, read in place) and
the shipped Templates/, laid out the way each target reads its input (Fuzz/Sources/FuzzSupport/FuzzInput.swift):
an option byte first where a target has options, parts separated by PART. CSV and HTTP seeds are written here.
The dictionaries hold the formats' tokens plus every JSON key found in the seeds, so they follow the fixtures.

usage: make-seeds.py FIXTURES TEMPLATES OUT
"""
import io
import json
import os
import struct
import sys
import zipfile
import zlib

PART = b"\0--part--\0"  # FuzzInput.separator


def png(width, height):
    """A valid grey PNG of the given size: tiny however large, so image-size checks see real dimensions."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + b"\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def slim(name, data):
    """A large PNG replaced by a small one of the same size; anything else as it is."""
    if name.endswith(".png") and len(data) > 2048 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        if width * height <= 1024 * 1024:
            return png(width, height)
    return data


def zip_bytes(entries):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            z.writestr(name, data)
    return out.getvalue()


def zip_entries(data):
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return [(i.filename, z.read(i)) for i in z.infolist() if not i.is_dir()]


class Seeds:
    def __init__(self, out):
        self.out = out
        self.count = {}

    def dictionary(self, target, tokens):
        """Writes OUT/<target>.dict, one libFuzzer token per line, every byte outside printable ASCII escaped."""
        def quoted(token):
            return "".join(chr(b) if 0x20 <= b < 0x7F and b not in b'"\\' else f"\\x{b:02x}" for b in token)
        with open(os.path.join(self.out, target + ".dict"), "w") as f:
            for token in sorted(set(tokens)):
                f.write(f'"{quoted(token)}"\n')

    def add(self, target, name, data):
        folder = os.path.join(self.out, target)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
        self.count[target] = self.count.get(target, 0) + 1


def read(path):
    with open(path, "rb") as f:
        return f.read()


def template_folders(fixtures, templates):
    for root in (os.path.join(fixtures, "templates"), templates):
        if os.path.isdir(root):
            for name in sorted(os.listdir(root)):
                folder = os.path.join(root, name)
                if os.path.isfile(os.path.join(folder, "pass.json")):
                    yield name, folder


def archives(fixtures):
    folder = os.path.join(fixtures, "pkpass")
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            if name.endswith((".pkpass", ".pkpasses")):
                yield name, read(os.path.join(folder, name))


def json_seeds(seeds, fixtures, templates):
    for name, folder in template_folders(fixtures, templates):
        for file in ("pass.json", "template.json"):
            path = os.path.join(folder, file)
            if os.path.isfile(path):
                seeds.add("FuzzJSON", f"{name}-{file}", read(path))
    for name, data in archives(fixtures):
        for entry, content in zip_entries(data):
            if entry.endswith(".json"):
                seeds.add("FuzzJSON", f"{name}-{entry.replace('/', '_')}", content)
            elif entry.endswith(".pkpass"):
                for inner, inner_content in zip_entries(content):
                    if inner == "pass.json":
                        seeds.add("FuzzJSON", f"{name}-{entry}-pass.json", inner_content)
    # What the lenient reader forgives, each once.
    seeds.add("FuzzJSON", "lenient.json",
              b'\xef\xbb\xbf{ // comment\n "formatVersion": 1, /* block */ "a": [1, 2,], "a": "dup"\n "b": "x\ny",}')
    seeds.add("FuzzJSON", "numbers.json", b'{"n": [0, -0, 1e308, -1.5E-3, 9223372036854775807, 9223372036854775808]}')
    seeds.add("FuzzJSON", "escapes.json", b'{"s": "\\u00e9\\ud83d\\ude00\\t\\"\\\\\\/\\b\\f\\n\\r"}')


def template_files(folder):
    """Every file of a template folder as `path LF content`, a PNG as a 1x1 one: PassTemplates copies images
    without reading them, so their bytes would only slow the fuzzer down."""
    parts = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            relative = os.path.relpath(path, folder)
            data = png(1, 1) if name.endswith(".png") else read(path)
            parts.append(relative.encode() + b"\n" + data)
    return parts


def template_seeds(seeds, fixtures, templates):
    """Part 0 the record (`key=value` lines), then the files (FuzzTemplate.swift)."""
    for name, folder in template_folders(fixtures, templates):
        record = b"serialNumber=FUZZ-0001\n"
        path = os.path.join(folder, "template.json")
        if os.path.isfile(path):
            for field in json.loads(read(path)).get("fields", []):
                if field.get("type") == "enum" and field.get("values"):
                    record += f"{field['name']}={field['values'][-1]}\n".encode()
                elif "default" in field:
                    record += f"{field['name']}={field['default']}\n".encode()
        files = template_files(folder)
        seeds.add("FuzzTemplate", name, PART.join([record] + files))
        seeds.add("FuzzTemplate", name + "-no-record", PART.join([b""] + files))
    seeds.add("FuzzTemplate", "placeholders", PART.join([
        b"serialNumber=S1\nname=Ana\npoints=+0042\nwhen=2026-02-03T04:05+01:00\nrate=-0.50\ntier=B\n",
        b'pass.json\n{"serialNumber": "{{serialNumber}}", "description": "{{ name }} has {{points}}", '
        b'"generic": {"primaryFields": [{"key": "p", "value": "{{points}}"}]}}',
        b'template.json\n{"fields": [{"name": "name", "type": "string", "required": true}, '
        b'{"name": "points", "type": "integer", "default": "0"}, {"name": "when", "type": "date"}, '
        b'{"name": "rate", "type": "decimal"}, {"name": "tier", "type": "enum", "values": ["A", "B"]}], '
        b'"tiers": {"field": "tier", "values": {"B": {"pass": {"backgroundColor": "rgb(1, 2, 3)", "x": null}, '
        b'"images": {"strip.png": "tiers/b/strip.png"}}}}}',
        b"tiers/b/strip.png\n" + png(1, 1),
        b'en.lproj/pass.strings\n"{{name}}" = "Hello {{name}}";\n/* c */ "k" = "v";']))


def archive_seeds(seeds, fixtures, templates):
    """Raw mode (option byte 0): small zips; entries mode (option byte 1): the entries, to be zipped by the target.
    The template folders, zipped, seed it too, so the target has seeds even where the fixtures are absent."""
    for name, folder in template_folders(fixtures, templates):
        entries = [tuple(part.split(b"\n", 1)) for part in template_files(folder)]
        entries = [(path.decode(), content) for path, content in entries]
        seeds.add("FuzzArchive", name + ".template-raw", b"\0" + zip_bytes(entries))
    for name, data in archives(fixtures):
        if len(data) <= 32 * 1024:
            seeds.add("FuzzArchive", name + ".raw", b"\0" + data)
        entries = [(entry, slim(entry, content)) for entry, content in zip_entries(data)]
        seeds.add("FuzzArchive", name + ".slim-raw", b"\0" + zip_bytes(entries))
        seeds.add("FuzzArchive", name + ".entries",
                  b"\1" + PART.join(entry.encode() + b"\n" + content for entry, content in entries))


def csv_seeds(seeds):
    """Option byte: delimiter (0 detect, 1 , 2 ; 3 tab 4 |) + 5 * encoding (0 detect, 1 utf-8, 2 utf-16le,
    3 utf-16be, 4 windows-1252, 5 latin1), + 128 for small limits (FuzzCSV.swift)."""
    header = b"memberName,memberNumber,tier,points,serialNumber\r\n"
    rows = b'Ana,PMC-1,Gold,250,A1\r\n"Doe, Jane","PMC-""2""",Silver,"12\r\n3",A2\r\n\r\nBo,PMC-3,,0,\r\n'
    seeds.add("FuzzCSV", "crlf", b"\0" + header + rows)
    seeds.add("FuzzCSV", "lf-bom", b"\0" + b"\xef\xbb\xbf" + header.replace(b"\r\n", b"\n") + b"a,b,c,d,e\n")
    seeds.add("FuzzCSV", "semicolon", b"\0" + b"name;points\nAna;1\rBo;2\r")
    seeds.add("FuzzCSV", "tab", b"\3" + b"name\tpoints\nAna\t1\n")
    seeds.add("FuzzCSV", "pipe", b"\4" + b"name|points\nAna|1\n")
    seeds.add("FuzzCSV", "utf16le", b"\0" + b"\xff\xfe" + "name,city\nZoë,Köln\n😀,x\n".encode("utf-16-le"))
    seeds.add("FuzzCSV", "utf16be", b"\0" + b"\xfe\xff" + "name,city\nZoë,Köln\n".encode("utf-16-be"))
    seeds.add("FuzzCSV", "cp1252", bytes([4 * 5]) + b"name,price\nCaf\xe9,\x8030\n")
    seeds.add("FuzzCSV", "latin1", bytes([5 * 5]) + b"name\nM\xfcller\n")
    seeds.add("FuzzCSV", "bad", b"\0" + b'name,note\nAna,"never closed\nBo,\x01\nCy,\xc3\x28\n')
    seeds.add("FuzzCSV", "small-limits", bytes([128]) + b'a,b,c,d,e\n"0123456789abcdefgh",x\n1,2,3,4,5,6\n')


def http_seeds(seeds):
    """Requests as `METHOD TARGET` then header lines, a blank line and the body, about the one pass FuzzHTTP.swift
    stores (same serial, pass type, authentication token and admin token)."""
    device, kind, serial = "a1b2c3d4e5f60718293a4b5c6d7e8f90", "pass.com.example.fuzz", "FUZZ-0001"
    auth = "Authorization: ApplePass 0123456789abcdef0123456789abcdef\n"
    admin = "Authorization: Bearer fuzz-admin-token-0123456789abcdef\n"
    requests = {
        "register": f"POST /v1/devices/{device}/registrations/{kind}/{serial}\n{auth}Content-Type: application/json"
                    '\n\n{"pushToken": "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"}',
        "unregister": f"DELETE /v1/devices/{device}/registrations/{kind}/{serial}\n{auth}\n",
        "list": f"GET /v1/devices/{device}/registrations/{kind}?passesUpdatedSince=3\n\n",
        "list-escaped": f"GET /v1/devices/{device}/registrations/pass%2Ecom%2Eexample%2Efuzz?passesUpdatedSince\n\n",
        "latest": f"GET /v1/passes/{kind}/{serial}\n{auth}If-Modified-Since: Tue, 01 Dec 2026 10:00:00 GMT\n\n",
        "head": f"HEAD /v1/passes/{kind}/{serial}\n{auth}\n",
        "personalize": f"POST /v1/passes/{kind}/{serial}/personalize\nContent-Type: application/json\n\n"
                       '{"personalizationToken": "t", "requiredPersonalizationInfo": {"emailAddress": "a@b.c"}}',
        "log": 'POST /v1/log\nContent-Type: application/json\n\n{"logs": ["a", "b \\u00e9"]}',
        "admin-show": f"GET /admin/v1/passes/{serial}\n{admin}\n",
        "admin-update": f"PATCH /admin/v1/passes/{serial}\n{admin}Content-Type: application/json\n\n"
                        '{"tier": "Gold", "points": "1200"}',
        "health": "GET /healthz\n\n",
        "metrics": "GET /metrics\n\n",
        "not-allowed": f"PUT /v1/passes/{kind}/{serial}\n\n",
        "bad-segment": f"GET /v1/passes/{kind}/bad%20serial%00\n{auth}\n",
    }
    for name, text in requests.items():
        seeds.add("FuzzHTTP", name, text.encode())


JSON_TOKENS = [b"{", b"}", b"[", b"]", b":", b",", b'""', b"true", b"false", b"null", b"//", b"/*", b"*/",
               b"\\u", b"\\ud83d\\ude00", b"\\\"", b"-0", b"1e999", b"-1.5e-7", b"9223372036854775808", b"\xef\xbb\xbf",
               b'"rgb(', b"#ff0000", b"2026-01-01T10:00:00Z", b"2026-01-01T10:00+01:00", b"PKBarcodeFormatQR",
               b"PKBarcodeFormatPDF417", b"PKBarcodeFormatAztec", b"PKBarcodeFormatCode128", b"iso-8859-1",
               b"PKTextAlignmentNatural", b"PKDateStyleShort", b"PKNumberStyleDecimal", b"PKTransitTypeAir", b"%@"]
TEMPLATE_TOKENS = [b"{{", b"}}", b"{{serialNumber}}", b"{{ name }}", b"string", b"integer", b"decimal", b"date",
                   b"enum", b"image", b"=", b";", b"\xff\xfe", b"\xfe\xff", b"\n", b"serialNumber=", b"tier=",
                   b"image.thumbnail=", b"barcode.message=", b"relevantDate.start=", b"pass.json\n",
                   b"template.json\n", b"tooling.json\n", b"en.lproj/pass.strings\n", b"de.lproj/", b"tiers/",
                   b"strip.png\n", b"__MACOSX/", b".DS_Store\n"]
ARCHIVE_TOKENS = [b"PK\x03\x04", b"PK\x01\x02", b"PK\x05\x06", b"PK\x06\x06", b"PK\x06\x07", b"PK\x07\x08",
                  b"\x89PNG\r\n\x1a\n", b"IHDR", b"IDAT", b"IEND", b"pass.json\n", b"manifest.json\n", b"signature\n",
                  b"icon.png\n", b"icon@2x.png\n", b"logo.png\n", b"strip@3x.png\n", b"en.lproj/pass.strings\n",
                  b"__MACOSX/", b".DS_Store", b"../", b"a.pkpass\n", b"\x30\x82",
                  b"\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x07\x02"]  # DER: a sequence, the PKCS#7 signedData OID
CSV_TOKENS = [b'"', b'""', b"\r\n", b"\r", b"\n", b",", b";", b"\t", b"|", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff",
              b"\xd8\x3d\xde\x00", b"\x00\xd8", b"\x80", b"\xc3\xa9"]
HTTP_TOKENS = [b"GET ", b"HEAD ", b"POST ", b"PUT ", b"PATCH ", b"DELETE ", b"OPTIONS ", b"/v1/devices/",
               b"/registrations/", b"/v1/passes/", b"/personalize", b"/v1/log", b"/admin/v1/passes/", b"/healthz",
               b"/metrics", b"//", b"/../", b"%2F", b"%00", b"%25", b"%2e", b"%", b"?", b"&", b"=",
               b"?passesUpdatedSince=", b"\n\n", b"\r\n", b": ", b"Authorization: ApplePass ",
               b"Authorization: Bearer fuzz-admin-token-0123456789abcdef", b"If-Modified-Since: ",
               b"Tue, 01 Dec 2026 10:00:00 GMT",
               b"Content-Type: application/json", b"Content-Type: text/csv", b"Content-Length: ", b"pushToken", b"logs",
               b"personalizationToken", b"FUZZ-0001", b"pass.com.example.fuzz", b"0123456789abcdef0123456789abcdef"]


def json_keys(seed_folder):
    """Every object key in the JSON seeds, as the quoted token a mutation would insert."""
    keys = set()
    def walk(value):
        if isinstance(value, dict):
            for key, inner in value.items():
                keys.add(json.dumps(key).encode())
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)
    for name in os.listdir(seed_folder):
        try:
            walk(json.loads(read(os.path.join(seed_folder, name))))
        except ValueError:
            continue  # the lenient seeds are not JSON to Python
    return keys


def dictionaries(seeds):
    keys = json_keys(os.path.join(seeds.out, "FuzzJSON"))
    seeds.dictionary("FuzzJSON", JSON_TOKENS + list(keys))
    seeds.dictionary("FuzzTemplate", JSON_TOKENS + TEMPLATE_TOKENS + [PART] + list(keys))
    seeds.dictionary("FuzzArchive", ARCHIVE_TOKENS + [PART] + list(keys))
    seeds.dictionary("FuzzCSV", CSV_TOKENS)
    seeds.dictionary("FuzzHTTP", HTTP_TOKENS + JSON_TOKENS[:12])


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    fixtures, templates, out = sys.argv[1:]
    if not os.path.isdir(fixtures):
        print(f"make-seeds: {fixtures} not found; fixture seeds skipped", file=sys.stderr)
    seeds = Seeds(out)
    json_seeds(seeds, fixtures, templates)
    template_seeds(seeds, fixtures, templates)
    archive_seeds(seeds, fixtures, templates)
    csv_seeds(seeds)
    http_seeds(seeds)
    dictionaries(seeds)
    print("make-seeds: " + ", ".join(f"{t} {n}" for t, n in sorted(seeds.count.items())))


if __name__ == "__main__":
    main()
