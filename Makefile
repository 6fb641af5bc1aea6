# Two commands set everything up on a fresh Debian machine (as root, or with sudo):
#   make demo   - venv, system libraries, the package, then `compreport demo -o out/`
#   make test   - the above plus the test and docs extras and the TeX toolchain, then pytest,
#                 the docs site built with --strict (into a temporary folder), ruff, mypy on
#                 the public API, and `twine check` of the sdist and the wheel (built into a
#                 temporary folder)
#   make docs   - serve the documentation site at http://127.0.0.1:8000
#   make floors - the lowest declared versions of the dependencies in a fresh venv, then
#                 `compreport demo` and a subset of the tests (.ci/run runs it after `make test`)
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
OUT ?= out

# WeasyPrint's libraries on bare Debian; the TeX toolchain and poppler for the tests:
# texlive-fonts-recommended (Times, the ACL style's font), texlive-lang-spanish (babel spanish of the
# SEPLN template), chromium (tests/test_browser.py lays the HTML out at 1280 and 390 px).
# texlive-fonts-extra (Libertinus, ceurart's font; a 500 MB download): the ceurart tables are laid
# out and compiled in the font the class really uses (tests/test_latex_libertinus.py).
# fonts-wqy-microhei (5 MB): Chinese, Japanese and Korean team names in the PDFs, which WeasyPrint
# would otherwise print as empty boxes (fontconfig falls back to it for those characters only).
APT_RUNTIME := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core fonts-wqy-microhei
APT_TEST := texlive-latex-extra texlive-science texlive-fonts-recommended texlive-fonts-extra \
	texlive-lang-spanish lmodern latexmk \
	poppler-utils chromium

# Install the Debian packages given in $(1) that are not installed yet, waiting for another package
# manager's locks (dpkg's up to 15 minutes; apt-get update's lists lock, which apt cannot wait for,
# by retrying for 10 minutes).
define apt_install
	missing=""; \
	for p in $(1); do dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  for try in $$(seq 1 60); do \
	    $$SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq && break; \
	    [ "$$try" -lt 60 ] || exit 1; echo "apt-get update failed (another package manager holds its lock?); retrying in 10 s"; sleep 10; \
	  done; \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
	    --no-install-recommends $$missing; \
	fi
endef

.PHONY: demo test twine-check floors docs sysdeps sysdeps-test venv bench clean

sysdeps:
	@command -v dpkg-query >/dev/null || { echo "not a Debian system: install $(APT_RUNTIME) yourself"; exit 0; }
	@$(call apt_install,$(APT_RUNTIME))
	@$(PYTHON) -c "import venv, ensurepip" 2>/dev/null || { $(call apt_install,python3-venv python3-pip); }

sysdeps-test: sysdeps
	@command -v dpkg-query >/dev/null || { echo "not a Debian system: install $(APT_TEST) yourself"; exit 0; }
	@$(call apt_install,$(APT_TEST))

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

venv: $(PY)

demo: sysdeps venv
	$(PY) -m pip install -q .
	$(VENV)/bin/compreport demo -o $(OUT) --force

# The Material theme prints a banner about MkDocs 2 on every build; NO_MKDOCS_2_WARNING silences it.
test: sysdeps-test venv
	$(PY) -m pip install -q -e '.[test,docs]'
	# PyEvALL (the ICM family's reference in tests/test_icm.py) pins numpy==1.26.4 and pandas==2.2.3:
	# installed without its pins; the test extra brings the dependencies it really imports.
	$(PY) -m pip install -q --no-deps pyevall==0.2.11
	$(PY) -m pytest -n auto
	site=$$(mktemp -d) && trap 'rm -rf "$$site"' EXIT && \
	  NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --quiet --site-dir "$$site"
	$(PY) -m ruff check compreport tests
	$(PY) -m mypy
	$(MAKE) --no-print-directory twine-check

# The sdist and the wheel, built into a temporary folder (nothing is left in the checkout), pass the
# package index's checks: metadata, and a long description that renders.
twine-check:
	dist=$$(mktemp -d) && trap 'rm -rf "$$dist"' EXIT && \
	  $(PY) -m build --outdir "$$dist" . >/dev/null && \
	  $(PY) -m twine check --strict "$$dist"/*

# The floors pyproject.toml declares, tested: a fresh venv in a temporary folder gets every direct
# dependency at its lowest declared version (constraints from tools/floors.py; pip resolves the
# others), then the installed `compreport demo` writes every format and the quick tests of
# FLOORS_TESTS run with those dependencies (on the checkout's code, which the root conftest.py puts
# first on sys.path: the code that was installed).
FLOORS_TESTS := tests/test_api.py tests/test_notebook.py tests/test_metrics.py \
	tests/test_results_json.py tests/test_pdf_missing.py tests/test_bootstrap_engine.py \
	tests/test_maxt.py tests/test_figures.py tests/test_html_pdf.py tests/test_latex.py \
	tests/test_floors.py
floors: sysdeps
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  $(PYTHON) tools/floors.py > "$$tmp/constraints.txt" && \
	  echo "== make floors: $$(grep -v '^#' "$$tmp/constraints.txt" | tr '\n' ' ')" && \
	  $(PYTHON) -m venv "$$tmp/venv" && \
	  "$$tmp/venv/bin/python" -m pip install -q --upgrade pip && \
	  "$$tmp/venv/bin/python" -m pip install -q -c "$$tmp/constraints.txt" . pytest hypothesis && \
	  "$$tmp/venv/bin/python" -m pip check && \
	  (cd "$$tmp" && venv/bin/compreport demo -o out -q && test -s out/paraphrase/report.pdf) && \
	  "$$tmp/venv/bin/pytest" -p no:cacheprovider -m "not slow" $(FLOORS_TESTS)

docs: venv
	$(PY) -m pip install -q -e '.[docs]'
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs serve

bench: venv
	$(PY) -m pip install -q -e '.[test,bench]'
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) $(OUT) build dist *.egg-info
