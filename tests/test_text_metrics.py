"""Figures measure each text once per kind of renderer (style.shared_text_metrics): the same bytes
as without it, matplotlib's function back after the block, and fewer FreeType layouts."""

from __future__ import annotations

import io
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.text as mtext  # noqa: E402
import pytest  # noqa: E402

import compreport as cr  # noqa: E402
from compreport.report.figures import gallery, style  # noqa: E402
from compreport.resources import demo_workshop_dir  # noqa: E402


@pytest.fixture(scope="module")
def stance():
    """A demo competition with two metrics and seven systems, analysed with few replicates."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cr.analyze(cr.load(str(demo_workshop_dir() / "stance-eu")), bootstrap=200)


def saved(fig, fmt: str) -> bytes:
    buf = io.BytesIO()
    with matplotlib.rc_context(style.RC):
        fig.savefig(buf, format=fmt, bbox_inches="tight", metadata=style.METADATA[fmt])
    return buf.getvalue()


def test_figures_are_the_same_bytes_with_shared_metrics(stance):
    """Every figure of a competition but the histograms (few texts, slow), as PDF, SVG and PNG
    (each save of a new figure), drawn without the block and then twice inside it (the second
    time from the cache): the same bytes each time."""
    comp = stance.competitions[0]
    builders = [(s, b) for s, b in gallery.figure_builders(comp, 0.95) if not s.startswith("dist")]
    assert len(builders) >= 5
    plain = {
        (stem, fmt): saved(build(), fmt)
        for stem, build in builders
        for fmt in ("pdf", "svg", "png")
    }
    with style.shared_text_metrics():
        for _ in range(2):
            for stem, build in builders:
                for fmt in ("pdf", "svg", "png"):
                    assert saved(build(), fmt) == plain[stem, fmt], (stem, fmt)


def test_shared_metrics_restore_matplotlib_and_measure_less(stance, monkeypatch):
    """Nested blocks share one patch and the last one out puts matplotlib's function back; inside,
    drawing the same figure twice more measures no text with FreeType (all from the cache),
    where without the block each drawing measures again."""
    original = mtext._get_text_metrics_with_cache
    comp = stance.competitions[0]
    build = dict(gallery.figure_builders(comp, 0.95))["ci-accuracy"]
    from matplotlib.backends.backend_svg import RendererSVG

    calls = []
    measure = RendererSVG.get_text_width_height_descent

    def counted(self, *args, **kwargs):
        calls.append(args[0])
        return measure(self, *args, **kwargs)

    monkeypatch.setattr(RendererSVG, "get_text_width_height_descent", counted)
    saved(build(), "svg")
    once = len(calls)
    saved(build(), "svg")
    assert len(calls) == 2 * once > 0  # matplotlib alone: measured again
    calls.clear()
    with style.shared_text_metrics():
        with style.shared_text_metrics():
            saved(build(), "svg")
        first = len(calls)
        assert mtext._get_text_metrics_with_cache is not original
        saved(build(), "svg")
        saved(build(), "svg")
        assert len(calls) == first  # the later drawings measured nothing
    assert mtext._get_text_metrics_with_cache is original


def test_a_changed_rc_setting_is_measured_anew(stance):
    """A setting the size of a text depends on (hinting) is part of the key: a figure saved under
    another value inside the block is the figure matplotlib alone draws under it."""
    comp = stance.competitions[0]
    build = dict(gallery.figure_builders(comp, 0.95))["ci-accuracy"]
    with matplotlib.rc_context({"text.hinting": "no_hinting"}):
        alone = saved(build(), "png")
    with style.shared_text_metrics():
        saved(build(), "png")  # fills the cache under the report's settings
        with matplotlib.rc_context({"text.hinting": "no_hinting"}):
            assert saved(build(), "png") == alone
