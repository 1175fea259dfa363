"""The trap questions: how rel=1 hard negatives beat the positives, one module per question.

- ``breakdown``: how often traps beat the positives, per run and query group (shares, traps in the top 10, a trap at
  rank 1), and the queries they hurt most;
- ``kinds``: why each judged trap is one (a failing solution, the wrong language, another model, a noise text);
- ``wins``: every trap win of some runs, with its kind, ranks and margins, and why traps win (kinds, bugs, the
  near-miss curve, margins);
- ``surface``: whether traps win on shared words (token overlap with the query);
- ``agreement``: which traps beat several runs, and how alike the runs' lost queries are.
"""
