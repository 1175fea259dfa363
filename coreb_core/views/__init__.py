"""Views: one module per question a page or a CLI verb answers, each a typed request giving a typed result.

A view is built from a ``Scope`` (release, its version, runs, scheme, anchor rule: ``scope.py``) and the view's own
options, reading its inputs through ``Inputs`` (``inputs.py``: the release's Store, the runs' hits and the shared
intermediate results). The page, the CLI verb and the report call the same ``build``; each result renders its
JSON (``to_json``) and its terminal text (``lines``) itself, in the words of ``present/``.

Layers: views sit above ``analysis`` and ``present`` and below the front ends (``cli``, ``report``, ``ui``,
``pages``); a view never imports a front end."""
