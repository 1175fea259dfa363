"""coreb_core.data.statistics on CoREB-mini: exact counts of demo_v2603."""
from coreb_core.data.statistics import release_statistics
from coreb_core.data.store import Store


def test_release_statistics(mini_data):
    with Store("demo_v2603", mini_data) as store:
        stats = release_statistics(store)
        assert dict(zip(stats["rows"]["config"], stats["rows"]["rows"])) == store.row_counts()
        jc = store.judgment_counts()
    assert stats["judgments"].set_index("task").loc["t2c"].to_dict() == jc["t2c"]
    # 24 problems x 30 queries; positives: 4 retro queries x 10 passing per problem + 6 search queries per
    # solution (its _any and its language, for each of 3 searches) x 307 solutions
    assert jc["t2c"] == {"queries": 720, "positives": 24 * 40 + 6 * 307, "traps": 1934, "judged_negatives": 0}
    sub = stats["subtasks"].set_index("subtask")["queries"]
    assert len(sub) == 34 and sub.sum() == 720 + 144 + 336 and sub["c2t_match"] == 48
    code = stats["code"].groupby("verdict")["documents"].sum().to_dict()
    assert code == {"pass": 240, "fail": 67}
    assert stats["code"].set_index(["language", "verdict"]).loc[("python", "fail"), "documents"] == 24
    assert dict(zip(stats["text"]["kind"], stats["text"]["documents"])) == {"description": 24, "noise": 96}
