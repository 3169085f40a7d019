#!/usr/bin/env bash
# The game's sounds (issue 27), made with SoX and committed under static/sounds/: short,
# quiet, 16 kHz mono 16-bit WAV (every browser plays WAV; a few kilobytes each). Played only
# after the player turns Sound on (static/js/sound.js). Run this again after changing one.
#   card.wav     a removal (Half Moon) or a card home on a foundation (Seahaven): a soft pluck
#   refusal.wav  a move the rules refuse: a low, muted thud
#   win.wav      the game is won: four plucked notes going up (C E G C)
# Needs Debian's sox (apt-get install sox). -R: repeatable (fixed seed), -D: no dither, so
# the same bytes come out every run.
set -euo pipefail
cd "$(dirname "$0")/.."
out=static/sounds
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
sx() { sox -R -D "$@"; }
format=(-r 16000 -b 16 -c 1)
sx -n "${format[@]}" "$out/card.wav" synth 0.14 pluck E5 fade q 0.002 0.14 0.1 gain -16
sx -n "${format[@]}" "$out/refusal.wav" synth 0.16 sine 150 sine 225 fade q 0.01 0.16 0.12 \
  lowpass 600 gain -14
notes=(C5 E5 G5 C6)
lengths=(0.11 0.11 0.11 0.45)
for i in "${!notes[@]}"; do
  sx -n "${format[@]}" "$work/$i.wav" synth "${lengths[$i]}" pluck "${notes[$i]}" \
    fade q 0.002 "${lengths[$i]}" 0.05 gain -15
done
sx "$work/0.wav" "$work/1.wav" "$work/2.wav" "$work/3.wav" "${format[@]}" "$out/win.wav"
ls -l "$out"
