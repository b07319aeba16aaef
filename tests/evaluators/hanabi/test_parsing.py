import pytest

from evaluators.hanabi.parsing import UnparseableReplyError, parse_reply


def test_it_reads_the_required_move_line_and_json_actions():
    assert parse_reply("I will hint.\nMOVE: 3", 5, expect_json=False).index == 3
    assert (
        parse_reply("Reasoning about move 1 and move 2.\n\nMOVE: 4  \n", 5, expect_json=False).index
        == 4
    )
    reply = '{"reason": "safe", "move_ratings": {"1": 3}, "action": 1}'
    parsed = parse_reply(reply, 5, expect_json=True)
    assert parsed.index == 1 and parsed.data["reason"] == "safe"
    fenced = '```json\n{"reason": "safe", "action": 2}\n```'
    assert parse_reply(fenced, 5, expect_json=True).index == 2


@pytest.mark.parametrize(
    "reply, expect_json, error",
    [
        ("", False, "empty"),
        ("I am not sure what to do.", False, "last line must be exactly"),
        # numbers in prose are never taken as the answer
        ("Best is MOVE: 10 / Alternatively move 3", False, "last line must be exactly"),
        ("I would move 2 cards to the left", False, "last line must be exactly"),
        ("MOVE: 3\nOr maybe not.", False, "last line must be exactly"),
        ("**MOVE: 3**", False, "last line must be exactly"),
        ("move: 3", False, "last line must be exactly"),
        ("2", False, "last line must be exactly"),
        ("MOVE: 9", False, "not in the list"),
        ('{"reason": "x"}', True, 'no "action"'),
        ('{"action": "play the red one"}', True, "must be a move number"),
        ('{"action": "1"}', True, "must be a move number"),
        ('{"action": true}', True, "must be a move number"),
        ('{"action": 7}', True, "not in the list"),
        ("MOVE: 1", True, "one JSON object"),
        ('Sure: {"action": 1}', True, "one JSON object"),
        ('{"action": 1} and then {"action": 2}', True, "one JSON object"),
        ("[1]", True, "JSON object"),
    ],
)
def test_it_rejects_replies_not_in_the_required_format_with_a_reason(reply, expect_json, error):
    with pytest.raises(UnparseableReplyError, match=error):
        parse_reply(reply, 5, expect_json=expect_json)
