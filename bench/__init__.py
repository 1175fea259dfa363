"""Benchmark scripts, each run as ``.venv/bin/python bench/<name>.py``. A package too, so that the browser
tests share ``app_bench``'s definition of a drawn page (``PAGE_DRAWN_JS``) and its chromium flags."""
