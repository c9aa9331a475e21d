"""A rule that was on paper and reached the file through a phone photo and text recognition.

"乙方车辆每曰须于 22:30 前回到停车场（…以此为中\\n心半径1.5公 里范围内）…每发生一夭罸款 150 元。
____ 已审核", "no single order may have a Ioaded distance of more than 300 kilo-\\nrnetres. Fine
RMB 250 per orcIer. |": OCR swaps characters that look alike (曰 for 日, 夭 for 天, 罸 for 罚, 単
for 单, 体息 for 休息; I for l, rn for m and back), breaks lines and words where the page did,
spaces out characters (公 里), and keeps the page's furniture (headers and footers, page
numbers, blanks to sign on, stamps, box glyphs, circled clause numbers). Each is undone where
the text shows it came from OCR; a text with none of those marks is returned as it was.
"""

from __future__ import annotations

from sim.preferences.text import rx

# marks only a recognised photo leaves (a look-alike character no rule would use, a word
# spaced out, a hyphen at a line's end, page furniture)
_CUE = (r"[曰夭罸単]|体息|公\s+里|小\s+时|分\s+钟|[a-z]-\n|第\s*\d+\s*页\s*共|Page \d+ of \d+|"
        r"_{3,}|[□☑▪①②③④⑤⑥⑦⑧⑨⑩]|(?<=[a-z])I(?=[a-z])|\b(?:rn|kilorn)\w|moming|orcIer|"
        r"(?<![A-Za-z])I(?:east|oad|ate|ength|imit|ess|ong)")

_LOOK_ALIKE = (
    (r"曰", "日"), (r"夭", "天"), (r"罸", "罚"), (r"単", "单"), (r"体息", "休息"),
    (r"(?<=[\d小])吋", "时"), (r"(?<=\d)\s*兀", "元"),
)
_CIRCLED = {c: i + 1 for i, c in enumerate("①②③④⑤⑥⑦⑧⑨⑩")}

# English words as OCR misreads them: l read as I, m as rn (and rn as m), d as cl
_WORDS = (
    (r"(?<=[a-z])I(?=[a-z]|\b)", "l"),
    (r"(?<![A-Za-z])I(?=(?:east|oad|ate|ength|imit|ess|ong|ocal|unch|eave)[a-z]*\b)", "l"),
    (r"(?i)\b(kilo)?rn(?=etres?\b|eters?\b|inutes?\b|onth|ax(?:imum)?\b|ust\b|ore\b|orning\b)",
     r"\1m"),
    (r"(?i)\bmoming\b", "morning"), (r"(?i)\borcler(s?)\b", r"order\1"),
    (r"(?i)\bfme(s?)\b", r"fine\1"),
)


def plain_ocr(t: str) -> str:
    """`t` as the page said it (the module's doc)."""
    if not rx.search(_CUE, t):
        return t
    # the page's furniture: headers, footers, page numbers, blanks, stamps
    t = rx.sub(r"第\s*\d+\s*页\s*共\s*\d+\s*页|(?i:page \d+ of \d+)|(?<!\d)-\s*\d{1,2}\s*-(?!\d)|"
               r"_{3,}|[（(]以下空白[)）]|已审核|(?:甲方|乙方)[（(]?(?:盖章|签字)[)）]?\s*[:：]?|"
               r"(?:甲方|乙方)签字\s*[:：]?", " ", t)
    # a word broken at a line's end ("kilo-\nmetres"), a clause run on to the next line
    t = rx.sub(r"(?<=[A-Za-z])-\s*\n\s*(?=[a-z])", "", t)
    t = rx.sub(r"(?<=[\u4e00-\u9fff，、（(])[ \t]*\n[ \t]*(?=[\u4e00-\u9fff\d）)])", "", t)
    # circled clause numbers and box glyphs start a list item
    t = rx.sub(r"[①②③④⑤⑥⑦⑧⑨⑩]", lambda m: f"\n{_CIRCLED[m.group(0)]}、", t)
    t = rx.sub(r"[□☑▪]", "\n- ", t)
    for pat, rep in _LOOK_ALIKE:
        t = rx.sub(pat, rep, t)
    # characters spaced out: a unit (公 里, 小 时) or a heading (收 车 规 定)
    t = rx.sub(r"公\s+里", "公里", t)
    t = rx.sub(r"小\s+时", "小时", t)
    t = rx.sub(r"分\s+钟", "分钟", t)
    t = rx.sub(r"(?<![\u4e00-\u9fff])((?:[\u4e00-\u9fff] ){2,}[\u4e00-\u9fff])(?![\u4e00-\u9fff])",
               lambda m: m.group(1).replace(" ", ""), t)
    for pat, rep in _WORDS:
        t = rx.sub(pat, rep, t)
    return t
