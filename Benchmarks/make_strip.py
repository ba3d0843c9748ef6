#!/usr/bin/env python3
"""Writes realistic-size strip images (photo-like noise, about 240 KB at @3x) into a template copy."""
import random
import sys

from PIL import Image, ImageFilter

folder = sys.argv[1]
random.seed(7)
for scale, suffix in ((1, ""), (2, "@2x"), (3, "@3x")):
    w, h = 375 * scale, 123 * scale
    img = Image.effect_noise((w, h), 24).convert("RGB")
    gradient = Image.linear_gradient("L").resize((w, h)).convert("RGB")
    img = Image.blend(img, gradient, 0.6).filter(ImageFilter.GaussianBlur(1.0))
    img.save(f"{folder}/strip{suffix}.png", optimize=False)
