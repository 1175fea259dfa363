"""Each closed vocabulary is one: its ``Literal`` type (what signatures say) names exactly the values its tuple or
mapping holds (what the CLI's choices, the pages' widgets and the checks read)."""
from typing import get_args

import pytest

from coreb_core.analysis.deflation import READINGS, Reading
from coreb_core.analysis.rank_contrast import RANK_CORRELATIONS, RankMeasure
from coreb_core.analysis.stability import STABILITY_LEVELS, StabilityLevel
from coreb_core.analysis.tiers import AVERAGES, Average
from coreb_core.analysis.traps.breakdown import LEVELS, Level
from coreb_core.data.schema import GROUPINGS, TASK_NAMES, Grouping, TaskName
from coreb_core.evaluation.significance import CORRECTIONS, CorrectionName
from coreb_core.retrieval.profiles import PROFILES, Profile


@pytest.mark.parametrize("literal,values", [
    (TaskName, TASK_NAMES), (Grouping, tuple(GROUPINGS)), (Profile, PROFILES), (Reading, tuple(READINGS)),
    (StabilityLevel, STABILITY_LEVELS), (Level, tuple(LEVELS)), (Average, AVERAGES),
    (CorrectionName, tuple(str(c) for c in CORRECTIONS)), (RankMeasure, tuple(m.name for m in RANK_CORRELATIONS)),
], ids=lambda v: getattr(v, "__name__", None) or str(v)[:20])
def test_the_type_names_the_values(literal, values):
    assert get_args(literal) == tuple(values)
