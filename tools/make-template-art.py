#!/usr/bin/env python3
"""Draw the images (and pass.strings files) of the templates under Templates/.

Deterministic: no randomness beyond a fixed seed, no external fonts (Pillow's built-in
default font), fixed PNG encoder settings. Run from anywhere:

    python3 tools/make-template-art.py          # (re)write every generated file
    python3 tools/make-template-art.py --check  # only validate what is on disk

Sizes follow wallet-spec.md section 3 (points; @2x and @3x are exact multiples):
icon 29x29, logo <= 160x50, strip 375x123 (storeCard), thumbnail 90x90,
background 180x220 (eventTicket). Every PNG is asserted to have the exact pixel size
and to stay under MAX_BYTES.
"""

from __future__ import annotations

import io
import json
import math
import random
import re
import sys
from datetime import datetime, timedelta
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent / "Templates"
SCALES = (1, 2, 3)
MAX_BYTES = 60_000

# ---------------------------------------------------------------- helpers

RGB = tuple[int, int, int]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    return tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3))  # type: ignore[return-value]


def font(px: float) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=max(6, round(px)))


def gradient(size: tuple[int, int], top: RGB, bottom: RGB, horizontal: bool = False) -> Image.Image:
    """A smooth two-colour gradient (vertical by default)."""
    mask = Image.linear_gradient("L")  # 256x256, black at top to white at bottom
    if horizontal:  # black at the left to white at the right
        mask = mask.transpose(Image.Transpose.TRANSPOSE)
    mask = mask.resize(size, Image.Resampling.BICUBIC)
    return Image.composite(Image.new("RGBA", size, bottom + (255,)), Image.new("RGBA", size, top + (255,)), mask)


def radial(size: int, inner: RGB, outer: RGB, center: tuple[float, float] = (0.35, 0.3)) -> Image.Image:
    """A square radial gradient, brightest at `center` (fractions of the size)."""
    img = Image.new("RGBA", (size, size))
    draw = ImageDraw.Draw(img)
    cx, cy = center[0] * size, center[1] * size
    steps = 48
    reach = size * 1.2
    for i in range(steps, 0, -1):
        r = reach * i / steps
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=mix(inner, outer, i / steps) + (255,))
    return img


def supersampled(size: tuple[int, int], paint, ss: int | None = None) -> Image.Image:
    """Call paint(img, draw, k) on a canvas ss times larger (k = pixels per point * ss) and downsample."""
    if ss is None:
        ss = 4 if max(size) <= 300 else 2
    big = Image.new("RGBA", (size[0] * ss, size[1] * ss), (0, 0, 0, 0))
    paint(big, ImageDraw.Draw(big), ss)
    return big.resize(size, Image.Resampling.LANCZOS)


def rounded_mask(size: tuple[int, int], radius: float) -> Image.Image:
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=radius, fill=255)
    return mask


def png_bytes(img: Image.Image) -> bytes:
    out = io.BytesIO()
    if img.mode == "RGBA" and img.getextrema()[3] == (255, 255):
        img = img.convert("RGB")  # opaque: smaller file
    img.save(out, format="PNG", optimize=True)
    data = out.getvalue()
    if len(data) > MAX_BYTES:  # fall back to a 256-colour palette for big gradients
        out = io.BytesIO()
        method = Image.Quantize.MEDIANCUT if img.mode == "RGB" else Image.Quantize.FASTOCTREE  # no banding on RGB
        pal = img.quantize(colors=256, method=method, dither=Image.Dither.NONE)
        pal.save(out, format="PNG", optimize=True)
        data = out.getvalue()
    return data


WRITTEN: list[Path] = []


def save(folder: Path, name: str, scale: int, img: Image.Image, expect: tuple[int, int]) -> None:
    assert img.size == expect, f"{folder / name}@{scale}x: {img.size} != {expect}"
    data = png_bytes(img)
    assert len(data) <= MAX_BYTES, f"{folder / name}@{scale}x is {len(data)} bytes"
    suffix = "" if scale == 1 else f"@{scale}x"
    path = folder / f"{name}{suffix}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    WRITTEN.append(path)


def each_scale(folder: Path, name: str, points: tuple[int, int], draw_fn) -> None:
    """draw_fn(size_px, scale) -> Image; written as name.png, name@2x.png, name@3x.png."""
    for s in SCALES:
        px = (points[0] * s, points[1] * s)
        save(folder, name, s, draw_fn(px, s), px)


# ---------------------------------------------------------------- glyphs (drawn in a unit box)


def glyph_cup(draw: ImageDraw.ImageDraw, x: float, y: float, h: float, body: tuple, steam: tuple) -> None:
    """A coffee cup with steam, h tall, top-left at (x, y)."""
    w = h * 0.9
    cup_top = y + h * 0.38
    draw.rounded_rectangle((x, cup_top, x + w * 0.72, y + h * 0.95), radius=h * 0.16, fill=body)
    draw.rectangle((x, cup_top, x + w * 0.72, cup_top + h * 0.2), fill=body)
    hx0, hy0 = x + w * 0.58, cup_top + h * 0.08
    draw.ellipse((hx0, hy0, hx0 + h * 0.34, hy0 + h * 0.34), outline=body, width=max(1, round(h * 0.08)))
    for i in range(3):
        sx = x + w * (0.14 + 0.2 * i)
        draw.arc((sx, y, sx + h * 0.16, y + h * 0.3), start=100, end=260, fill=steam, width=max(1, round(h * 0.06)))


def glyph_plane(draw: ImageDraw.ImageDraw, cx: float, cy: float, span: float, fill: tuple, angle: float = -30) -> None:
    """A simple airliner silhouette seen from above, nose pointing along `angle` degrees."""
    pts = [  # unit coordinates, nose at +x
        (0.50, 0.00), (0.40, 0.06), (0.10, 0.06), (-0.18, 0.46), (-0.28, 0.46), (-0.10, 0.06),
        (-0.34, 0.06), (-0.44, 0.20), (-0.50, 0.20), (-0.44, 0.00),
    ]
    full = pts + [(px, -py) for px, py in reversed(pts[1:-1])]
    a = math.radians(angle)
    rot = [(cx + span * (px * math.cos(a) - py * math.sin(a)), cy + span * (px * math.sin(a) + py * math.cos(a)))
           for px, py in full]
    draw.polygon(rot, fill=fill)


def glyph_note(draw: ImageDraw.ImageDraw, x: float, y: float, h: float, fill: tuple) -> None:
    """Two beamed eighth notes, h tall, top-left at (x, y)."""
    r = h * 0.17
    stem = max(1, round(h * 0.08))
    heads = [(x + r, y + h - r), (x + h * 0.62 + r, y + h - r * 1.5)]
    for hx, hy in heads:
        draw.ellipse((hx - r * 1.15, hy - r * 0.85, hx + r * 1.15, hy + r * 0.85), fill=fill)
    x1, x2 = heads[0][0] + r - stem / 2, heads[1][0] + r - stem / 2
    draw.rectangle((x1, y + h * 0.12, x1 + stem, heads[0][1]), fill=fill)
    draw.rectangle((x2, y + h * 0.02, x2 + stem, heads[1][1]), fill=fill)
    draw.polygon([(x1, y + h * 0.12), (x2 + stem, y + h * 0.02), (x2 + stem, y + h * 0.2), (x1, y + h * 0.3)],
                 fill=fill)


def glyph_star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple, points: int = 5) -> None:
    pts = []
    for i in range(points * 2):
        rr = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / points
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    draw.polygon(pts, fill=fill)


def wordmark_width(text: str, size_pt: float) -> float:
    """Width in points of `text` at size_pt, measured at 3x for precision."""
    box = font(size_pt * 3).getbbox(text, stroke_width=1)
    return (box[2] - box[0]) / 3


def logo(folder: Path, text: str, glyph) -> None:
    """Glyph + wordmark in white on transparent, 50 pt tall, width fitted to the content (<= 160 pt)."""
    text_pt = 19
    glyph_w = 30
    width = min(160, math.ceil(glyph_w + 6 + wordmark_width(text, text_pt) + 4))

    def draw_fn(px, s):
        def paint(img, d, k):
            glyph(d, k)
            f = font(text_pt * k)
            d.text(((glyph_w + 6) * k, 25 * k), text, font=f, fill=(255, 255, 255, 255), anchor="lm",
                   stroke_width=max(1, round(k * 0.35)), stroke_fill=(255, 255, 255, 255))
        return supersampled(px, lambda img, d, ss: paint(img, d, s * ss))

    each_scale(folder, "logo", (width, 50), draw_fn)


def icon(folder: Path, top: RGB, bottom: RGB, glyph) -> None:
    def draw_fn(px, s):
        base = gradient(px, top, bottom)
        art = supersampled(px, lambda img, d, ss: glyph(d, s * ss))
        return Image.alpha_composite(base, art)
    each_scale(folder, "icon", (29, 29), draw_fn)


# ---------------------------------------------------------------- loyalty (storeCard)

ESPRESSO, COFFEE, CREMA, MINT = (46, 27, 17), (120, 78, 48), (226, 186, 138), (72, 196, 150)


def loyalty() -> None:
    folder = ROOT / "loyalty"
    white = (255, 255, 255, 255)
    icon(folder, COFFEE, ESPRESSO, lambda d, k: glyph_cup(d, 6 * k, 4.5 * k, 20 * k, white, MINT + (255,)))
    logo(folder, "PassMint", lambda d, k: glyph_cup(d, 1 * k, 10 * k, 30 * k, white, MINT + (255,)))

    def strip(px, s):
        w, h = px
        img = gradient(px, ESPRESSO, COFFEE, horizontal=True)

        def paint(big, d, k):
            rng = random.Random(7)  # fixed bean layout, same for every scale
            for _ in range(22):
                bx, by = 150 + rng.random() * 225, rng.random() * 123
                r, a = 7 + rng.random() * 6, rng.random() * math.pi
                bean = Image.new("RGBA", (round(r * 2.6 * k), round(r * 2.6 * k)))
                bd = ImageDraw.Draw(bean)
                c = bean.size[0] / 2
                bd.ellipse((c - r * k, c - r * 0.68 * k, c + r * k, c + r * 0.68 * k), fill=(52, 30, 18, 255))
                crease = [(c + t * r * k, c + math.sin(t * math.pi) * r * 0.16 * k) for t in
                          (i / 10 - 0.8 for i in range(17))]
                bd.line(crease, fill=(150, 102, 66, 255), width=max(1, round(k * 1.3)), joint="curve")
                bean = bean.rotate(math.degrees(a), resample=Image.Resampling.BICUBIC)
                big.alpha_composite(bean, (round(bx * k - bean.size[0] / 2), round(by * k - bean.size[1] / 2)))
            glyph_cup(d, 268 * k, 18 * k, 90 * k, CREMA + (235,), MINT + (230,))
            # a mint wave along the bottom edge
            wave = [(x * k, (113 + 5 * math.sin(x / 24)) * k) for x in range(0, 376, 3)]
            d.polygon(wave + [(375 * k, 123 * k), (0, 123 * k)], fill=MINT + (200,))
        art = supersampled(px, lambda big, d, ss: paint(big, d, s * ss), ss=2)
        return Image.alpha_composite(img, art)

    each_scale(folder, "strip", (375, 123), strip)


# ---------------------------------------------------------------- status (generic)

NAVY, SKY = (18, 38, 74), (48, 108, 176)
TIERS = {
    # name: (highlight, shade, rim, letter colour, letter)
    "silver": ((246, 248, 251), (146, 153, 164), (96, 104, 116), (70, 78, 90), "S"),
    "gold": ((255, 238, 160), (190, 138, 20), (124, 86, 8), (98, 64, 0), "G"),
    "platinum": ((236, 242, 255), (112, 128, 160), (52, 60, 82), (36, 44, 66), "P"),
}


def medal(px: tuple[int, int], s: int, tier: str) -> Image.Image:
    hi, shade, rim, ink, letter = TIERS[tier]
    size = px[0]
    disc = radial(size, hi, shade)
    mask = Image.new("L", px, 0)
    md = ImageDraw.Draw(mask)
    pad = 5 * s
    md.ellipse((pad, pad, size - pad, size - pad), fill=255)
    out = Image.new("RGBA", px, (0, 0, 0, 0))
    out.paste(disc, (0, 0), mask)

    def paint(d, k):
        p = 5 * k
        d.ellipse((p, p, 90 * k - p, 90 * k - p), outline=rim + (255,), width=round(3 * k))
        d.ellipse((13 * k, 13 * k, 77 * k, 77 * k), outline=rim + (150,), width=max(1, round(1 * k)))
        if tier == "platinum":
            for cx, cy, r in ((24, 28, 5), (67, 23, 3.5), (73, 45, 4)):
                glyph_star(d, cx * k, cy * k, r * k, (255, 255, 255, 235), points=4)
        if tier == "gold":
            for i in range(12):  # laurel dots around the inner ring
                a = math.pi * (0.62 + 0.76 * i / 11)
                for side in (-1, 1):
                    x = 45 + side * 27 * math.cos(a)
                    y = 45 + 27 * math.sin(a)
                    d.ellipse(((x - 2.2) * k, (y - 3.2) * k, (x + 2.2) * k, (y + 3.2) * k), fill=rim + (220,))
        d.text((45 * k, 41 * k), letter, font=font(38 * k), fill=ink + (255,), anchor="mm",
               stroke_width=max(1, round(k * 0.8)), stroke_fill=ink + (255,))
        d.text((45 * k, 64 * k), tier.upper(), font=font(8.5 * k), fill=ink + (255,), anchor="mm",
               stroke_width=max(1, round(k * 0.25)), stroke_fill=ink + (255,))
        glyph_plane(d, 45 * k, 21 * k, 9 * k, ink + (255,), angle=-90)

    art = supersampled(px, lambda img, d, ss: paint(d, s * ss))
    return Image.alpha_composite(out, art)


def status() -> None:
    folder = ROOT / "status"
    white = (255, 255, 255, 255)
    icon(folder, SKY, NAVY, lambda d, k: glyph_plane(d, 14.5 * k, 14.5 * k, 24 * k, white))
    logo(folder, "PassMint Air", lambda d, k: glyph_plane(d, 15 * k, 25 * k, 30 * k, white))
    for tier in TIERS:
        each_scale(folder / "tiers" / tier, "thumbnail", (90, 90), lambda px, s, t=tier: medal(px, s, t))
    # The top-level thumbnail is the default tier's (Silver), so the folder is a valid .pass as it is.
    each_scale(folder, "thumbnail", (90, 90), lambda px, s: medal(px, s, "silver"))


# ---------------------------------------------------------------- event (eventTicket: background + thumbnail)

NIGHT, MAGENTA, PINK, GOLDEN = (24, 10, 44), (150, 28, 118), (255, 138, 208), (255, 206, 92)


def event() -> None:
    folder = ROOT / "event"
    white = (255, 255, 255, 255)
    icon(folder, MAGENTA, NIGHT, lambda d, k: glyph_note(d, 6 * k, 6 * k, 17 * k, white))
    logo(folder, "PassMint Live", lambda d, k: glyph_note(d, 2 * k, 11 * k, 28 * k, white))

    def background(px, s):
        img = gradient(px, NIGHT, MAGENTA)

        def paint(big, d, k):
            beams = Image.new("RGBA", big.size)
            bd = ImageDraw.Draw(beams)
            for x0, x1, x2, c in ((30, -20, 60, PINK), (90, 50, 140, GOLDEN), (150, 120, 210, PINK)):
                bd.polygon([(x0 * k, 0), (x1 * k, 200 * k), (x2 * k, 200 * k)], fill=c + (60,))
            big.alpha_composite(beams)
            rng = random.Random(11)
            for _ in range(26):
                x, y, r = rng.random() * 180, rng.random() * 110, 0.6 + rng.random() * 1.2
                d.ellipse(((x - r) * k, (y - r) * k, (x + r) * k, (y + r) * k), fill=(255, 255, 255, 200))
            d.rectangle((0, 196 * k, 180 * k, 220 * k), fill=(10, 4, 18, 255))  # stage front
            for i in range(13):  # crowd silhouette
                cx = 7 + i * 14 + (3 if i % 2 else 0)
                cy = 190 - (i * 7 % 5)
                d.ellipse(((cx - 5) * k, (cy - 5) * k, (cx + 5) * k, (cy + 5) * k), fill=(10, 4, 18, 255))
                d.rounded_rectangle(((cx - 8) * k, (cy + 4) * k, (cx + 8) * k, 220 * k), radius=5 * k,
                                    fill=(10, 4, 18, 255))
        art = supersampled(px, lambda big, d, ss: paint(big, d, s * ss), ss=2)
        return Image.alpha_composite(img, art)

    def thumbnail(px, s):
        def paint(d, k):
            d.rounded_rectangle((4 * k, 4 * k, 86 * k, 86 * k), radius=18 * k, fill=MAGENTA + (255,),
                                outline=GOLDEN + (255,), width=round(3 * k))
            glyph_star(d, 68 * k, 22 * k, 9 * k, GOLDEN + (255,))
            glyph_note(d, 18 * k, 20 * k, 44 * k, (255, 255, 255, 255))
            d.text((45 * k, 75 * k), "LIVE", font=font(14 * k), fill=(255, 255, 255, 255), anchor="mm",
                   stroke_width=max(1, round(k * 0.5)), stroke_fill=(255, 255, 255, 255))
        return supersampled(px, lambda img, d, ss: paint(d, s * ss))

    each_scale(folder, "background", (180, 220), background)
    each_scale(folder, "thumbnail", (90, 90), thumbnail)


# ---------------------------------------------------------------- loyalty localization (UTF-16LE with BOM)

STRINGS = {  # pass.json string -> German; English maps each key to itself
    "TIER": "STUFE",
    "POINTS": "PUNKTE",
    "MEMBER": "MITGLIED",
    "BALANCE": "GUTHABEN",
    "POINTS EXPIRE": "PUNKTE VERFALLEN",
    "MEMBER NUMBER": "MITGLIEDSNUMMER",
    "HOW TO EARN": "SO SAMMELN SIE",
    "TERMS AND CONDITIONS": "TEILNAHMEBEDINGUNGEN",
    "CONTACT": "KONTAKT",
    "Rewards": "Prämien",
    "You now have %@ points": "Sie haben jetzt %@ Punkte",
    "You are now %@": "Ihre Stufe ist jetzt %@",
    "Your balance is now %@": "Ihr Guthaben beträgt jetzt %@",
    "Bronze": "Bronze",
    "Silver": "Silber",
    "Gold": "Gold",
    "Earn 10 points for every dollar you spend. Show this card at the register before you pay.":
        "Für jeden ausgegebenen Dollar erhalten Sie 10 Punkte. Zeigen Sie diese Karte vor dem Bezahlen an der Kasse.",
    "Points have no cash value and cannot be transferred. Points expire on the date shown on the front of this card."
    " PassMint Coffee may change the rewards program at any time.":
        "Punkte haben keinen Geldwert und sind nicht übertragbar. Punkte verfallen an dem Datum auf der Vorderseite"
        " dieser Karte. PassMint Coffee kann das Prämienprogramm jederzeit ändern.",
}


def strings_file(pairs: dict[str, str]) -> bytes:
    def esc(v: str) -> str:
        return v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    lines = ["/* Generated by tools/make-template-art.py; edit STRINGS there. */"]
    lines += [f'"{esc(k)}" = "{esc(v)}";' for k, v in pairs.items()]
    return ("\ufeff" + "\n".join(lines) + "\n").encode("utf-16-le")


def loyalty_strings() -> None:
    for lang, table in (("en", {k: k for k in STRINGS}), ("de", STRINGS)):
        path = ROOT / "loyalty" / f"{lang}.lproj" / "pass.strings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(strings_file(table))
        WRITTEN.append(path)


# ---------------------------------------------------------------- validation

EXPECTED = {  # image name -> size in points (exact); logo is checked as <= 160x50
    "icon": (29, 29), "strip": None, "thumbnail": (90, 90), "background": (180, 220), "logo": None,
    "artwork": (358, 448), "primaryLogo": None,  # poster generic (ios27.md); primaryLogo: 30 pt x 30-126 pt
}
STRIP = {"storeCard": (375, 123), "coupon": (375, 144), "eventTicket": (375, 98)}
STYLE_KEYS = ("boardingPass", "coupon", "eventTicket", "generic", "storeCard")
GROUPS = ("headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields", "additionalInfoFields")
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
BUILTINS = {"serialNumber"}


def strings_in(node) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [s for item in node for s in strings_in(item)]
    if isinstance(node, dict):
        return [s for v in node.values() for s in strings_in(v)]
    return []


def check_image_set(folder: Path, base: str, points: tuple[int, int] | None, style: str) -> None:
    sizes = {}
    for s in SCALES:
        path = folder / (f"{base}.png" if s == 1 else f"{base}@{s}x.png")
        assert path.is_file(), f"missing {path}"
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
        assert path.stat().st_size <= MAX_BYTES, f"{path} is too big"
        with Image.open(path) as im:
            sizes[s] = im.size
    name = base.split("/")[-1]
    if name == "strip":
        points = STRIP[style]
    if name == "primaryLogo":
        w, h = sizes[1]
        assert h == 30 and 30 <= w <= 126, f"{folder}/{base}.png {sizes[1]} is not 30 pt tall, 30-126 pt wide"
        points = sizes[1]
    if name == "logo":
        w, h = sizes[1]
        assert w <= 160 and h <= 50, f"{folder}/{base}.png {sizes[1]} exceeds 160x50"
        points = sizes[1]
    for s, size in sizes.items():
        assert size == (points[0] * s, points[1] * s), f"{folder}/{base}@{s}x: {size}, expected {points} pt"


def check_template(folder: Path) -> None:
    pass_json = json.loads((folder / "pass.json").read_text(encoding="utf-8"))
    template = json.loads((folder / "template.json").read_text(encoding="utf-8"))
    styles = [k for k in STYLE_KEYS if k in pass_json]
    assert len(styles) == 1, f"{folder}: exactly one style key expected, found {styles}"
    style = styles[0]
    assert pass_json["formatVersion"] == 1
    for key in ("organizationName", "description", "serialNumber"):
        assert isinstance(pass_json.get(key), str), f"{folder}: {key} missing"
    for key in ("passTypeIdentifier", "teamIdentifier", "webServiceURL", "authenticationToken", "barcode"):
        assert key not in pass_json, f"{folder}: {key} must not be in a template"
    assert pass_json["serialNumber"] == "{{serialNumber}}"
    assert all(b["messageEncoding"] == "iso-8859-1" for b in pass_json["barcodes"])

    # fields: unique keys, date style pairs, numbers only on number placeholders
    fields = {f["name"]: f for f in template["fields"]}
    assert len(fields) == len(template["fields"]), f"{folder}: duplicate template field"
    assert "serialNumber" not in fields
    keys = [f["key"] for g in GROUPS for f in pass_json[style].get(g, [])]
    assert len(keys) == len(set(keys)), f"{folder}: duplicate field keys {keys}"
    for g in GROUPS:
        for f in pass_json[style].get(g, []):
            assert ("dateStyle" in f) == ("timeStyle" in f), f"{folder}: {f['key']} needs dateStyle+timeStyle"
            if "currencyCode" in f or "numberStyle" in f:
                m = PLACEHOLDER.fullmatch(f["value"])
                assert m and fields[m.group(1)]["type"] in ("integer", "decimal"), f"{folder}: {f['key']} not numeric"
            if "row" in f:
                assert style == "eventTicket" and g == "auxiliaryFields" and f["row"] in (0, 1)
            if g in ("primaryFields", "backFields"):
                assert "textAlignment" not in f, f"{folder}: textAlignment not allowed on {f['key']}"

    # placeholders: every one is declared; every field is used; every field has a default
    used = {m for s in strings_in(pass_json) for m in PLACEHOLDER.findall(s)}
    assert used - BUILTINS <= set(fields), f"{folder}: undeclared placeholders {used - BUILTINS - set(fields)}"
    images = {name for name, f in fields.items() if f["type"] == "image"}  # photo fields fill a slot, not a value
    assert set(fields) - images <= used, f"{folder}: unused fields {set(fields) - images - used}"
    date_re = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?([+-]\d\d:\d\d|Z)")
    for f in fields.values():
        assert f["type"] in ("string", "integer", "decimal", "date", "enum", "image"), f
        if f["type"] == "image":  # optional, no default: the template's own image is used
            assert f["image"] in EXPECTED and "default" not in f and f["required"] is False, f
            continue
        assert isinstance(f.get("default"), str) and f["default"] != "", f"{folder}: {f['name']} has no default"
        assert isinstance(f["required"], bool) and f.get("description")
        if f["type"] == "enum":
            assert f["default"] in f["values"]
        else:
            assert "values" not in f
        if f["type"] == "date":
            assert date_re.fullmatch(f["default"]), f"{folder}: {f['name']} default is not ISO 8601 with zone"
        if f["type"] == "integer":
            int(f["default"])
        if f["type"] == "decimal":
            float(f["default"])

    # images
    check_image_set(folder, "icon", (29, 29), style)
    check_image_set(folder, "logo", None, style)
    present = {p.name.split("@")[0].removesuffix(".png") for p in folder.glob("*.png")}
    for name in sorted(present - {"icon", "logo"}):
        check_image_set(folder, name, EXPECTED.get(name), style)
    if style == "eventTicket":
        assert not ("strip" in present and ({"thumbnail", "background"} & present)), "strip with background/thumbnail"
    if style in ("generic",):
        assert "strip" not in present, "generic passes do not show a strip image"

    # tiers
    tiers = template.get("tiers")
    if tiers:
        field = fields[tiers["field"]]
        assert field["type"] == "enum" and set(tiers["values"]) == set(field["values"]), f"{folder}: tier values"
        digests = {}
        for value, override in tiers["values"].items():
            for key, colour in override.get("pass", {}).items():
                assert re.fullmatch(r"rgb\(\d{1,3}, \d{1,3}, \d{1,3}\)", colour), f"{folder}: {value}.{key}"
            for target, source in override.get("images", {}).items():
                assert (folder / source).is_file(), f"{folder}: {source} missing"
                assert (folder / target).is_file(), f"{folder}: tier image {target} replaces nothing"
                with Image.open(folder / source) as a, Image.open(folder / target) as b:
                    assert a.size == b.size, f"{folder}: {source} size differs from {target}"
                digests.setdefault(target, {})[value] = (folder / source).read_bytes()
        for target, by_tier in digests.items():
            assert len(set(by_tier.values())) == len(by_tier), f"{folder}: tier images for {target} are identical"

    # rendering with no values at all (defaults only) gives a complete pass
    defaults = {name: f["default"] for name, f in fields.items() if "default" in f}
    rendered = render(pass_json, defaults | {"serialNumber": "X"}, fields)
    assert not [s for s in strings_in(rendered) if "{{" in s], f"{folder}: placeholders left after rendering"
    if style == "eventTicket":
        sem = rendered["semantics"]
        for key in ("eventName", "venueName", "venueRegionName", "venueRoom", "performerNames"):
            assert sem.get(key), f"{folder}: poster event tickets need semantics.{key}"
        assert rendered["preferredStyleSchemes"] == ["posterEventTicket", "eventTicket"]
        for interval in rendered["relevantDates"]:
            start, end = (datetime.fromisoformat(interval[k]) for k in ("startDate", "endDate"))
            assert timedelta(0) < end - start <= timedelta(hours=24), f"{folder}: relevantDates interval"

    # localization: identical key sets, UTF-16LE with BOM, every key used by the rendered pass
    tables = {}
    for lproj in sorted(folder.glob("*.lproj")):
        raw = (lproj / "pass.strings").read_bytes()
        assert raw[:2] == b"\xff\xfe", f"{lproj}/pass.strings: UTF-16LE BOM expected"
        text = raw[2:].decode("utf-16-le")
        tables[lproj.name] = set(re.findall(r'^"((?:[^"\\]|\\.)*)"\s*=', text, re.M))
    if tables:
        first = next(iter(tables.values()))
        assert all(t == first for t in tables.values()), f"{folder}: pass.strings key sets differ"
        known = set(strings_in(pass_json)) | {v for f in fields.values() for v in f.get("values", [])}
        unused = {k.replace('\\"', '"').replace("\\n", "\n") for k in first} - known
        assert not unused, f"{folder}: pass.strings keys not in pass.json: {unused}"


def render(node, values: dict[str, str], fields: dict):
    """What the renderer does: substitute placeholders; a lone numeric placeholder becomes a number."""
    if isinstance(node, str):
        m = PLACEHOLDER.fullmatch(node)
        if m and m.group(1) in fields and fields[m.group(1)]["type"] in ("integer", "decimal"):
            raw = values[m.group(1)]
            return int(raw) if fields[m.group(1)]["type"] == "integer" else float(raw)
        return PLACEHOLDER.sub(lambda mm: values[mm.group(1)], node)
    if isinstance(node, list):
        return [render(item, values, fields) for item in node]
    if isinstance(node, dict):
        return {k: render(v, values, fields) for k, v in node.items()}
    return node


def main() -> int:
    if "--check" not in sys.argv:
        loyalty()
        loyalty_strings()
        status()
        event()
        for path in WRITTEN:
            print(f"{path.stat().st_size:6d}  {path.relative_to(ROOT.parent)}")
    for name in ("loyalty", "status", "event"):
        check_template(ROOT / name)
    print("templates OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
