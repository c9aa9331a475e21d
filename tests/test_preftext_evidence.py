"""The stricter confidence test: a reading is trusted only when the text establishes its kind
(sim/preferences/text/evidence.py) and no close runner-up is established as well; and the colloquial
shapes the reader now normalises (dev rows of data/preference_eval_dev.jsonl, split dev-b)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.preferences.kinds import REGISTRY
from sim.preferences.text.evidence import EVIDENCE, established
from sim.preferences.text.extract import facts, normalise_text, number_view
from sim.preferences.text.reading import ReadingStatus, read_preference

ROOT = Path(__file__).resolve().parent.parent
TRAIN = {r["id"]: r for r in map(json.loads, (ROOT / "data" / "preference_eval.jsonl")
                                  .read_text(encoding="utf-8").splitlines())
         if r["split"] == "train"}


def test_every_kind_has_its_evidence() -> None:
    assert set(EVIDENCE) == set(REGISTRY)


# §8's disambiguation rules: each train text establishes its own kind and not its neighbour's
@pytest.mark.parametrize(("row_id", "neighbour"), [
    ("k13-zh-01", "min_full_off_days"),  # only 不接单: K13
    ("k14-zh-01", "min_days_without_orders"),  # 不空车乱跑 too: K14
    ("k02-zh-01", "quiet_window"),  # sleep required in the span: K2
    ("k03-zh-01", "rest_window_full_coverage"),  # rest allowed, not required: K3
    ("k17-zh-01", "min_region_order_days"),  # a point and a day count: K17
    ("k18-zh-01", "min_visit_days"),  # loading or unloading in a place: K18
    ("k22-zh-01", "route_stops_on_day"),  # one place on a date: K22
    ("k23-zh-01", "dwell_at_point_on_day"),  # two stops in order: K23
    ("k07-zh-01", "max_pickup_deadhead_km"),
    ("k08-zh-01", "max_total_deadhead_km"),
    ("k09-zh-01", "max_pickup_deadhead_km"),
    ("k04-zh-01", "quiet_window"),  # home first, then no work: K4
    ("k06-zh-01", "date_region_avoid"),  # no dates: K6
    ("k12-zh-01", "forbidden_cargo_place"),  # dates: K12
])
def test_a_text_establishes_its_kind_not_its_neighbour(row_id: str, neighbour: str) -> None:
    r = TRAIN[row_id]
    f = facts(r["text"])
    assert established(r["kind"], f)
    assert not established(neighbour, f)
    assert read_preference(r["text"]).status is ReadingStatus.PARSED


def test_two_rules_in_one_text_are_ambiguous_not_the_stronger_one() -> None:
    text = TRAIN["k01-zh-01"]["text"] + "指定要接货源编号为388102的货。"
    reading = read_preference(text)
    assert reading.status is ReadingStatus.AMBIGUOUS
    assert "evidence of both" in reading.reason
    assert {a.kind for a in reading.alternatives} >= {"must_take_cargo", "daily_continuous_rest"}


def test_the_condition_of_a_fine_is_no_refusal() -> None:
    # "if I don't" is not "don't go there": the dated stay is not a dated avoidance
    reading = read_preference("On 12 April I have to spend 2 hours in Huiyang district. "
                              "700 yuan if I don't.")
    assert reading.status is ReadingStatus.PARSED, reading.reason
    assert reading.best is not None
    assert reading.best.kind == "dwell_at_point_on_day"


def test_a_kind_claimed_from_numbers_alone_is_ambiguous() -> None:
    # a day count and a place, but nothing about loading there: not a trusted K18
    reading = read_preference("Shenzhen: 3 days.")
    assert reading.status is not ReadingStatus.PARSED


@pytest.mark.parametrize(("text", "view"), [
    ("more than one hundred and twenty kilometers", "more than 120 kilometers"),
    ("two thousand km", "2000 km"),
    ("forty-five minutes", "45 minutes"),
    ("fifteen vegetable orders at least", "15 vegetable orders at least"),
    ("a solid six-hour block", "a solid 6 hours block"),
    ("From half past eleven at night to six in the morning", "From 11:30 pm to 6:00 am"),
    ("Between 1 and 5 in the morning", "Between 1:00 am and 5:00 am"),
    ("before 8:00 in the morning", "before 8:00 am"),  # a clock and its half of the day
    ("on five or more different days", "on at least 5 different days"),
    ("on 10 and 11 May", "on May 10 and May 11"),
    ("眯仨钟头，超过仨百公里", "睡3个钟头,超过300公里"),
    ("北纬二十二点八到二十三点六，东经一百一十三点二到一百一十四点一",
     "北纬22.8到23.6,东经113.2到114.1"),
    ("十二点半到两点", "12点30分到2点"),  # a clock's 点 without latitude words stays a clock
    ("每公里罚一块五", "每公里罚1.5元"),
    ("附近一公里半以内", "附近1.5公里以内"),
])
def test_number_view(text: str, view: str) -> None:
    assert number_view(normalise_text(text)) == view


@pytest.mark.parametrize(("text", "plain"), [
    ("这段别给我派单，也别让我空车跑", "这段别派单,也别空车跑"),
    ("装或卸喺佛山都得", "装货或卸货在佛山都得"),
    ("呢个月礼拜一到礼拜五", "这个月星期一到星期五"),
    ("一日唔好接多过三单", "一天不要接超过三单"),
    ("Don't make me drive empty", "Don't drive empty"),
    ("Only one 400 yuan fine for the month", "Only one fine of 400 yuan for the month"),
    ("每月最少有三日要去，一日去几次只计一日；5月1日到三日",
     "每月最少有三天要去,一天去几次只计一天;5月1日到三日"),
])
def test_colloquial_shapes(text: str, plain: str) -> None:
    assert normalise_text(text) == plain
