"""Every "§x.y" the repository cites resolves to a heading of docs/competition.md, and no
citation points at a file outside the repository."""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "competition.md"
HEADING = re.compile(r"^#{2,4} (\d+(?:\.\d+)*)\.? ", re.M)
# "§4.4", "§4.2-§4.5", "§7.5-7.6", "§4.2–4.4": both ends of a range are checked
CITATION = re.compile(r"§\s?(\d+(?:\.\d+)*)(?:\s?[-–]\s?§?(\d+(?:\.\d+)*))?")
SUFFIXES = {".py", ".md", ".toml", ".ipynb", ".txt"}


def _load_fixer():
    spec = importlib.util.spec_from_file_location("fix_citations",
                                                  ROOT / "scripts" / "fix_citations.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _files() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return [ROOT / n for n in sorted(set(out.split()))
            if Path(n).suffix in SUFFIXES and (ROOT / n).is_file()]


def _sections() -> set[str]:
    return set(HEADING.findall(DOC.read_text(encoding="utf-8")))


def test_the_document_numbers_its_sections_like_the_code_cites_them() -> None:
    sections = _sections()
    # the top-level sections and the ones the code leans on most
    assert {str(n) for n in range(1, 10)} <= sections
    assert {"2.1", "3.5", "4.4", "4.7.1", "5.3", "6.1", "7.1", "7.6"} <= sections


def test_every_cited_section_exists() -> None:
    sections = _sections()
    missing = []
    cited = 0
    for path in _files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for lineno, line in enumerate(text.splitlines(), 1):
            for m in CITATION.finditer(line):
                for number in filter(None, m.groups()):
                    cited += 1
                    if number not in sections:
                        missing.append(f"{path.relative_to(ROOT)}:{lineno}: §{number}")
    assert cited > 100, f"the scan found only {cited} citations: is the pattern still right?"
    assert not missing, "cited sections missing from docs/competition.md:\n" + "\n".join(missing)


def test_no_citation_points_outside_the_repository() -> None:
    """What the fixer would still rewrite (the spec's old file name, the notes, a shared-folder
    path): after `python scripts/fix_citations.py` there is none."""
    fixer = _load_fixer()
    left = [str(p.relative_to(ROOT)) for p in fixer.tracked_text_files(ROOT)
            if fixer.rewrite(p.read_text(encoding="utf-8"))[1]]
    assert not left, f"run scripts/fix_citations.py: {left}"


@pytest.mark.parametrize(("text", "expected"), [
    ("see COMPETITION.md §4.4", "see docs/competition.md §4.4"),
    ("exactly as `../shared/COMPETITION.md` says", "exactly as `docs/competition.md` says"),
    ("(structured form of /home/dev/notes/PREF_PARAMS.md, with",
     "(structured form of docs/competition.md §7.5, with"),
    ("already docs/competition.md §6", "already docs/competition.md §6"),
])
def test_the_fixer_rewrites_once(text: str, expected: str) -> None:
    fixer = _load_fixer()
    once, _ = fixer.rewrite(text)
    assert once == expected
    assert fixer.rewrite(once) == (once, 0)  # idempotent
