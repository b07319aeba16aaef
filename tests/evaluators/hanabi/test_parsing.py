import pytest

from evaluators.hanabi.parsing import UnparseableReplyError, parse_reply


def test_it_reads_a_move_line_and_json_actions():
    assert parse_reply("I will hint.\nMOVE: 3", 5, expect_json=False).index == 3
    assert parse_reply("**Move:** 4", 5, expect_json=False).index == 4
    assert parse_reply("2", 5, expect_json=False).index == 2
    reply = 'Sure:\n```json\n{"reason": "safe", "move_ratings": {"1": 3}, "action": "1"}\n```'
    parsed = parse_reply(reply, 5, expect_json=True)
    assert parsed.index == 1 and parsed.data["reason"] == "safe"


@pytest.mark.parametrize("reply, expect_json, error", [
    ("", False, "empty"),
    ("I am not sure what to do.", False, "no move number"),
    ("MOVE: 9", False, "not in the list"),
    ('{"reason": "x"}', True, "no move number"),
    ('{"action": "play the red one"}', True, "must be a move number"),
    ("MOVE: 1", True, "JSON object"),
])
def test_it_rejects_unusable_replies_with_a_reason(reply, expect_json, error):
    with pytest.raises(UnparseableReplyError, match=error):
        parse_reply(reply, 5, expect_json=expect_json)
