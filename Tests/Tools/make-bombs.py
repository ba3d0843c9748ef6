#!/usr/bin/env python3
"""Writes hostile pass archives for the verify limits: tests and Benchmarks/verify-bombs use them.

  make-bombs.py DIR   -> DIR/inflate-bomb.pkpass      pass.json inflates to 2 GiB from about 2 MB; its zip header
                                                      claims 1 KB (every limit must hold on the bytes inflated)
                         DIR/bomb-bundle.pkpasses     ten of those, stored in one bundle
                         DIR/manifest-bomb.pkpass     manifest.json with a million keys
                         DIR/many-entries.pkpass      5,000 empty entries (the limit is 1,000)
                         DIR/nul-name.pkpass          an entry named "pass.json\\0.png" beside a real pass.json
                         DIR/symlink.pkpass           an entry that is a Unix symbolic link to /etc/passwd
"""
import os
import struct
import sys
import zlib


def local_and_central(name, data, method, crc, size, external=0, offset=0):
    name_bytes = name if isinstance(name, bytes) else name.encode()
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0x21, crc, len(data), size, len(name_bytes), 0)
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, (3 << 8) | 20, 20, 0, method, 0, 0x21, crc, len(data), size,
                          len(name_bytes), 0, 0, 0, 0, external, offset)
    return local + name_bytes + data, central + name_bytes


def write_zip(path, entries):
    """entries: (name, data, method, crc, size, external)"""
    body, centrals, offset = [], [], 0
    for name, data, method, crc, size, external in entries:
        local, central = local_and_central(name, data, method, crc, size, external, offset)
        body.append(local)
        centrals.append(central)
        offset += len(local)
    body, centrals = b"".join(body), b"".join(centrals)
    count = len(entries)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, min(count, 0xFFFF), min(count, 0xFFFF), len(centrals), len(body), 0)
    with open(path, "wb") as f:
        f.write(body + centrals + end)


def stored(name, data, external=0):
    return (name, data, 0, zlib.crc32(data), len(data), external)


def deflated(name, data):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = c.compress(data) + c.flush()
    return (name, raw, 8, zlib.crc32(data), len(data), 0)


def inflate_bomb_stream(total):
    """A raw deflate stream that inflates to `total` zero bytes: one byte-aligned non-final block repeated."""
    chunk = 16 << 20
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = c.compress(b"\0" * chunk) + c.flush(zlib.Z_FULL_FLUSH)
    end = zlib.compressobj(9, zlib.DEFLATED, -15).flush()  # an empty final block
    return block * (total // chunk) + end


def main(out):
    os.makedirs(out, exist_ok=True)
    sig = b"\x30\x80" + b"\0" * 64
    bomb = inflate_bomb_stream(2 << 30)
    manifest = b'{"pass.json": "0000000000000000000000000000000000000000"}'
    entries = [("pass.json", bomb, 8, 0, 1024, 0), deflated("manifest.json", manifest), stored("signature", sig)]
    write_zip(os.path.join(out, "inflate-bomb.pkpass"), entries)
    with open(os.path.join(out, "inflate-bomb.pkpass"), "rb") as f:
        one = f.read()
    write_zip(os.path.join(out, "bomb-bundle.pkpasses"), [stored("pass-%d.pkpass" % i, one) for i in range(10)])

    keys = b",".join(b'"f%07d.png": "da39a3ee5e6b4b0d3255bfef95601890afd80709"' % i for i in range(1_000_000))
    write_zip(os.path.join(out, "manifest-bomb.pkpass"),
              [deflated("pass.json", b'{"formatVersion": 1}'), deflated("manifest.json", b"{" + keys + b"}"),
               stored("signature", sig)])

    write_zip(os.path.join(out, "many-entries.pkpass"), [stored("e%06d.png" % i, b"") for i in range(5_000)])

    write_zip(os.path.join(out, "nul-name.pkpass"),
              [deflated("pass.json", b'{"formatVersion": 1}'), stored(b"pass.json\0.png", b"\x89PNG"),
               deflated("manifest.json", manifest), stored("signature", sig)])

    link_mode = (0o120777 << 16)
    write_zip(os.path.join(out, "symlink.pkpass"),
              [deflated("pass.json", b'{"formatVersion": 1}'), stored("icon.png", b"/etc/passwd", external=link_mode),
               deflated("manifest.json", manifest), stored("signature", sig)])


if __name__ == "__main__":
    main(sys.argv[1])
