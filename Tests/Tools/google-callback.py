#!/usr/bin/env python3
"""Makes Google Wallet save/delete callbacks the way Google signs them (ECv2SigningOnly), with EC keys made here
standing in for Google's (test tool; run with the venv scripts/install-deps makes, /opt/passmint-pyenv).

  google-callback.py keys DIR
      Writes DIR/root.pem and DIR/intermediate.pem (EC P-256 private keys) and DIR/root-keys.json, the root's
      public key in the form https://pay.google.com/gp/m/issuer/keys serves ({"keys": [{"keyValue",
      "protocolVersion": "ECv2SigningOnly", "keyExpiration"}]}).
  google-callback.py sign DIR --issuer ID --class CLASS --object OBJECT --event save|del --nonce N
                     [--key-expired] [--message-expired] [--root OTHER_DIR] [--tamper]
      Prints the callback body: the intermediate key signed by the root over LV("GooglePayPasses") ‖
      LV("ECv2SigningOnly") ‖ LV(signedKey), the message signed by the intermediate over LV("GooglePayPasses") ‖
      LV(issuer) ‖ LV("ECv2SigningOnly") ‖ LV(signedMessage); LV = 4-byte little-endian length, then the bytes.
      --root signs the intermediate with another root (a forgery); --tamper changes the message after signing.
"""
import base64
import json
import os
import struct
import sys
import time

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec


def lv(text):
    data = text.encode()
    return struct.pack("<I", len(data)) + data


def arg(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def load(path):
    with open(path, "rb") as f:
        return serialization.load_pem_private_key(f.read(), password=None)


def public_b64(key):
    der = key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return base64.b64encode(der).decode()


def keys(directory):
    os.makedirs(directory, exist_ok=True)
    for name in ("root", "intermediate"):
        key = ec.generate_private_key(ec.SECP256R1())
        with open(os.path.join(directory, name + ".pem"), "wb") as f:
            f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()))
    root = load(os.path.join(directory, "root.pem"))
    expiry = str(int((time.time() + 30 * 86400) * 1000))
    document = {"keys": [{"keyValue": public_b64(root), "protocolVersion": "ECv2SigningOnly", "keyExpiration": expiry}]}
    with open(os.path.join(directory, "root-keys.json"), "w", encoding="utf-8") as f:
        json.dump(document, f)


def sign(directory):
    root = load(os.path.join(arg("--root", directory), "root.pem"))
    intermediate = load(os.path.join(directory, "intermediate.pem"))
    now_ms = int(time.time() * 1000)
    key_expiration = now_ms - 60_000 if "--key-expired" in sys.argv else now_ms + 86_400_000
    signed_key = json.dumps({"keyValue": public_b64(intermediate), "keyExpiration": str(key_expiration)})
    key_signature = root.sign(lv("GooglePayPasses") + lv("ECv2SigningOnly") + lv(signed_key), ec.ECDSA(hashes.SHA256()))
    message_expiration = now_ms - 60_000 if "--message-expired" in sys.argv else now_ms + 3_600_000
    signed_message = json.dumps({
        "classId": arg("--class"), "objectId": arg("--object"), "eventType": arg("--event"),
        "expTimeMillis": message_expiration, "nonce": arg("--nonce"),
    })
    issuer = arg("--issuer")
    signature = intermediate.sign(
        lv("GooglePayPasses") + lv(issuer) + lv("ECv2SigningOnly") + lv(signed_message), ec.ECDSA(hashes.SHA256())
    )
    if "--tamper" in sys.argv:
        signed_message = signed_message.replace(arg("--event"), "del" if arg("--event") == "save" else "save")
    body = {
        "signature": base64.b64encode(signature).decode(),
        "intermediateSigningKey": {"signedKey": signed_key, "signatures": [base64.b64encode(key_signature).decode()]},
        "protocolVersion": "ECv2SigningOnly",
        "signedMessage": signed_message,
    }
    print(json.dumps(body))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "keys":
        keys(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "sign":
        sign(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
