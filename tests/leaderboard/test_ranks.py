from leaderboard.ranks import rank_intervals, rank_text


def test_models_with_overlapping_intervals_share_ranks():
    # 80±1 is clearly first; 60±5 and 58±5 overlap; 20±1 is clearly last
    ranks = rank_intervals([(80, 1), (60, 5), (58, 5), (20, 1)])
    assert ranks == [(1, 1), (2, 3), (2, 3), (4, 4)]
    assert [rank_text(r) for r in ranks] == ["1", "2–3", "2–3", "4"]


def test_point_estimates_rank_plainly_and_ties_share():
    assert rank_intervals([(3, None), (5, None), (5, None)]) == [(3, 3), (1, 2), (1, 2)]


def test_unscored_models_get_no_rank():
    assert rank_intervals([(None, None), (1.0, 0.1)]) == [None, (1, 1)]
    assert rank_text(None) == "—"
