"""The load stage: YAML 1.2 semantics, positions, and refusing what is unsafe or broken."""

from __future__ import annotations

import time

import pytest

from pnp.content.yamlio import YMap, YSeq, parse_text
from pnp.core.findings import Report


def parse(src: str):
    report = Report()
    loaded = parse_text(src, "f.yaml", report)
    return loaded, report


def test_yaml_12_semantics() -> None:
    loaded, report = parse("no: yes\non: off\nn: 017\no: 0o17\nf: 1.5\nt: true\nz: ~\n")
    assert not report.findings
    assert loaded.data == {
        "no": "yes",
        "on": "off",
        "n": 17,
        "o": 15,
        "f": 1.5,
        "t": True,
        "z": None,
    }


def test_positions_of_keys_values_and_items() -> None:
    loaded, _ = parse("a:\n  - x\n  - {k: v}\nb: 2\n")
    data = loaded.data
    assert isinstance(data, YMap) and isinstance(data["a"], YSeq)
    assert (data.key_pos("b").line, data.key_pos("b").col) == (4, 1)
    assert (data.value_pos("b").line, data.value_pos("b").col) == (4, 4)
    assert data["a"].item_pos(1).line == 3
    assert data["a"][1].pos.line == 3 and data["a"][1].value_pos("k").col == 9


def test_duplicate_key_reported_with_both_lines() -> None:
    loaded, report = parse("a: 1\nb: 2\na: 3\n")
    (f,) = report.findings
    assert f.rule == "duplicate-key" and f.pos.line == 3 and "line 1" in f.message
    assert loaded.data["a"] == 1


def test_syntax_error_has_position_and_hint() -> None:
    _, report = parse("title: Rent: 2\n")
    (f,) = report.findings
    assert f.rule == "yaml-syntax" and f.pos.line == 1 and "quoted" in f.message
    _, report = parse("a:\n\tb: 1\n")
    assert "tab" in report.findings[0].message


def test_alias_bomb_refused_quickly() -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i, name in enumerate("bcdefghij"):
        prev = "abcdefghij"[i]
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    start = time.perf_counter()
    loaded, report = parse("\n".join(lines) + "\n")
    assert time.perf_counter() - start < 1.0
    assert not loaded.ok and report.findings[0].rule == "yaml-limit"


def test_recursive_alias_and_python_tags_refused() -> None:
    _, report = parse("a: &a [1, *a]\n")
    assert report.findings[0].rule == "yaml-limit"
    _, report = parse("a: !!python/object/apply:os.system [ls]\n")
    assert report.findings[0].rule == "schema" and "not supported" in report.findings[0].message


def test_merge_keys_and_empty_file() -> None:
    loaded, _ = parse("base: &b {x: 1, y: 2}\nc:\n  <<: *b\n  y: 3\n")
    assert loaded.data["c"] == {"x": 1, "y": 3}
    loaded, report = parse("")
    assert loaded.ok and loaded.data is None and not report.findings


def test_non_utf8_and_bom(tmp_path) -> None:
    from pnp.content.yamlio import load_file

    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"a: 1\nb: caf\xe9\n")
    report = Report()
    assert not load_file(bad, "bad.yaml", report).ok
    (f,) = report.findings
    assert f.rule == "file-encoding" and (f.pos.line, f.pos.col) == (2, 7)
    bom = tmp_path / "bom.yaml"
    bom.write_bytes("\ufeffa: 1\r\nb: 2\r\n".encode())
    report = Report()
    loaded = load_file(bom, "bom.yaml", report)
    assert loaded.data == {"a": 1, "b": 2} and not report.findings


@pytest.mark.parametrize("anchor", ["", "&top "])
def test_nesting_limit_with_and_without_anchors(anchor: str) -> None:
    """Without an anchor the converter checks depth itself (no separate walk): same finding."""
    deep = anchor + "[" * 70 + "1" + "]" * 70
    loaded, report = parse(f"a: {deep}\n")
    assert not loaded.ok
    (f,) = report.findings
    assert f.rule == "yaml-limit" and "nesting deeper than 64" in f.message
    shallow = anchor + "[" * 60 + "1" + "]" * 60
    loaded, report = parse(f"a: {shallow}\nb: x & y\n")
    assert loaded.ok and not report.findings


def test_size_limit_without_anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    from pnp.content import yamlio

    monkeypatch.setattr(yamlio, "MAX_EXPANDED_NODES", 50)
    loaded, report = parse("a: [" + ", ".join(["x"] * 60) + "]\n")
    assert not loaded.ok
    assert report.findings[0].rule == "yaml-limit"
    assert "more than 50 nodes; split the file" in report.findings[0].message
