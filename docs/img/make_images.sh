#!/usr/bin/env bash
# Regenerates the PNGs of the docs (README and docs/outputs.md) from the demo workshop:
#   bash docs/img/make_images.sh [OUT]     (default OUT: a temporary folder, removed at the end)
# Needs poppler-utils (pdftoppm) and chromium, which `make test` installs.
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
if [ $# -ge 1 ]; then OUT=$1; else OUT=$(mktemp -d); trap 'rm -rf "$OUT"' EXIT; fi
[ -f "$OUT/results.json" ] || $PY -m compreport demo -o "$OUT" --force -q --figure-formats pdf,svg,png
TMP=$(mktemp -d)
# -singlefile: page 1 as <name>.png, whatever the number of pages
pdftoppm -f 1 -l 1 -singlefile -png -scale-to 1131 "$OUT/paraphrase/report.pdf" "$TMP/report"
pdftoppm -f 1 -l 1 -singlefile -png -scale-to 1131 "$OUT/paraphrase/teams/paranlp.pdf" "$TMP/team"
pdftoppm -f 1 -l 1 -singlefile -png -scale-to 1131 "$OUT/overview.pdf" "$TMP/overview"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --window-size=390,1400 --screenshot="$TMP/phone.png" "file://$OUT/paraphrase/report.html" \
  2>/dev/null
# Small files: at most 800 px wide, a 64-colour palette (text and flat colours survive it), and
# the PDF pages cut below their last line of text (above the page footer).
$PY - "$TMP" "$OUT" <<'PYEOF'
import sys
from pathlib import Path

from PIL import Image, ImageChops

tmp, out = Path(sys.argv[1]), Path(sys.argv[2])
sources = {
    "report-page1.png": tmp / "report.png",
    "team-letter.png": tmp / "team.png",
    "overview.png": tmp / "overview.png",
    "html-phone.png": tmp / "phone.png",
    "figure-ci.png": out / "paraphrase" / "figures" / "ci-accuracy.png",
    "figure-diff.png": out / "paraphrase" / "figures" / "diff-accuracy.png",
}
for name, src in sources.items():
    im = Image.open(src).convert("RGB")
    if name in ("report-page1.png", "team-letter.png", "overview.png"):
        body = im.crop((0, 0, im.width, int(im.height * 0.93)))  # the footer is below 93 %
        box = ImageChops.difference(body, Image.new("RGB", body.size, "white")).getbbox()
        im = im.crop((0, 0, im.width, min(body.height, box[3] + 40)))
    if im.width > 800:
        im = im.resize((800, round(im.height * 800 / im.width)), Image.LANCZOS)
    im.quantize(colors=64, method=Image.MEDIANCUT).save(name, optimize=True)
    print(name, im.size, Path(name).stat().st_size // 1024, "KiB")
PYEOF
rm -rf "$TMP"
