"""Figures: each drawn once per report by a :class:`~compreport.report.figures.gallery.Gallery`.

This package's own namespace holds only what needs no matplotlib, so the command line can name the
figure formats without loading it.
"""

#: Figure file formats of :meth:`compreport.Report.write` (``figure_formats``).
FIGURE_FORMATS = ("pdf", "svg", "png")
