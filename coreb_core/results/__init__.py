"""Scores made elsewhere: results imported from MTEB and the official runner (``imported``), the published figures
of the paper, project page and README (``published``), and files a user uploads (``uploads``). Our own runs are
``coreb_core.runs``; every number here carries its source."""
