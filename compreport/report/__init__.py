"""Report: format-neutral tables, prose, figures, and the LaTeX, HTML and PDF renderers."""
