"""A rule typed into a config file: YAML, JSON, INI or TOML, with keys of the writer's own.

"[empty_to_pickup]\\nmax_km = 30   # empty km to reach one pickup\\npenalty_per_order = 150",
'{"geofence": {"south": 22.45, "north": 23.50, ...}, "fine_per_step_outside": 100}': a key
names what its value is, as a sheet's header cell names its cell (markdown.py), and a
nesting key (a section, a parent) names what its children belong to. A text in that form
(two or more key-value lines, or a JSON object, with a section, a snake_case key, a nesting
or an "=" among them) is written as clauses the kinds read: each value after its key's
words, a key's bound (max, min, limit, cap, at_least) and unit (_km, _min, _hours) said
around the number ("month_total_max_km = 1200" as "month total at most 1200 km"), a fine's
key as "fine 200 per day", a point's [lat, lng] or {lat, lng} as "lat, lng", a range's
[a, b] as "a to b", list items numbered; comments kept as clauses of their own. Any other
text is returned as it was.
"""

from __future__ import annotations

import re

from sim.preferences.text import rx

_KEY = r"[A-Za-z_\u4e00-\u9fff][\w.\-\u4e00-\u9fff ]{0,40}?"
_LINE = rf"^\s*(?:-\s+)?[\"']?({_KEY})[\"']?\s*(?::(?!\d{{2}})|=)\s*(.*)$"
_SECTION = r"^\s*\[\[?\s*([^\[\]]+?)\s*\]\]?\s*$"
# a key's words in pinyin (its writer's shorthand) as English
_PINYIN = {"kongshi": "empty", "kongche": "empty", "jiehuo": "pickup", "zhuanghuo": "pickup",
           "riqi": "date", "zhiding": "assigned", "huo": "cargo", "fakuan": "fine",
           "banjing": "radius", "zuiduo": "max", "zhishao": "min", "meitian": "per day",
           "meidan": "per order", "zong": "total", "yue": "month", "tian": "days",
           "dan": "orders", "jia": "home", "zuiwan": "latest", "xiuxi": "rest"}
_FINE = r"(?:fines?|penalt(?:y|ies)|fined|罚款?|扣款?)"
_MAX = r"(?:max(?:imum)?|limit|cap|most|allowed|上限|最多)"
_MIN = r"(?:min(?:imum)?|at least|least|needed|required|下限|至少)"
_NUM = r"-?\d+(?:\.\d+)?"


def _split_comment(line: str) -> tuple[str, str]:
    """(code, comment) of a line: a comment after #, ; or // at its start or after a space,
    outside quotes."""
    quote = None
    for i, ch in enumerate(line):
        if ch in "\"'" and (quote is None or quote == ch):
            quote = None if quote else ch
        if quote:
            continue
        if (i == 0 or line[i - 1] in " \t") and (ch in "#;" or line.startswith("//", i)):
            return line[:i], line[i:].lstrip("#;/ \t")
    return line, ""


def _top_split(s: str) -> list[str]:
    """`s` split at its commas outside brackets and quotes."""
    out, depth, quote, cur = [], 0, None, ""
    for ch in s:
        if ch in "\"'" and (quote is None or quote == ch):
            quote = None if quote else ch
        elif not quote and ch in "[{":
            depth += 1
        elif not quote and ch in "]}":
            depth -= 1
        if ch == "," and depth == 0 and not quote:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [c.strip() for c in out if c.strip()]


def _value(s: str):
    """A flow value (JSON, a YAML flow mapping or list, a TOML inline table) as a dict, a
    list or a string; unquoted."""
    s = s.strip()
    if s.startswith("{") and s.endswith("}"):
        out = {}
        for part in _top_split(s[1:-1]):
            m = rx.match(r"\s*[\"']?([^\"':=]+?)[\"']?\s*[:=]\s*(.*)$", part, re.S)
            if m is None:
                return s
            out[m.group(1).strip()] = _value(m.group(2))
        return out
    if s.startswith("[") and s.endswith("]"):
        return [_value(p) for p in _top_split(s[1:-1])]
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "\"'":
        return s[1:-1]
    return s


def _words(key: str) -> list[str]:
    key = rx.sub(r"([a-z])([A-Z])", r"\1 \2", key)
    key = rx.sub(r"(?<=\d)-(?=\d)", "\x01", key)  # a date in a key (route 2026-03-16)
    out = []
    for w in rx.split(r"[_\s.\-]+", key.strip()):
        if w:
            out.extend(_PINYIN.get(w.lower(), w.replace("\x01", "-")).split())
    return out


def _latlng(v) -> tuple[str, str] | None:
    """A point's latitude and longitude from [lat, lng] or {lat, lng}."""
    if isinstance(v, dict):
        lat = next((v[k] for k in v if k.lower() in ("lat", "latitude", "纬度")), None)
        lng = next((v[k] for k in v if k.lower() in ("lng", "lon", "long", "longitude",
                                                       "经度")), None)
        if isinstance(lat, str) and isinstance(lng, str) and len(v) == 2:
            return lat, lng
        return None
    if isinstance(v, list) and len(v) == 2 and all(
            isinstance(x, str) and rx.fullmatch(_NUM, x) for x in v):
        a, b = (float(x) for x in v)
        if 18 <= a <= 27 and 105 <= b <= 120:
            return v[0], v[1]
    return None


# a key's last word naming its value's unit (radius_km, stay_min, radius_m, penalty_fen)
_UNITS = {"km": "km", "m": "m", "s": "s", "sec": "s", "secs": "s", "fen": "fen", "cny": "yuan",
          "rmb": "yuan", "yuan": "yuan", "min": "min", "mins": "min", "minutes": "min",
          "hours": "hours", "hrs": "hours", "h": "hours", "days": "days", "orders": "orders"}
# the count a bound or a bare number is of: said after the number (at least 8 days)
_COUNTED = r"days?|orders?|jobs?|loads?|times|stops|visits|trips|单|天|次"
# what a trailing min times (stay_min, unbroken_min, rest_block_min): minutes, not a minimum
_TIMED = (r"stay|wait|waiting|dwell|rest|unbroken|continuous|block|break|sleep|parked|idle|"
          r"drive|driving|duration|long|haul|trip|over|threshold")


def _scalar(key: str, value: str, parent: list[str] | None = None) -> str:
    """One key and its value as a clause (the module's doc); `parent` the nesting key's
    words, the noun of a bare bound (daily_orders: {max: 3})."""
    words = _words(key)
    if [w.lower() for w in words] == ["cap"] and not any(
            rx.fullmatch(_COUNTED, w.lower()) or w.lower() in _UNITS for w in parent or []):
        return f"fines capped at {value}"  # cap = 3000 beside a fine, not a count's bound
    bare = all(rx.fullmatch(_MAX + "|" + _MIN, w.lower()) for w in words)
    if bare and parent:  # max = 3 under [max_daily_jobs]: the bound of what the parent names
        words = words + [w for w in parent if not rx.fullmatch(_MAX + "|" + _MIN, w.lower())]
    low = [w.lower() for w in words]
    text = " ".join(words)
    value = rx.sub(rf"^({_NUM})\s*\.\.\s*({_NUM})$", r"\1 to \2", value)  # 23.60..25.50
    if rx.search(r"[\u4e00-\u9fff]", key):  # a key in Chinese reads as written, its unit
        m = rx.fullmatch(r"(.*?[\u4e00-\u9fff])\s*(km|公里|分钟|min|元)", key)  # 半径km
        if m is not None and rx.fullmatch(_NUM, value):
            return f"{m.group(1)}{value}{m.group(2)}"
        return f"{text} {value}"
    num = rx.fullmatch(rf"({_NUM})\s*((?:[A-Za-z\u4e00-\u9fff/]\D*)?)", value)
    if any(rx.fullmatch(_FINE, w) for w in low):  # fine, fine_per_day, per_order_fine
        rest = " ".join(w for w in words if not rx.fullmatch(_FINE, w.lower()))
        if num is not None and rest:
            return f"fine {value} {rest}"
        return f"fine {value}"
    if low == ["cap"] or ("cap" in low and any("fine" in w for w in low)):
        return f"fines capped at {value}"
    if num is None:
        return f"{text} {value}"
    n, unit = num.group(1), num.group(2)
    if len(low) == 2 and low[0] in ("lat", "lng", "lon", "latitude", "longitude") and (
            low[1] in ("min", "max")):  # lat_min: 22.1 (a box by its fields, units.py)
        return f"{low[0]} {low[1]}: {n}"
    counted = any(rx.fullmatch(_COUNTED, w) for w in low)
    timed = (len(low) > 1 and low[-1] == "min" and not counted
             and any(rx.fullmatch(_TIMED, w) for w in low[:-1]))
    bound, rest, per, each = "", [], [], False
    for i, w in enumerate(low):
        each = each or (w in ("per", "each", "a") and i < len(low) - 1)
        if each:
            per.append(words[i])  # per_month, per day: after the number
        elif w in ("month", "monthly") and bound:
            per.append("per month")
        elif w == "daily" and bound:
            per.append("per day")
        elif w == "count":
            continue
        elif i == len(low) - 1 and w in _UNITS and not unit and (timed or w != "min"):
            unit = _UNITS[w]
        elif rx.fullmatch(_MAX, w) and not bound:
            bound = "at most"
        elif rx.fullmatch(_MIN, w) and not bound:
            bound = "at least"
        else:
            rest.append(words[i])
    # the count's noun beside its number: at least 8 days (days_needed), 5 days zero order
    if unit in ("days", "orders"):
        return " ".join(x for x in (bound, n, unit, *rest, *per) if x)
    if rest and rx.fullmatch(_COUNTED, rest[-1].lower()):
        return " ".join(x for x in (bound, n, *rest, *per) if x)
    if not bound and rest and counted and not unit:  # full_days_off = 3
        return " ".join((n, *rest, *per))
    return " ".join(x for x in (" ".join(rest), bound, n, unit, *per) if x)


def _clause(key: str, v, parent: list[str] | None = None) -> str:
    words = " ".join(_words(key))
    point = _latlng(v)
    if point is not None:
        return f"{words} {point[0]}, {point[1]}"
    if isinstance(v, dict):
        return f"{words}: " + _ranges(", ".join(_clause(k, x, _words(key))
                                                for k, x in v.items()))
    if isinstance(v, list):
        if v and all(isinstance(x, dict) for x in v):
            return f"{words}: " + "; ".join(
                f"{i}) " + ", ".join(_clause(k, x) for k, x in item.items())
                for i, item in enumerate(v, 1))
        flat = [x if isinstance(x, str) else str(x) for x in v]
        if (len(flat) == 2 and all(rx.fullmatch(_NUM, x) for x in flat)) or (
                len(flat) == 2 and all(rx.search(r"\d{1,2}:\d{2}", x) for x in flat)):
            return f"{words} {flat[0]} to {flat[1]}"
        return f"{words} {', '.join(flat)}"
    return _scalar(key, v, parent)


def _ranges(t: str) -> str:
    """from 12:00; to 13:30 (two keys of one window): one range, from 12:00 to 13:30; a
    box's lat min: 22.3, lat max: 23.1 as lat 22.3 to 23.1."""
    t = rx.sub(rf"(?i)\b(lat|lng|lon)\s+min:\s*({_NUM})\s*[;,]\s*\1\s+max:\s*({_NUM})",
               r"\1 \2 to \3", t)
    t = rx.sub(r"(?:开始|起始|起|从)\s*(\d{1,2}:\d{2})\s*[;,]\s*(?:结束|截止|止|到)\s*"
               r"(\d{1,2}:\d{2})", r"\1到\2", t)
    return rx.sub(r"(?i)(^|[;:,]\s*)(?:from|start|begin|starts?|opens?)\s+(\d{1,2}:\d{2})\s*[;,]"
                  r"\s*(?:to|end|ends?|until|till|closes?)\s+(\d{1,2}:\d{2})",
                  r"\1from \2 to \3", t)


def _looks_like_config(lines: list[str]) -> bool:
    codes = [_split_comment(ln)[0] for ln in lines]
    keyed = [c for c in codes if rx.match(_LINE, c)]
    sections = [c for c in codes if rx.match(_SECTION, c)]
    json = rx.match(r"\s*\{.*[\"']?\w+[\"']?\s*:", lines[0]) is not None
    if not json and len(keyed) + len(sections) < 2:
        return False
    return json or bool(sections) or any(
        rx.search(r"^\s*(?:-\s+)?[\"']?[A-Za-z]+_\w+[\"']?\s*[:=]|^\s*\w+\s*=|^\s+\S", c)
        for c in codes)


def plain_config(t: str) -> str:
    """`t` with a config snippet written as clauses (the module's doc)."""
    lines = [ln for ln in t.split("\n") if ln.strip()]
    if not lines or "|" in t or not _looks_like_config(lines):
        return t
    clauses: list[str] = []
    stack: list[tuple[int, list[str]]] = []  # (indent, the nesting keys' words)
    section: list[str] = []
    item = False  # inside an item of an array of tables ([[route.stop]]): one clause
    items: dict[str, int] = {}

    def add(c: str, joined: bool = False) -> None:
        if joined and clauses:
            clauses[-1] += ", " + c
        else:
            clauses.append(c)

    for line in lines:
        code, comment = _split_comment(line)
        s = code.strip()
        indent = len(code) - len(code.lstrip())
        if s:
            sec = rx.match(_SECTION, s)
            m = rx.match(_LINE, code)
            if sec is not None:
                name = sec.group(1)
                section, stack = _words(name), []
                item = s.startswith("[[")
                if item:  # an array of tables: its items numbered
                    items[name] = items.get(name, 0) + 1
                    add(f"{items[name]})")
                else:
                    add(" ".join(section) + ":")
            elif s.startswith("{"):
                v = _value(s)
                if isinstance(v, dict):
                    for k, x in v.items():
                        add(_clause(k, x))
                else:
                    add(s)
            elif m is not None:
                while stack and stack[-1][0] >= indent:
                    stack.pop()
                key, raw = m.group(1).strip(), m.group(2).strip()
                parent = stack[-1][1] if stack else section
                numbered = rx.fullmatch(r"([A-Za-z]+)_?(\d{1,2})", key)  # stop1=..., stop2=...
                if not raw:  # a nesting key: its children's noun
                    stack.append((indent, _words(key)))
                    add(" ".join(_words(key)) + ":")
                elif numbered is not None and not rx.fullmatch(r"(?i)w|k|r|p",
                                                               numbered.group(1)):
                    add(f"{numbered.group(2)}) {_ranges(raw)}")
                else:
                    add(_clause(key, _value(raw), parent), joined=item and not s.startswith("- "))
            elif s.startswith("- "):
                v = _value(s[2:])
                if isinstance(v, dict):
                    n = sum(1 for c in clauses if rx.match(r"\d+\) ", c)) + 1
                    add(f"{n}) " + ", ".join(_clause(k, x) for k, x in v.items()))
                else:
                    add(s[2:])
            else:
                add(s)
        if comment:
            add(comment, joined=item)
    out = _ranges("; ".join(c for c in clauses if c.strip()))
    return rx.sub(r":;", ":", rx.sub(r"(\d+\));\s*", r"\1 ", out)) + "."
