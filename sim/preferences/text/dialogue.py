"""A rule agreed over several turns: what was agreed, with the offers before it set aside.

"调度：十点行不行？ / 梁师傅：行，那就十点 / 调度：好，哪天晚上十点还没到家…罚150": each turn
may name a value of the rule, and only the last one of each sort counts. The kinds' readers
take a kind's first value of a sort, so a dialogue is rewritten before it is read:
- the last turn that names a number goes first (it restates what was agreed);
- a value the agreement restates (a distance, a clock, a fine...) is taken out of the turns
  before it;
- an answer that names a value of the sort a turn of the other speaker proposed replaces that
  proposal, and the answerer's own earlier value of that sort ("3 km" / "Can we do 2?" /
  "OK, 2 km": the 3 km is gone); an answer that repeats the proposal accepts it.

Values of one sort said in turn by one speaker without a counter-offer between them (a
route's two stops, a window's start and end) are all kept. Coordinates are never touched. A
dialogue is three turns or more with a speaker who speaks twice; a form's fields (each label
once) are no dialogue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sim.preferences.text import rx

_TURN = re.compile(r"^\s*([^\s:：]{1,16})\s*[:：]")
_HAS_NUMBER = r"[\d零一二两三四五六七八九十百千]"

_EN = (r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
       r"thirty|forty|fifty|sixty|hundred)")
_DIGITS = r"(?<![A-Za-z\d.])\d+(?:[.,]\d+)?(?![\d.]*\d)"
_CN_NUM = r"(?<!第)[零〇一二两三四五六七八九十百千]+"
_NUM = rf"(?:{_DIGITS}|{_CN_NUM}(?:个)?半?|\b{_EN}(?:[\s-]{_EN})*\b)"
_CLOCK_NUM = rf"(?:{_DIGITS}|{_CN_NUM}|\b{_EN}\b)"
# the sorts of value a turn may name, most specific first; a span is claimed by the first sort
# that matches it
_SORTS: tuple[tuple[str, str], ...] = (
    ("coord", r"(?<![\d.])(?:\d{1,3}\.\d{3,}|(?:2[0-6]|1[01]\d)\.\d+)(?!\d)"),
    ("date", r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}\s*月\s*\d{1,2}\s*[日号]?(?:\s*[-到至~、和]\s*"
             r"\d{1,2}\s*[日号]?)*|(?<![\d.])\d{1,2}\s*[日号](?![\d])|"
             r"(?i:\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?march\b|\bmarch\s+\d{1,2}\b)"),
    ("rate", rf"{_NUM}\s*(?:元|块|yuan|rmb)?\s*(?:/|(?i:per|a)\b|每)\s*(?:分钟|公里|"
             r"(?i:minute|min|km)\b)|每\s*(?:分钟|公里)\s*(?:按)?\s*" + _NUM + r"\s*(?:元|块)?"),
    ("money", rf"{_NUM}\s*(?:元|块|(?i:yuan|rmb)\b)|(?:罚|扣|(?i:fine|charge|costs?)\s+(?:you\s+)?)"
              rf"\s*{_NUM}"),
    ("km", rf"{_NUM}\s*(?:公里|千米|(?i:km|kilomet(?:er|re)s?)\b)"),
    ("clock", rf"\d{{1,2}}:\d{{2}}|{_CLOCK_NUM}点(?:\s*半|\s*{_CLOCK_NUM}\s*分?)?|"
              rf"{_CLOCK_NUM}\s*(?i:am|pm|a\.m\.|p\.m\.|o'clock)\b"),
    ("duration", rf"{_NUM}\s*(?:分钟|小时|钟头|个钟|(?i:minutes?|mins?|hours?|hrs?|h)\b)|半小时|"
                 r"半个钟"),
    ("days", rf"{_NUM}\s*(?:个)?(?:整天|天|(?i:days?)\b)"),
    ("orders", rf"{_NUM}\s*(?:单|票|趟|(?i:orders?|trips?|jobs?|loads?)\b)|"
               rf"{_NUM}\s+(?i:a|per)\s+(?i:month|day)\b"),
    ("bare", _NUM),
)
_KEPT = frozenset({"coord", "bare"})  # never taken out for a sort the agreement names


@dataclass(frozen=True, slots=True)
class _Value:
    sort: str
    start: int
    end: int
    text: str


def _values(line: str) -> list[_Value]:
    """The values a turn names, each span claimed by its most specific sort."""
    taken: list[_Value] = []
    for sort, pattern in _SORTS:
        for m in rx.finditer(pattern, line):
            if m.end() > m.start() and not any(
                    m.start() < v.end and v.start < m.end() for v in taken):
                taken.append(_Value(sort, m.start(), m.end(), m.group(0)))
    return sorted(taken, key=lambda v: v.start)


def _figure(v: _Value) -> str:
    """A value's number, spelled as its digits where it has any (to tell a repeat)."""
    d = rx.findall(r"\d+(?:\.\d+)?", v.text)
    return ",".join(d) if d else v.text.strip()


def _restate(old: _Value, new: _Value) -> str:
    """`old` said with `new`'s figure: the number alone where each has one in digits (2 yuan
    per minute -> 1.5 yuan per minute, keeping the words the readers key on), else `new`."""
    a = rx.findall(r"\d+(?:\.\d+)?", old.text)
    b = rx.findall(r"\d+(?:\.\d+)?", new.text)
    if len(a) == len(b) == 1 and rx.fullmatch(r"[^\d零〇一二两三四五六七八九十百千半]*\d+(?:\.\d+)?"
                                            r"[^\d零〇一二两三四五六七八九十百千半]*", old.text):
        return old.text.replace(a[0], b[0], 1)
    return new.text


def agreed(t: str) -> str:
    """The dialogue in `t` rewritten as what was agreed (the module's doc); any other text
    unchanged."""
    lines = [x for x in t.split("\n") if x.strip()]
    speakers = [m.group(1) if (m := _TURN.match(x)) else None for x in lines]
    labels = [s for s in speakers if s is not None]
    if len(labels) < 3 or len(set(labels)) == len(labels):
        return t
    last = next((i for i in range(len(lines) - 1, -1, -1)
                 if rx.search(_HAS_NUMBER, lines[i])), None)
    if last is None:
        return t
    values = [_values(x) for x in lines]
    # (line, value index) -> what it is rewritten to: the agreed value where one value
    # replaces one, else nothing
    edits: dict[tuple[int, int], str] = {}

    def sorts(i: int) -> set[str]:
        return {v.sort for v in values[i]}

    def replace(i: int, by: int, sort: str) -> None:
        """Rewrite turn `i`'s values of `sort` as turn `by` says them."""
        old = [n for n, v in enumerate(values[i]) if v.sort == sort]
        new = [v for v in values[by] if v.sort == sort]
        for n in old:
            edits[(i, n)] = _restate(values[i][n], new[0]) if len(old) == len(new) == 1 else " "

    # an answer replaces the offer it answers and the answerer's own earlier value
    for j in range(len(lines)):
        k = next((i for i in range(j - 1, -1, -1) if speakers[i] != speakers[j]), None)
        if k is None or speakers[j] is None:
            continue
        for sort in sorts(j) - {"coord"}:
            if sort not in sorts(k):
                continue
            said = {_figure(v) for v in values[j] if v.sort == sort}
            offered = {_figure(v) for v in values[k] if v.sort == sort}
            if said != offered:
                replace(k, j, sort)
            own = next((i for i in range(k - 1, -1, -1)
                        if speakers[i] == speakers[j] and sort in sorts(i)), None)
            if own is not None:
                replace(own, j, sort)
    # the agreement restates: what it names is rewritten in the turns before it
    for i in range(last):
        for sort in sorts(i) & (sorts(last) - _KEPT):
            replace(i, last, sort)
    out = []
    for i, line in enumerate(lines):
        for n, v in reversed(list(enumerate(values[i]))):
            if (i, n) in edits:
                line = line[:v.start] + edits[(i, n)] + line[v.end:]
        out.append(line)
    return "\n".join([out[last], *out[:last], *out[last + 1:]])
