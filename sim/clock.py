"""Simulated time: minutes since the run's start, days of 1440 minutes, 31-day months."""

from __future__ import annotations

DAY = 1440  # minutes in a day
MONTH_DAYS = 31  # the competition's month
