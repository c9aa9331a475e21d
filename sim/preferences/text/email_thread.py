"""A rule pasted from an email thread: headers, the message, a signature, the quoted thread.

"发送时间: 2026年2月26日 21:47", "Sent: Saturday, 28 February 2026 19:36": a header's send
time is no clock or date of the rule, yet read as one it made a curfew of 21:47, a rest
window from two messages' send times (09:30 to 22:10) and a dated region rule from the days
the messages were sent. A quoted earlier message ("> …", "-----原始邮件-----", "On … wrote:",
"… 写道：") often states the old version of a rule the reply corrects (800 km where the reply
says 1,000), and a signature's company registration number has the shape of a cargo id.

So a text with an email's headers (two header fields at the starts of lines) is read as its
newest message: header lines dropped (a subject's words kept, without its RE:); phone
numbers, registration numbers and postal addresses (a street's "18号" is no date) dropped; the
quoted thread dropped when the message itself states a number (a bare "agreed" above the
quote keeps the quote, its headers dropped too).
Any other text is returned as it was.
"""

from __future__ import annotations

import re

from sim.preferences.text import rx

_FIELDS = ("发件人", "收件人", "抄送", "发送时间", "发件时间", "From", "To", "Cc", "Bcc", "Sent",
           "Date")
_FIELD = r"(?i)^[ \t>]*(" + "|".join(_FIELDS) + r")\s*[:：]"
_SUBJECT = (r"(?i)^([ \t>]*)(?:主题|Subject)\s*[:：]\s*"
            r"(?:(?:RE|FW|FWD|AW|答复|回复|转发)\s*[:：]\s*)*")
# the line that opens the quoted thread (after any ">" of its own)
_MARKER = (r"(?i)^[\s>]*(?:-{2,}\s*(?:原始邮件|original message|forwarded message|转发邮件)"
           r"\s*-{2,}|on\b.{0,160}\bwrote\s*:|.{0,80}写道\s*[:：])\s*$")
# a phone number after its label, a mainland mobile number, a company registration number
_CONTACT = (r"(?i)(?:手机|电话|热线|座机|tel|mobile|phone|fax|传真)\s*[:：]?\s*\+?[\d(]"
            r"[\d\s()+-]{5,}\d")
_MOBILE = r"(?<!\d)1[3-9]\d[\s-]?\d{4}[\s-]?\d{4}(?!\d)"
_REG_NO = (r"(?i)(?:统一社会信用代码|信用代码|(?:co\.?\s*)?reg(?:istration)?\.?\s*no\.?)"
           r"\s*[:：]?\s*[0-9A-Z]{15,18}")
# a signature's postal address: a line that ends in its six-digit postcode
_ADDRESS = r"^.*\D(?:\d{6})\s*$"
# a number the message states itself (一 is left out: 一律, 一单 say no number of the rule)
_A_NUMBER = r"[0-9二两三四五六七八九十百千]"


def is_email(t: str) -> bool:
    """Two different header fields, each at the start of a line."""
    return len({m.group(1).lower() for m in rx.finditer(_FIELD, t, re.M)}) >= 2


def _message(lines: list[str]) -> list[str]:
    """`lines` without their header lines, a subject as its words, contacts dropped."""
    out = []
    for ln in lines:
        if rx.match(_FIELD, ln) or rx.match(_ADDRESS, ln):
            continue
        ln = rx.sub(_SUBJECT, r"\1", ln)
        ln = rx.sub(_REG_NO, "", rx.sub(_CONTACT, "", ln))
        ln = rx.sub(_MOBILE, "", ln)
        out.append(ln.lstrip("> \t") if ln.lstrip().startswith(">") else ln)
    return out


def plain_email(t: str) -> str:
    """`t` as its newest message when it is an email thread (`is_email`), else unchanged."""
    if not is_email(t):
        return t
    lines = t.splitlines()
    cut = next((i for i, ln in enumerate(lines)
                if rx.search(_MARKER, ln) or ln.lstrip().startswith(">")), len(lines))
    newest = _message(lines[:cut])
    if rx.search(_A_NUMBER, "\n".join(newest)) is None:  # "agreed" above the rule it quotes
        newest += _message([ln for ln in lines[cut:] if not rx.search(_MARKER, ln)])
    return "\n".join(ln for ln in newest if ln.strip())


__all__ = ["is_email", "plain_email"]
