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


# a letterhead: a company, fleet or depot and the document's title on a line of its own
# ("清远市某运输队 司机守则（2026年3月）", "茂名XX运输公司 三月份安排"); the place in a
# company's name is where the company is, not where the rule is
_LETTERHEAD = (r"^[^\n|]{0,30}(?:公司|运输队|车队|物流|车行|货运站)[^\n|]{0,20}?"
               r"(?:守则|通知|协议|合同|规定|安排|须知|公告|制度|协议书)\s*"
               r"(?:[（(][^\n）)]{0,16}[)）])?[ \t]*\n")


def plain_ocr(t: str) -> str:
    """`t` as the page said it (the module's doc); a letterhead line is dropped from any
    text, photographed or typed."""
    t = rx.sub(_LETTERHEAD, "", t)
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
