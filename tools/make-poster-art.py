#!/usr/bin/env python3
"""Draw the iOS 27 poster images of the shipped templates: poster artwork and primary logos.

    /usr/bin/python3 tools/make-poster-art.py          # (re)write the files below
    /usr/bin/python3 tools/make-poster-art.py --check  # only validate what is on disk

Writes Templates/status/{artwork,primaryLogo}.png and tiers/*/artwork.png, and the images of
Templates/designer-club.pkpasstemplate (icon, logo, primaryLogo, artwork), each at @1x/@2x/@3x.
It reuses the drawing helpers of tools/make-template-art.py but not its text rendering (which needs
Pillow >= 10.1): wordmarks are drawn with DejaVu Sans Bold (Debian fonts-dejavu-core).

Sizes (points, ios27.md and Sources/PassModel/Images/ImageSlot.swift): artwork 358x448 (a material
strip covers its bottom, so the motif stays in the upper two thirds), primaryLogo 30 pt tall and
30-126 pt wide, icon 29x29, logo <= 160x50.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("template_art", HERE / "make-template-art.py")
art = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(art)  # type: ignore[union-attr]

ROOT = art.ROOT
SCALES = art.SCALES
ARTWORK = (358, 448)
MAX_ARTWORK_BYTES = 400_000
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


def bold(px: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), max(6, round(px)))


def save(folder: Path, name: str, scale: int, img: Image.Image, expect: tuple[int, int], limit: int) -> None:
    assert img.size == expect, f"{folder / name}@{scale}x: {img.size} != {expect}"
    data = art.png_bytes(img)
    assert len(data) <= limit, f"{folder / name}@{scale}x is {len(data)} bytes"
    path = folder / (f"{name}.png" if scale == 1 else f"{name}@{scale}x.png")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    print(f"{len(data):7d}  {path.relative_to(ROOT.parent)}")


def each_scale(folder: Path, name: str, points: tuple[int, int], draw_fn, limit: int = art.MAX_BYTES) -> None:
    for s in SCALES:
        px = (points[0] * s, points[1] * s)
        save(folder, name, s, draw_fn(px, s), px, limit)


def wordmark(folder: Path, text: str, glyph, height: int = 30, text_pt: float = 15) -> None:
    """A primaryLogo: glyph + wordmark in white on transparent, `height` pt tall, at most 126 pt wide."""
    def text_width(pt: float) -> float:
        box = bold(pt * 3).getbbox(text)
        return (box[2] - box[0]) / 3
    while height + 4 + text_width(text_pt) + 2 > 126:  # shrink the wordmark rather than clip it
        text_pt -= 0.5
    width = math.ceil(height + 4 + text_width(text_pt) + 2)

    def draw_fn(px, s):
        def paint(img, d, k):
            glyph(d, k)
            d.text(((height + 4) * k, height / 2 * k), text, font=bold(text_pt * k), fill=(255, 255, 255, 255),
                   anchor="lm")
        return art.supersampled(px, lambda img, d, ss: paint(img, d, s * ss))

    each_scale(folder, "primaryLogo", (width, height), draw_fn)


def poster(top, bottom, accent, motif):
    """artwork draw function: a vertical gradient, soft rings and `motif(d, k)` in the upper area."""
    def draw_fn(px, s):
        img = art.gradient(px, top, bottom)

        def paint(big, d, k):
            cx, cy = 250, 150
            for i, r in enumerate((210, 160, 115, 75)):
                d.ellipse(((cx - r) * k, (cy - r) * k, (cx + r) * k, (cy + r) * k),
                          outline=accent + (40 + 18 * i,), width=max(1, round(2 * k)))
            motif(d, k)
        overlay = art.supersampled(px, lambda big, d, ss: paint(big, d, s * ss), ss=2 if s < 3 else 1)
        return Image.alpha_composite(img, overlay)
    return draw_fn


# ---------------------------------------------------------------- status (poster generic, per tier)

STATUS_ART = {  # tier: (top, bottom, accent); top/bottom follow the tier's backgroundColor
    "silver": ((150, 160, 172), (60, 66, 76), (246, 248, 251)),
    "gold": ((206, 160, 58), (96, 68, 10), (255, 238, 160)),
    "platinum": ((84, 92, 112), (18, 20, 28), (236, 242, 255)),
}


def status() -> None:
    folder = ROOT / "status"
    white = (255, 255, 255, 255)
    wordmark(folder, "PassMint Air", lambda d, k: art.glyph_plane(d, 15 * k, 15 * k, 24 * k, white))

    def motif(accent):
        def draw(d, k):
            for i in range(3):  # contrails
                y = 96 + i * 26
                d.line([(20 * k, (y + 40) * k), (230 * k, y * k)], fill=accent + (110 - 30 * i,),
                       width=max(1, round(3 * k)))
            art.glyph_plane(d, 255 * k, 138 * k, 120 * k, accent + (255,), angle=-30)
            for cx, cy, r in ((70, 60, 6), (320, 60, 4), (300, 250, 5)):
                art.glyph_star(d, cx * k, cy * k, r * k, accent + (220,), points=4)
        return draw

    for tier, (top, bottom, accent) in STATUS_ART.items():
        each_scale(folder / "tiers" / tier, "artwork", ARTWORK, poster(top, bottom, accent, motif(accent)),
                   MAX_ARTWORK_BYTES)
    # The top-level artwork is the default tier's (Silver), so the folder is a valid pass as it is.
    top, bottom, accent = STATUS_ART["silver"]
    each_scale(folder, "artwork", ARTWORK, poster(top, bottom, accent, motif(accent)), MAX_ARTWORK_BYTES)


# ---------------------------------------------------------------- designer-club (Pass Designer template)

TEAL, DEEP, LIME = (32, 142, 150), (16, 34, 48), (196, 240, 120)


def glyph_club(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple, hole: tuple) -> None:
    """A membership badge: a ring with a star."""
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    d.ellipse((cx - r * 0.72, cy - r * 0.72, cx + r * 0.72, cy + r * 0.72), fill=hole)
    art.glyph_star(d, cx, cy, r * 0.55, fill)


def designer_club() -> None:
    folder = ROOT / "designer-club.pkpasstemplate"
    white, clear = (255, 255, 255, 255), (0, 0, 0, 0)
    art.WRITTEN.clear()
    art.icon(folder, TEAL, DEEP, lambda d, k: glyph_club(d, 14.5 * k, 14.5 * k, 11 * k, white, TEAL + (255,)))
    wordmark(folder, "Club", lambda d, k: glyph_club(d, 15 * k, 15 * k, 12 * k, white, clear))

    def logo(px, s):
        def paint(img, d, k):
            glyph_club(d, 25 * k, 25 * k, 18 * k, white, clear)
            d.text((50 * k, 25 * k), "PassMint Club", font=bold(16 * k), fill=white, anchor="lm")
        return art.supersampled(px, lambda img, d, ss: paint(img, d, s * ss))
    each_scale(folder, "logo", (160, 50), logo)

    def motif(d, k):
        glyph_club(d, 250 * k, 150 * k, 70 * k, LIME + (255,), (0, 0, 0, 0))
        for i in range(5):
            y = 260 + i * 14
            d.line([(24 * k, y * k), ((120 + 40 * i) * k, y * k)], fill=LIME + (90,), width=max(1, round(3 * k)))
    each_scale(folder, "artwork", ARTWORK, poster(TEAL, DEEP, LIME, motif), MAX_ARTWORK_BYTES)


# ---------------------------------------------------------------- validation

SIZES = {"icon": ("exact", (29, 29)), "artwork": ("exact", ARTWORK), "logo": ("max", (160, 50)),
         "primaryLogo": ("logo", (30, 126)), "thumbnail": ("max", (90, 90))}


def check(folder: Path) -> None:
    for base, (rule, size) in SIZES.items():
        paths = [folder / (f"{base}.png" if s == 1 else f"{base}@{s}x.png") for s in SCALES]
        if not any(p.exists() for p in paths):
            continue
        with Image.open(paths[0]) as im:
            one = im.size
        for s, path in zip(SCALES, paths):
            with Image.open(path) as im:
                w, h = im.size
            assert (w, h) == (one[0] * s, one[1] * s), f"{path}: {w}x{h} is not @{s}x of {one}"
            if rule == "exact":
                assert (w, h) == (size[0] * s, size[1] * s), f"{path}: {w}x{h}, expected {size} pt"
            elif rule == "max":
                assert w <= size[0] * s and h <= size[1] * s, f"{path}: {w}x{h} exceeds {size} pt"
            else:
                assert h == size[0] * s and size[0] * s <= w <= size[1] * s, f"{path}: {w}x{h} not 30 pt x 30-126 pt"


def main() -> int:
    if "--check" not in sys.argv:
        status()
        designer_club()
    for folder in (ROOT / "status", *(ROOT / "status" / "tiers").iterdir(), ROOT / "designer-club.pkpasstemplate"):
        check(folder)
    print("poster art OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
