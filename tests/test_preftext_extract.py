"""The shared extractors the preference recognisers are built on, at their edge cases."""

from __future__ import annotations

import pytest

from sim.preferences.text.extract import (
    bbox,
    categories,
    clocks,
    cn_to_int,
    coords,
    dates,
    facts,
    money,
    normalise_text,
    number_view,
    places,
)


@pytest.mark.parametrize(("text", "value"), [
    ("两", 2), ("十", 10), ("十二", 12), ("二十", 20), ("五十五", 55), ("一百零五", 105),
    ("两千", 2000), ("三万五千", 35000), ("二〇二六", 2026),
])
def test_chinese_numerals(text: str, value: int) -> None:
    assert cn_to_int(text) == value


def test_numerals_become_digits_only_before_a_unit() -> None:
    text = "一律不接，每天休息八个半小时，两单，半小时，第二天，五十五公里"
    v = number_view(normalise_text(text))
    assert "一律" in v
    assert "第二天" in v
    assert "8.5小时" in v
    assert "2单" in v
    assert "0.5小时" in v
    assert "55公里" in v


def _hhmm(text: str) -> list[str]:
    return [c.hhmm for c in clocks(number_view(normalise_text(text)))]


@pytest.mark.parametrize(("text", "want"), [
    ("晚上十点半", ["22:30"]), ("下午3点", ["15:00"]), ("凌晨两点", ["02:00"]),
    ("中午12点", ["12:00"]), ("中午1点", ["13:00"]), ("夜里12点", ["00:00"]),
    ("零点", ["00:00"]), ("早上6:30", ["06:30"]), ("23:00至次日05:00", ["23:00", "05:00"]),
    ("最晚上午9点半", ["09:30"]), ("10:30 pm to 6 am", ["22:30", "06:00"]),
    ("12 am", ["00:00"]), ("midnight", ["00:00"]), ("8小时", []),
    ("until 6 the next morning", ["06:00"]), ("待到4月19号中午", ["12:00"]), ("中午吃饭", []),
])
def test_clock_words(text: str, want: list[str]) -> None:
    assert _hhmm(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("方圆一点五公里以内", "1.5公里"), ("在那待一刻钟", "15分钟"),
    ("stay a quarter of an hour", "15 minutes"),
    ("stay an hour and a half", "1.5 hours"), ("北纬二十二度半", "22.5度"),
    ("fined fifty yuan each", "50 yuan"), ("one hundred and twenty yuan", "120 yuan"),
    ("罚一百五一单", "罚150元"),
])
def test_spoken_number_forms(text: str, want: str) -> None:
    assert want in number_view(normalise_text(text))


def test_next_day_and_deadline_flags() -> None:
    cs = clocks(number_view(normalise_text("晚上11点到第二天早上7点前")))
    assert [c.next_day for c in cs] == [False, True]
    assert cs[1].before


@pytest.mark.parametrize("text", ["（22.54，114.06）", "(22.54, 114.06)", "北纬22.54、东经114.06",
                                  "lat 22.54, lng 114.06", "(114.06, 22.54)"])
def test_coordinates_any_separator_or_order(text: str) -> None:
    (c,) = coords(normalise_text(text))
    assert (c.lat, c.lng) == (22.54, 114.06)


@pytest.mark.parametrize("text", ["北纬22.5至23.5、东经113至114.5",
                                  "纬度22.5~23.5，经度113~114.5",
                                  "stay inside lat 22.5-23.5, lng 113-114.5",
                                  "latitude between 22.5 and 23.5, longitude 113 to 114.5",
                                  "北纬二十二度半到二十三度半、东经一百一十三度到一百一十四度半"])
def test_boxes(text: str) -> None:
    box = bbox(number_view(normalise_text(text)))
    assert box == {"lat_min": 22.5, "lat_max": 23.5, "lng_min": 113.0, "lng_max": 114.5}


@pytest.mark.parametrize(("text", "amount", "cap", "none"), [
    ("每天不满足扣钱200元，累计上限3000元", 200, 3000, False),
    ("罚50元，封顶500元", 50, 500, False),
    ("每接一次罚100元，上不封顶", 100, None, True),
    ("扣100元，无月度封顶", 100, None, True),
    ("fine of 150 yuan per day, capped at 3000 yuan", 150, 3000, False),
    ("80 yuan for each extra one, no cap", 80, None, True),
    ("最多扣一次，罚500元", 500, None, False),
    ("单笔运输里程上限为250公里", None, None, False),
    ("每分钟罚2元；提前离家额外一次性罚500元", 500, None, False),
    ("罚款一天二百块，要是没做到", 200, None, False), ("罚款一晚一百块", 100, None, False),
    ("超出的每公里罚两块五", 2.5, None, False), ("罚一百八一晚", 180, None, False),
])
def test_amounts_and_caps(text: str, amount: float | None, cap: float | None,
                          none: bool) -> None:
    a, c, n, _ = money(number_view(normalise_text(text)))
    assert (a, c, n) == (amount, cap, none)


def test_dates_lists_and_ranges_inherit_the_month() -> None:
    got = [d.iso for d in dates(normalise_text("3月5日、6日和3月8号，以及4月1日至3日，2026-05-02"))]
    assert got == ["2026-03-05", "2026-03-06", "2026-03-08", "2026-04-01", "2026-04-02",
                   "2026-04-03", "2026-05-02"]
    assert [d.iso for d in dates("March 5, 6 and 8")] == ["2026-03-05", "2026-03-06",
                                                          "2026-03-08"]
    assert dates("3 separate days") == []


def test_categories_brackets_aliases_and_english() -> None:
    got = [c for c, _ in categories("「化工塑料」「煤炭矿产」和水果")]
    assert got == ["化工塑料", "煤炭矿产", "水果"]
    assert [c for c, _ in categories("no seafood or building materials")] == ["鲜活水产品", "建材"]


def test_places_english_names_map_to_the_chinese_substring() -> None:
    assert [p.name_zh for p in places("no loads to or from Shenzhen")] == ["深圳"]
    assert [p.name_zh for p in places("装货地在东莞市")] == ["东莞市"]
    assert [p.name_zh for p in places("Nanshan district")] == ["南山区"]


def test_facts_never_raise_on_odd_text() -> None:
    for t in ["", "（（（", "99点99分", "13月45日", "北纬至东经", "半径公里", "\x00\u200b"]:
        facts(t)
