"""The fake OpenAI server itself: CLI mode with a rule, stats, counters, bad requests."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.fakes.openai_server import FakeOpenAIServer, fault, load_rule

ROOT = Path(__file__).resolve().parents[3]


def _post(url, body, headers=None):
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return response.status, dict(response.headers), json.loads(response.read() or b"null")


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_it_runs_from_the_command_line_with_a_rule_by_dotted_path():
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.fakes.openai_server",
            "--port",
            str(port),
            "--rule",
            "tests.fakes.example_rules:shout",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    try:
        root = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 15
        while True:
            try:
                urllib.request.urlopen(root + "/health", timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "server did not start"
                time.sleep(0.05)
        status, _, body = _post(
            root + "/chat/completions",
            {"model": "m", "messages": [{"role": "user", "content": "e4"}]},
        )
        assert status == 200 and body["choices"][0]["message"]["content"] == "E4"
        with urllib.request.urlopen(root + "/stats", timeout=5) as response:
            stats = json.loads(response.read())
        assert stats["requests"] == 1 and stats["successful"] == 1
    finally:
        proc.terminate()
        proc.wait(10)


def test_it_counts_faults_and_replies(fake_llm):
    fake_llm.script(fault("server_error"), "scripted")
    url = fake_llm.base_url + "/chat/completions"
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}

    with pytest.raises(urllib.error.HTTPError) as raised:
        _post(url, body)
    assert raised.value.code == 500
    status, _, reply = _post(url, body)
    assert status == 200

    assert reply["choices"][0]["message"]["content"] == "scripted"
    assert reply["usage"]["prompt_tokens"] >= 1
    assert fake_llm.counters.as_dict() | {"in_flight": 0} == {
        "requests": 2,
        "successful": 1,
        "errors": 0,
        "faults": {"server_error": 1},
        "faults_total": 1,
        "in_flight": 0,
        "max_in_flight": 1,
    }


def test_it_sends_retry_after_with_a_429(fake_llm):
    fake_llm.script(fault("rate_limit", retry_after="3"))
    with pytest.raises(urllib.error.HTTPError) as raised:
        _post(fake_llm.base_url + "/chat/completions", {"model": "m", "messages": []})
    assert raised.value.code == 429 and raised.value.headers["Retry-After"] == "3"


def test_it_rejects_unknown_settings_and_rules():
    server = FakeOpenAIServer()
    with pytest.raises(TypeError, match="unknown fake server setting"):
        server.configure(latncy=1)
    with pytest.raises(ValueError, match="unknown fault kind"):
        server.configure(fault_kinds=["meteor"])
    with pytest.raises(ValueError, match="package.module:function"):
        load_rule("nodots")
    assert load_rule("tests.fakes.example_rules.shout")({"messages": []}) == ""


def test_it_logs_each_answered_call_with_its_latency_and_messages_fingerprint(fake_llm):
    from tests.fakes.openai_server import Reply, messages_fingerprint

    fake_llm.script(Reply(text="a", latency=0.02), fault("server_error"), Reply(text="b"))
    url = fake_llm.base_url + "/chat/completions"
    first = [{"role": "user", "content": "first"}]
    second = [{"role": "system", "content": "s"}, {"role": "user", "content": "second"}]
    _post(url, {"model": "m", "messages": first})
    with pytest.raises(urllib.error.HTTPError):
        _post(url, {"model": "m", "messages": second})
    _post(url, {"model": "m", "messages": second})

    with urllib.request.urlopen(fake_llm.base_url.removesuffix("/v1") + "/calls") as response:
        log = json.loads(response.read())
    # the fault is not an answered call; the default latency (0) is logged as drawn
    assert log == {
        "latencies": [0.02, 0.0],
        "fingerprints": [messages_fingerprint(first), messages_fingerprint(second)],
    }
    assert messages_fingerprint(first) != messages_fingerprint(second)
    # list content (a vision message) has the fingerprint of its text parts
    assert messages_fingerprint(
        [{"role": "user", "content": [{"type": "text", "text": "first"}]}]
    ) == messages_fingerprint(first)
