"""Keep a large run's page light: every figure's data is embedded, so a 100-driver month must
be thinned before it is drawn. Each reduction returns what it did, for the page to say."""

from __future__ import annotations

from agents.app.report.model import DriverTrace, RunData, Segment

SEGMENT_BUDGET = 250_000  # bars over all drivers of a run
ROUTE_POINTS = 2_000  # route points per driver on the map


def merge_runs(segments: list[Segment]) -> list[Segment]:
    """Join back-to-back segments of one phase (a string of 1-minute searches is one bar)."""
    out: list[Segment] = []
    for s in segments:
        last = out[-1] if out else None
        if last is not None and last.phase is s.phase and abs(last.end - s.start) < 1e-6:
            out[-1] = Segment(s.phase, last.start, s.end, last.step, last.note)
        else:
            out.append(s)
    return out


def _thin_segments(d: DriverTrace, cap: int) -> float | None:
    """Keep the `cap` longest segments; -> the length of the shortest one kept."""
    if len(d.segments) <= cap:
        return None
    order = sorted(range(len(d.segments)),
                   key=lambda i: d.segments[i].end - d.segments[i].start, reverse=True)
    keep = sorted(order[:cap])  # the longest, back in time order
    cut = d.segments[order[cap - 1]].end - d.segments[order[cap - 1]].start
    d.segments = [d.segments[i] for i in keep]
    return cut


def reduce_run(run: RunData) -> None:
    n = max(1, len(run.drivers))
    total = sum(len(d.segments) for d in run.drivers)
    cap = max(500, SEGMENT_BUDGET // n)
    thinned = []
    for d in run.drivers:
        if total > SEGMENT_BUDGET:
            d.segments = merge_runs(d.segments)
        cut = _thin_segments(d, cap)
        if cut is not None:
            thinned.append(f"{d.driver_id} (bars under {cut:.0f} min)")
        if len(d.route) > ROUTE_POINTS:
            k = -(-len(d.route) // ROUTE_POINTS)
            d.route = d.route[::k] + ([d.route[-1]] if (len(d.route) - 1) % k else [])
            run.notes.append(f"{d.driver_id}: route drawn through every {k}th point "
                             f"({len(d.route)} of them)")
    if total > SEGMENT_BUDGET:
        run.notes.append(f"{total:,} timeline segments over {n} drivers: back-to-back segments "
                         f"of one action are drawn as one bar")
    if thinned:
        run.notes.append(f"timeline sampled to at most {cap:,} bars a driver by leaving out the "
                         f"shortest: " + ", ".join(thinned[:10])
                         + (f" and {len(thinned) - 10} more" if len(thinned) > 10 else ""))
