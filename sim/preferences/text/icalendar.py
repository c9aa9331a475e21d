"""A rule kept in a calendar or reminder app and exported as iCalendar (RFC 5545), as the
lines a person would type.

"BEGIN:VEVENT / SUMMARY:… / DTSTART:20260318T160000 / RRULE:FREQ=DAILY;UNTIL=20260331T235959
/ GEO:23.09;114.40 / DESCRIPTION:…\\, … / END:VEVENT": the property names and their values'
shapes are the app's, not the driver's words. Read as they stand, an RRULE's end date became
a fine of 20,260,331 and GEO's semicolon cut a stop's point from its deadline (the kinds'
readers split clauses at ";"). So a block is written as prose: its text properties (summary,
location, description, comment) unescaped, each on its own line; a GEO point as "(lat, lng)";
a repeat as "repeats daily" (its UNTIL or COUNT is the rule's validity, which the rule's
start and end time say, not a number of the rule); the app's own bookkeeping (UID, DTSTAMP,
an alarm, a status, X- properties) dropped. An event's start and end and a to-do's due time
are written ("from 2026-03-12 10:00") only where its words name no date: the words' dates
and clocks are the rule's (a family event's whole span, 16:00 to 08:00 the next day, beside
its words made the absence window run all night). A recurring event's start and end are its
first occurrence, no day of the rule: only their clocks are kept, where the words name no
clock. "GEO 23.12;113.32" is a point wherever it stands (a description copies the form).
Any other text is returned as it was.
"""

from __future__ import annotations

import datetime as dt
import re

from sim.preferences.text import rx

# GEO's value, lat;lng, after its name (a description copies the form; a sheet's cells
# split at ";" are no point)
_GEO_PAIR = r"(?i)\b(GEO\s*[:：=]?\s*)([-+]?\d{1,3}\.\d+)\s*;\s*([-+]?\d{1,3}\.\d+)(?![\d.])"
_BLOCK = r"\s*(?:BEGIN|END)\s*:\s*V(?:CALENDAR|EVENT|TODO|JOURNAL|ALARM)\s*"  # a line
_PROPERTY = r"^([A-Za-z][A-Za-z0-9-]*)((?:;[^:\n]*)?):(.*)$"
_TEXT = ("SUMMARY", "LOCATION", "DESCRIPTION", "COMMENT")
_WHEN = {"DTSTART": "from", "DTEND": "to", "DUE": "due"}
_FREQ = {"DAILY": "daily", "WEEKLY": "weekly", "MONTHLY": "monthly", "YEARLY": "yearly"}
_MONTH_EN = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DATE_SAID = (r"\d{1,2}\s*月\s*\d{1,2}\s*[日号]|\d{4}\s*[-/.年]\s*\d{1,2}|"
              rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_EN}(?![a-z])|"
              rf"\b{_MONTH_EN}\s+\d{{1,2}}\b")
_CLOCK_SAID = r"\d{1,2}:\d{2}|[\d一二两三四五六七八九十]\s*点|\d\s*(?:am|pm|a\.m|p\.m)\b"


def _unescape(v: str) -> str:
    return rx.sub(r"\\([\\,;nN])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), v)


def _when(value: str, repeats: bool) -> str | None:
    """20260318T160000 as "2026-03-18 16:00" (UTC's Z as Beijing time), 20260310 as
    "2026-03-10"; a repeat's first occurrence keeps its clock only."""
    m = rx.fullmatch(r"\s*(\d{8})(?:T(\d{4})\d{2}(Z)?)?\s*", value)
    if m is None:
        return None
    if m.group(2) is None:
        return None if repeats else dt.datetime.strptime(m.group(1), "%Y%m%d").strftime("%Y-%m-%d")
    at = dt.datetime.strptime(m.group(1) + m.group(2), "%Y%m%d%H%M")
    at += dt.timedelta(hours=8 if m.group(3) else 0)
    return at.strftime("%H:%M" if repeats else "%Y-%m-%d %H:%M")


def _repeat(value: str) -> str:
    """FREQ=DAILY;UNTIL=…: "repeats daily" (its days, BYDAY, are the description's to say:
    a weekday named beside a night's window made it the weekend's)."""
    freq = rx.search(r"(?i)\bFREQ=([A-Z]+)", value)
    return ("repeats " + _FREQ.get(freq.group(1).upper(), "")).rstrip() if freq else "repeats"


def _block(lines: list[str]) -> list[str]:
    repeats = any(rx.match(r"(?i)RRULE\s*[;:]", ln) for ln in lines)
    props = (rx.match(_PROPERTY, ln) for ln in lines)
    prose = " ".join(m.group(3) for m in props if m is not None and m.group(1).upper() in _TEXT)
    # the app's start, end and due times where the driver's words do not say them
    # (the words' own date and clocks are the rule's; the event's span is the whole errand)
    said = rx.search(_CLOCK_SAID if repeats else _DATE_SAID, prose, re.I) is not None
    out: list[str] = []
    for ln in lines:
        m = rx.match(_PROPERTY, ln)
        if m is None:
            out.append(ln)
            continue
        name, value = m.group(1).upper(), m.group(3)
        if name in _TEXT:
            out.append(_unescape(value))
        elif name == "GEO":
            out.append(rx.sub(r"^\s*([-+]?\d+(?:\.\d+)?)\s*[;,]\s*([-+]?\d+(?:\.\d+)?)\s*$",
                              r"(\1, \2)", value))
        elif name in _WHEN and not said:
            when = _when(value, repeats)
            if when is not None:
                out.append(f"{_WHEN[name]} {when}")
        elif name == "RRULE":
            out.append(_repeat(value))
    return out


def plain_calendar(t: str) -> str:
    """`t` with its iCalendar blocks written as prose and GEO's lat;lng as "lat, lng"."""
    if ";" in t:
        t = rx.sub(_GEO_PAIR, r"\1\2, \3", t)
    if rx.search(r"(?im)^" + _BLOCK + "$", t) is None:
        return t
    t = rx.sub(r"\r?\n[ \t]", "", t)  # a long line folded by the app
    t = rx.sub(r"(?ims)^\s*BEGIN:VALARM\s*$.*?^\s*END:VALARM\s*$", "", t)  # its reminder
    lines = [ln for ln in t.splitlines() if not rx.fullmatch(_BLOCK, ln, re.I)]
    return "\n".join(ln for ln in _block(lines) if ln.strip())
