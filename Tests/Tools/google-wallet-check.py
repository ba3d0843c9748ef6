#!/usr/bin/env python3
"""Checks Google Wallet save links and resources the way Google would see them, with libraries PassMint did not
write (test tool; run with the venv scripts/install-deps makes, /opt/passmint-pyenv).

  google-wallet-check.py link URL_OR_JWT --key SERVICE_ACCOUNT.json
      Verifies the JWT's RS256 signature with the service account's public key (google-auth's verifier, built on
      `cryptography`), checks the claims (iss = client_email, aud "google", typ "savetowallet", iat, origins) and
      validates every class and object in the payload against the discovery document.
  google-wallet-check.py resource KIND class|object FILE.json
      Validates one class or object (KIND: loyalty, eventTicket, generic, offer, flight, transit).

The schema is googleapiclient's own walletobjects.v1.json (google-api-python-client). Checked: every property
name exists in its schema, every value has the schema's type (int64 and uint64 as strings), enum values are
listed and not deprecated (the lower-case aliases, EAN13, PDF417), and every field whose description starts with
"Required." is present in the class or object. Prints one JSON object: {"ok", "errors", "claims"}; exit 0 when ok.
"""
import base64
import json
import os
import sys

import googleapiclient
from cryptography.hazmat.primitives import serialization
from google.auth import crypt

DOCUMENT = os.path.join(
    os.path.dirname(googleapiclient.__file__), "discovery_cache", "documents", "walletobjects.v1.json"
)
with open(DOCUMENT, encoding="utf-8") as f:
    DISCOVERY = json.load(f)
SCHEMAS = DISCOVERY["schemas"]
REVISION = DISCOVERY.get("revision")


def schema_name(kind, part):
    return kind[0].upper() + kind[1:] + ("Class" if part == "class" else "Object")


def check_value(value, spec, path, errors):
    """Checks `value` against a property spec (type, format, enum, $ref, items)."""
    if "$ref" in spec:
        check_object(value, spec["$ref"], path, errors)
        return
    kind = spec.get("type")
    if kind == "string":
        if not isinstance(value, str):
            errors.append(f"{path}: expected a string, found {type(value).__name__}")
            return
        if "enum" in spec:
            values = spec["enum"]
            deprecated = spec.get("enumDeprecated", [False] * len(values))
            if value not in values:
                errors.append(f"{path}: {value!r} is not one of the schema's values")
            elif deprecated[values.index(value)]:
                errors.append(f"{path}: {value!r} is a deprecated value")
        if spec.get("format") in ("int64", "uint64"):
            try:
                int(value)
            except ValueError:
                errors.append(f"{path}: {value!r} is not an integer string")
    elif kind == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            errors.append(f"{path}: expected an integer, found {type(value).__name__}")
        elif spec.get("format") == "int32" and not -(2**31) <= value < 2**31:
            errors.append(f"{path}: {value} is outside int32")
    elif kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            errors.append(f"{path}: expected a number, found {type(value).__name__}")
    elif kind == "boolean":
        if not isinstance(value, bool):
            errors.append(f"{path}: expected a boolean, found {type(value).__name__}")
    elif kind == "array":
        if not isinstance(value, list):
            errors.append(f"{path}: expected an array, found {type(value).__name__}")
            return
        for i, item in enumerate(value):
            check_value(item, spec.get("items", {}), f"{path}[{i}]", errors)
    elif kind == "object":
        if not isinstance(value, dict):
            errors.append(f"{path}: expected an object, found {type(value).__name__}")
        elif "additionalProperties" in spec:
            for key, item in value.items():
                check_value(item, spec["additionalProperties"], f"{path}.{key}", errors)
    elif kind == "any":
        pass
    else:
        errors.append(f"{path}: the schema has no type for this value")


def check_object(value, name, path, errors, top=False):
    schema = SCHEMAS[name]
    if not isinstance(value, dict):
        errors.append(f"{path}: expected a {name} object, found {type(value).__name__}")
        return
    properties = schema.get("properties", {})
    for key, item in value.items():
        if key not in properties:
            errors.append(f"{path}.{key}: {name} has no property {key!r}")
            continue
        spec = properties[key]
        if spec.get("deprecated"):
            errors.append(f"{path}.{key}: {name}.{key} is deprecated")
        check_value(item, spec, f"{path}.{key}", errors)
    for key, spec in properties.items():
        if spec.get("description", "").startswith("Required.") and key not in value:
            errors.append(f"{path}.{key}: required by {name} and missing")


def check_resource(kind, part, value, path):
    errors = []
    check_object(value, schema_name(kind, part), path, errors, top=True)
    return errors


KINDS = ["loyalty", "eventTicket", "generic", "offer", "flight", "transit", "giftCard"]


def check_payload(payload):
    errors = []
    if not isinstance(payload, dict) or not payload:
        return ["payload: expected a non-empty object"]
    for key, items in payload.items():
        part = "class" if key.endswith("Classes") else "object" if key.endswith("Objects") else None
        kind = key[: -len("Classes")] if part == "class" else key[: -len("Objects")] if part == "object" else None
        if kind not in KINDS:
            errors.append(f"payload.{key}: not a payload key Google knows")
            continue
        if not isinstance(items, list) or not items:
            errors.append(f"payload.{key}: expected a non-empty array")
            continue
        for i, item in enumerate(items):
            if part == "object" and set(item) <= {"id", "classId"}:
                for member in ("id", "classId"):
                    if not isinstance(item.get(member), str):
                        errors.append(f"payload.{key}[{i}].{member}: missing in an object reference")
                continue
            errors += check_resource(kind, part, item, f"payload.{key}[{i}]")
    return errors


def base64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_link(text, key_file):
    token = text.split("/gp/v/save/", 1)[-1]
    with open(key_file, encoding="utf-8") as f:
        info = json.load(f)
    # The public half of the account's key, as Google checks it.
    private = serialization.load_pem_private_key(info["private_key"].encode(), password=None)
    public_pem = private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    errors = []
    # google-auth's RS256 verifier (on `cryptography`); save links have no `exp`, which jwt.decode would demand.
    try:
        signing_input, signature = token.rsplit(".", 1)
        header_part, claims_part = signing_input.split(".")
        verifier = crypt.RSAVerifier.from_string(public_pem)
        if not verifier.verify(signing_input.encode(), base64url(signature)):
            return {"ok": False, "errors": ["signature: does not verify with the service account's key"], "claims": None}
        header = json.loads(base64url(header_part))
        claims = json.loads(base64url(claims_part))
    except ValueError as error:
        return {"ok": False, "errors": [f"token: {error}"], "claims": None}
    if claims.get("aud") != "google":
        errors.append("aud: not 'google'")
    if header.get("alg") != "RS256":
        errors.append(f"header.alg: {header.get('alg')!r}, not RS256")
    if claims.get("iss") != info["client_email"]:
        errors.append("iss: not the service account's client_email")
    if claims.get("typ") != "savetowallet":
        errors.append("typ: not 'savetowallet'")
    if not isinstance(claims.get("iat"), int):
        errors.append("iat: missing or not an integer")
    if not isinstance(claims.get("origins"), list):
        errors.append("origins: missing or not an array")
    if len(token) > 1800:
        errors.append(f"the JWT has {len(token)} characters, more than 1800")
    errors += check_payload(claims.get("payload"))
    return {"ok": not errors, "errors": errors, "claims": claims, "revision": REVISION}


def main(argv):
    if len(argv) >= 3 and argv[1] == "link" and "--key" in argv:
        result = check_link(argv[2], argv[argv.index("--key") + 1])
    elif len(argv) == 5 and argv[1] == "resource":
        with open(argv[4], encoding="utf-8") as f:
            value = json.load(f)
        errors = check_resource(argv[2], argv[3], value, argv[3])
        result = {"ok": not errors, "errors": errors, "claims": None, "revision": REVISION}
    else:
        print(__doc__, file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
