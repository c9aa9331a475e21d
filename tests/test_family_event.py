"""临时约定·家事 texts (collect a spouse at one point, be home at another by a deadline, stay home
until a later date, a fine per minute late or away, plus a one-off fine) read as K24
home_stay_event, never as the K4 nightly curfew: the curfew reading charged 30,000 where the
official scorer charged 12,000 on a 3-day run."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.preferences.text.reading import ReadingStatus, parse_preference, read_preference
from sim.scoring.scorer import score_run
from tests.competition_logs import LogBuilder, driver_row, write_run

PK, HM = (23.13, 113.26), (23.03, 113.14)
FULL = {"w0": "2026-03-02 18:00:00", "w1": "2026-03-04 08:00:00",
        "w_end": "2026-03-04 08:00:00", "pickup_lat": 23.13, "pickup_lng": 113.26,
        "home_lat": 23.03, "home_lng": 113.14, "radius_km": 1.0,
        "min_pickup_dwell_minutes": 0, "rate_per_minute": 10.0}

TEXTS = [
    ("临时约定·家事：3月2日18:00前到（23.13，113.26）接上配偶，20:00前回到家（23.03，113.14），"
     "并在家待到3月4日08:00。迟到或不在家每分钟罚10元，另一次性罚款10000元。", {}),
    ("临时约定·家事：3月2日18:00前到（23.13，113.26）接上配偶，20:00前回到家（23.03，113.14），"
     "并在家待到3月4日08:00。迟到或不在家按10元/分钟计罚，另一次性罚款10000元。", {}),
    ("临时约定（家事）：3月2日18:00到（23.13，113.26）接老婆，原地停留不少于10分钟，然后20:00前"
     "回家（23.03，113.14），一直待到3月4日08:00方可再出车。每迟到一分钟罚10元，另外一次性罚"
     "10000元。", {"min_pickup_dwell_minutes": 10}),
    ("家事：3月2日晚上6点先去（23.13，113.26）接我老婆，晚上8点前一定要到家（23.03，113.14），"
     "到家后待到3月4日早上8点才出车。回家晚了或不在家，每分钟扣10块，另外一次性扣10000块。", {}),
    ("Family matter: on March 2 at 18:00 pick up my spouse at (23.13, 113.26), be home at "
     "(23.03, 113.14) by 20:00 and stay home until March 4 08:00. Each minute late or away "
     "costs 10 yuan, plus a one-off fine of 10000 yuan.", {}),
    ("Temporary arrangement (family): collect my wife at (23.13, 113.26) from 2026-03-02 18:00, "
     "get home to (23.03, 113.14) by 20:00 and stay there until 2026-03-04 08:00; 10 yuan for "
     "every minute late or away from home, and a one-time fine of 10000 yuan.", {}),
]


@pytest.mark.parametrize(("text", "changes"), TEXTS, ids=[t[:18] for t, _ in TEXTS])
def test_family_event_reads_as_home_stay_event(text: str, changes: dict) -> None:
    r = read_preference(text)
    assert r.status is ReadingStatus.PARSED, r.reason
    assert r.best is not None
    assert r.best.kind == "home_stay_event"
    assert r.best.params == {**FULL, **changes}
    assert r.best.penalty_amount == 10000.0  # the one-off fine, not the per-minute rate
    assert all(a.kind != "home_by_curfew" for a in r.alternatives)


def test_family_event_with_a_missing_point_is_never_a_curfew() -> None:
    # the pickup place is no point the parser knows: the event claims the text with the gap
    # open, so the curfew reading never wins silently
    text = ("临时约定·家事：3月2日先到菜市场接上配偶，20:00前回到家（23.03，113.14），在家待到"
            "3月4日08:00。迟到或不在家每分钟罚10元，另一次性罚款10000元。")
    r = read_preference(text)
    assert r.status is not ReadingStatus.PARSED
    assert r.best is None or r.best.kind != "home_by_curfew"
    assert r.alternatives[0].kind == "home_stay_event"
    assert "pickup_lat" in r.alternatives[0].missing


def test_score_charges_the_event_not_a_nightly_curfew(tmp_path: Path) -> None:
    """A driver who stays home for 3 days never collects the spouse: the official P-event is
    rate x minutes away (0, home all along) + the one-off 10,000, not 3 curfew days."""
    text = TEXTS[0][0]
    assert parse_preference(text).kind == "home_stay_event"
    b = LogBuilder("d1", *HM, []).wait(3 * 1440)
    write_run(tmp_path, [], [driver_row("d1", *HM, [text])], [b], days=3, version="S4")
    d = score_run(tmp_path).driver("d1")
    (rule,) = d.rules
    assert rule.kind == "home_stay_event"
    assert rule.penalty == 10000.0
    assert d.income.preference_penalty == 10000.0
