#!/usr/bin/env python3
"""The same batch workload through wallet-py3k (PyPI), for Benchmarks/batch.

Reads the benchmark CSV, builds one storeCard per row with the same images as the PassMint template,
signs with the same certificate and writes <serial>.pkpass files, on all cores (one process per core).
Prints one line: "<rows> <seconds>".
"""
import csv
import multiprocessing
import os
import sys
import time

from wallet.models import Barcode, BarcodeFormat, Pass, StoreCard

TEMPLATE, CSV_PATH, OUT, CERTS, LIMIT = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
IMAGES = {}


def load_images():
    for name in sorted(os.listdir(TEMPLATE)):
        if name.endswith(".png"):
            with open(os.path.join(TEMPLATE, name), "rb") as f:
                IMAGES[name] = f.read()


def issue(args):
    index, row = args
    info = StoreCard()
    info.addPrimaryField("points", row["points"], "Points")
    info.addHeaderField("tier", row["tier"], "Tier")
    info.addSecondaryField("member", row["memberName"], "Member")
    p = Pass(info, passTypeIdentifier="pass.dev.passmint", organizationName="PassMint Coffee",
             teamIdentifier="PASSMINT01")
    p.serialNumber = f"WPY{index:08d}"
    p.description = "PassMint Coffee Rewards"
    p.backgroundColor = "rgb(60, 36, 21)"
    p.barcode = Barcode(message=row["memberNumber"], format=BarcodeFormat.QR)
    for name, data in IMAGES.items():
        p._files[name] = data
    p.create(f"{CERTS}/pass-cert.pem", f"{CERTS}/pass-key.pem", f"{CERTS}/wwdr.pem", "",
             zip_file=os.path.join(OUT, p.serialNumber + ".pkpass"))
    return 1


def main():
    load_images()
    with open(CSV_PATH, newline="", encoding="utf-8") as f:
        rows = [r for _, r in zip(range(LIMIT), csv.DictReader(f))]
    os.makedirs(OUT, exist_ok=True)
    start = time.monotonic()
    with multiprocessing.Pool(os.cpu_count()) as pool:
        done = sum(pool.map(issue, enumerate(rows), chunksize=8))
    print(done, time.monotonic() - start)


if __name__ == "__main__":
    main()
