"""One item: transcript viewer and the full text of a long entry. The families' own viewers (Hanabi
replay, chess position) live in their apps and load the item with ``item_for_viewer``."""

from __future__ import annotations

import json
import re
from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse

from jobs.models import ItemResult, LLMCall
from jobs.public_errors import error_for
from leaderboard.pages import fmt, money, render_page, run_url
from leaderboard.tables import Cell, Column, Table
from leaderboard.urls_helpers import item_url

# Long model replies are cut here on the page, with a link to the whole text.
SHOWN_CHARS = 4000
# Entries longer than this start collapsed (a Hanabi game's transcript is hundreds of entries).
COLLAPSE_CHARS, COLLAPSE_LINES = 600, 10
KEEP_OPEN = 10  # transcript entries shown at each end of a long transcript
_POINTS = re.compile(r"\((\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)\s*pt\)")
_WRONG = re.compile(
    r"\b(wrong|incorrect|blunder|mistake|illegal|failed|unsolved|loss|lost)\b", re.I
)
_RIGHT = re.compile(r"\b(correct|best|excellent|good|solved|win|won)\b", re.I)
_PARTIAL = re.compile(r"\b(inaccuracy|partial|draw)\b", re.I)


def verdict(entry: dict[str, Any], text: str) -> str:
    """right / partial / wrong / unknown for a grading line: the structured fields the evaluators
    write first (correct, awarded points), then the "(a/b pt)" the HiPhO grader prints, then words."""
    if isinstance(entry.get("correct"), bool):
        return "right" if entry["correct"] else "wrong"
    m = _POINTS.search(text)
    if m:
        got, full = float(m.group(1)), float(m.group(2))
        return "wrong" if got <= 0 else "right" if got >= full else "partial"
    if _WRONG.search(text):
        return "wrong"
    if _PARTIAL.search(text):
        return "partial"
    return "right" if _RIGHT.search(text) else "unknown"


def item_for_viewer(pk: int) -> ItemResult:
    return get_object_or_404(
        ItemResult.objects.select_related("run__model", "run__benchmark", "run__job"), pk=pk
    )


def _entry_view(item_id: int, index: int, entry: Any) -> dict[str, Any]:
    if not isinstance(entry, dict):
        entry = {"role": "note", "text": entry}
    text = entry.get("text")
    text = text if isinstance(text, str) else json.dumps(text, indent=2, default=str)
    extra = {k: v for k, v in entry.items() if k not in ("role", "text")}
    role = str(entry.get("role", "note"))
    first_line = text.strip().split("\n", 1)[0]
    return {
        "index": index,
        "role": role,
        "text": text[:SHOWN_CHARS],
        "truncated": len(text) > SHOWN_CHARS,
        "length": len(text),
        "verdict": verdict(entry, text) if role == "grading" else "",
        "collapsed": len(text) > COLLAPSE_CHARS or text.count("\n") >= COLLAPSE_LINES,
        "preview": first_line[:140] + ("…" if len(first_line) > 140 else ""),
        "full_url": reverse("leaderboard:item_text", args=[item_id, index]),
        "extra": json.dumps(extra, indent=2, sort_keys=True, default=str)[:SHOWN_CHARS]
        if extra
        else "",
    }


def item_detail(request, pk: int):
    item = item_for_viewer(pk)
    transcript = item.transcript if isinstance(item.transcript, list) else []
    entries = [_entry_view(item.pk, i, e) for i, e in enumerate(transcript)]
    calls = Table(
        "item-calls",
        "Model calls",
        [
            Column("purpose", "Purpose"),
            Column("model", "Model"),
            Column("tokens", "Tokens in/out", numeric=True),
            Column("cost", "Cost", numeric=True),
            Column("latency", "Latency (ms)", numeric=True),
            Column("cache", "Cache hit"),
            Column("error", "Error"),
        ],
        file=f"item-{item.pk}-calls",
    )
    for call in LLMCall.objects.filter(item=item).order_by("id")[:200]:
        calls.add(
            purpose=Cell(call.purpose),
            model=Cell(call.model),
            tokens=Cell(
                call.input_tokens + call.output_tokens,
                f"{call.input_tokens:,} / {call.output_tokens:,}",
            ),
            cost=Cell(call.cost_usd, money(call.cost_usd)),
            latency=Cell(call.latency_ms),
            cache=Cell(call.cache_hit, "yes" if call.cache_hit else "no"),
            error=Cell(
                call.error_class or None,
                error_for(request.user, f"{call.error_class}: {call.error_message}")[:200]
                if call.error_class
                else "—",
            ),
        )
    details = json.dumps(item.details, indent=2, sort_keys=True, default=str)
    # A long game (an LLM Hanabi game: hundreds of entries) shows its first and last turns; the
    # middle sits in one closed <details>, so the page stays a few screens tall on a phone.
    head, middle, tail = entries, [], []
    if len(entries) > KEEP_OPEN * 3:
        head, middle, tail = (
            entries[:KEEP_OPEN],
            entries[KEEP_OPEN:-KEEP_OPEN],
            entries[-KEEP_OPEN:],
        )
    return render_page(
        request,
        "leaderboard/item.html",
        {
            "item": item,
            "item_error": error_for(request.user, item.error),
            "run": item.run,
            "entries": entries,
            "entries_head": head,
            "entries_middle": middle,
            "entries_tail": tail,
            "middle_start": len(head) + 1,
            "tail_start": len(head) + len(middle) + 1,
            "math": item.run.benchmark.family == "hipho",
            "views": item_url(item.pk, item.run.benchmark.family),
            "details": details[: SHOWN_CHARS * 4],
            "details_truncated": len(details) > SHOWN_CHARS * 4,
            "scores": json.dumps(item.scores, indent=2, sort_keys=True, default=str),
            "run_url": run_url(item.run_id),
            "score": fmt(item.score, 3),
        },
        [calls],
    )


def item_text(request, pk: int, index: int):
    """One transcript entry in full, as plain text (never HTML, so nothing in it can run)."""
    item = get_object_or_404(ItemResult.objects.only("transcript"), pk=pk)
    transcript = item.transcript if isinstance(item.transcript, list) else []
    if not 0 <= index < len(transcript):
        raise Http404("no such transcript entry")
    entry = transcript[index]
    text = entry.get("text") if isinstance(entry, dict) else entry
    text = text if isinstance(text, str) else json.dumps(text, indent=2, default=str)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response
