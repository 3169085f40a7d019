#!/usr/bin/env bash
# The home-screen icons of the web app manifest (issue 27), made from the two drawings in
# scripts/icons/ (the favicon's card, its heart a path so no font is involved): the PNGs are
# committed under static/icons/; run this again after changing a drawing.
#   icon.svg      rounded square, for "purpose": "any" (192 and 512 px)
#   maskable.svg  full-bleed square, the card inside the central 80 % circle that every
#                 platform's mask keeps, for "purpose": "maskable" (512 px) and Apple (180 px)
# Needs Debian's librsvg2-bin (rsvg-convert) and optipng: apt-get install librsvg2-bin optipng
set -euo pipefail
cd "$(dirname "$0")/.."
out=static/icons
mkdir -p "$out"
render() {  # drawing, size, file
  rsvg-convert --width "$2" --height "$2" "scripts/icons/$1" --output "$out/$3"
  optipng -quiet -o2 -strip all "$out/$3"
}
render icon.svg 192 icon-192.png
render icon.svg 512 icon-512.png
render maskable.svg 512 maskable-512.png
render maskable.svg 180 apple-touch-icon.png
ls -l "$out"
