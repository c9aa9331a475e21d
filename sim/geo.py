"""Guangdong geography: shipped county table, point sampling, H3 cells, road distance and time.

Distances are great-circle times a detour factor, the usual stand-in for a road network when
only centroids are known; the competition format uses a factor of 1.0.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from functools import cache, cached_property

import h3
import numpy as np

import data

COUNTIES_CSV = "guangdong_counties.csv"

# Guangdong's mainland extent (WGS84), with a small margin; Nan'ao and the Leizhou peninsula fit.
LAT_MIN, LAT_MAX = 20.20, 25.55
LNG_MIN, LNG_MAX = 109.65, 117.35
# Two earths, both kept bit for bit: the competition's (§2.1: every official distance, fare and
# drive time) and the mean radius the generator world's road model has always used.
EARTH_RADIUS_KM = 6371.0
MEAN_EARTH_RADIUS_KM = 6371.0088

# Prefecture-level cities in Chinese; the county table names them in English only.
PREFECTURES_ZH: dict[str, str] = {
    "Guangzhou": "广州", "Shaoguan": "韶关", "Shenzhen": "深圳", "Zhuhai": "珠海",
    "Shantou": "汕头", "Foshan": "佛山", "Jiangmen": "江门", "Zhanjiang": "湛江",
    "Maoming": "茂名", "Zhaoqing": "肇庆", "Huizhou": "惠州", "Meizhou": "梅州",
    "Shanwei": "汕尾", "Heyuan": "河源", "Yangjiang": "阳江", "Qingyuan": "清远",
    "Dongguan": "东莞", "Zhongshan": "中山", "Chaozhou": "潮州", "Jieyang": "揭阳",
    "Yunfu": "云浮",
}
# Older English names of prefectures that drivers still write ("Canton", "Swatow").
PREFECTURE_ALIASES_EN: dict[str, str] = {
    "Canton": "Guangzhou", "Swatow": "Shantou", "Fatshan": "Foshan", "Kongmoon": "Jiangmen",
    "Waichow": "Huizhou", "Chaochow": "Chaozhou", "Shiuhing": "Zhaoqing", "Tungkun": "Dongguan",
}
# Prefecture-level cities without districts: the official place name stops at the city.
CITIES_WITHOUT_DISTRICTS = frozenset({"Dongguan", "Zhongshan"})


@dataclass(frozen=True, slots=True)
class Point:
    lat: float
    lng: float

    def km_to(self, lat: float, lng: float) -> float:
        """The official (§2.1) distance to another point."""
        return haversine_km(self.lat, self.lng, lat, lng)


@dataclass(frozen=True, slots=True)
class County:
    adcode: int
    name_zh: str
    name_en: str
    city_en: str
    lng: float
    lat: float
    population: int
    radius_km: float

    @property
    def point(self) -> Point:
        return Point(self.lat, self.lng)


def in_guangdong(lat: float, lng: float) -> bool:
    """Whether a point lies inside Guangdong's extent (the box the sampler and validator use)."""
    return LAT_MIN <= lat <= LAT_MAX and LNG_MIN <= lng <= LNG_MAX


def haversine_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """The scalar haversine of §2.1 (moves and take distances): each angle to radians first."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lng2) - math.radians(lng1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    h = min(1.0, max(0.0, h))
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def haversine_rad_np(p1: np.ndarray | float, l1: np.ndarray | float, cos1: np.ndarray | float,
                     p2: np.ndarray | float, l2: np.ndarray | float, cos2: np.ndarray | float,
                     radius_km: float = EARTH_RADIUS_KM) -> np.ndarray:
    """The vectorised haversine over angles already in radians, with their latitude cosines
    (callers that reuse them across many queries pass them once)."""
    h = np.sin((p2 - p1) / 2) ** 2 + cos1 * cos2 * np.sin((l2 - l1) / 2) ** 2
    return 2 * radius_km * np.arcsin(np.sqrt(np.minimum(h, 1.0)))


def haversine_from_np(lat: float, lng: float, p2: np.ndarray, l2: np.ndarray,
                      cos2: np.ndarray) -> np.ndarray:
    """From one point in degrees to many given in radians with their cosines (math's scalar
    radians and cosine for the one point, as the hindsight search has always priced)."""
    p1, l1 = math.radians(lat), math.radians(lng)
    return haversine_rad_np(p1, l1, math.cos(p1), p2, l2, cos2)


def haversine_np(lat: float, lng: float, lats: np.ndarray, lngs: np.ndarray) -> np.ndarray:
    """The vectorised haversine of §3.3 from one point to many, in degrees."""
    lat1, lng1 = np.radians(lat), np.radians(lng)
    lat2, lng2 = np.radians(lats), np.radians(lngs)
    return haversine_rad_np(lat1, lng1, np.cos(lat1), lat2, lng2, np.cos(lat2))


def round6(x: float) -> float:
    """numpy's round of a float64 to 6 places (scale, round half to even, unscale), the value
    `round(np.float64, 6)` gives, as a plain float and without numpy's scalar overhead."""
    return round(float(x) * 1e6) / 1e6


def great_circle_km(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """The generator world's distance (mean earth radius, its own rounding), kept as it was so
    generated markets and agents' heuristics reproduce; official distances use haversine_km."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    s = math.sqrt(a)
    return 2 * MEAN_EARTH_RADIUS_KM * math.asin(s if s < 1.0 else 1.0)  # min(1.0, s)


def official_place_name(city_en: str, county_zh: str) -> str:
    """'广东省深圳市宝安区' (or '广东省东莞市' for a city without districts)."""
    city = PREFECTURES_ZH[city_en] + "市"
    return f"广东省{city}" if city_en in CITIES_WITHOUT_DISTRICTS else f"广东省{city}{county_zh}"


@dataclass(frozen=True)
class CountyArrays:
    """The county table as arrays (samplers and nearest-county look-ups index these)."""

    lat: np.ndarray
    lng: np.ndarray
    radius: np.ndarray
    pop: np.ndarray
    city: tuple[str, ...]
    names: tuple[str, ...]  # official place names, '广东省深圳市宝安区'


@cache
def county_arrays() -> CountyArrays:
    """Built once per process."""
    cs = load_counties()
    return CountyArrays(
        lat=np.array([c.lat for c in cs]), lng=np.array([c.lng for c in cs]),
        radius=np.array([max(c.radius_km, 1.0) for c in cs]),
        pop=np.array([c.population for c in cs], dtype=float),
        city=tuple(c.city_en for c in cs),
        names=tuple(official_place_name(c.city_en, c.name_zh) for c in cs),
    )


def load_counties() -> list[County]:
    """The shipped county table (data/guangdong_counties.csv, read from the installed package)."""
    text = data.read_text(COUNTIES_CSV)
    rows = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    return [
        County(
            adcode=int(r["adcode"]),
            name_zh=r["name_zh"],
            name_en=r["name_en"],
            city_en=r["city_en"],
            lng=float(r["lon"]),
            lat=float(r["lat"]),
            population=int(r["pop_2020"]),
            radius_km=float(r["radius_km"]),
        )
        for r in rows
    ]


@dataclass(frozen=True)
class Geography:
    """Counties plus the distance/time model of one scenario."""

    counties: tuple[County, ...]
    detour_factor: float = 1.3
    speed_kmh: float = 60.0
    speed_profile: tuple[float, ...] = (1.0,) * 24
    market_h3_res: int = 6
    # per-run memo of density by key; geography never changes during a run
    memo: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def guangdong(cls, **kwargs: object) -> Geography:
        return cls(counties=tuple(load_counties()), **kwargs)  # type: ignore[arg-type]

    @cached_property
    def weights(self) -> np.ndarray:
        w = np.array([c.population for c in self.counties], dtype=float)
        return w / w.sum()

    @cached_property
    def centroid_distance_km(self) -> np.ndarray:
        lat = np.radians([c.lat for c in self.counties])
        lng = np.radians([c.lng for c in self.counties])
        cos = np.cos(lat)
        return haversine_rad_np(lat[None, :], lng[None, :], cos[None, :],
                                lat[:, None], lng[:, None], cos[:, None], MEAN_EARTH_RADIUS_KM)

    @cached_property
    def _density_peak(self) -> float:
        return max(self._density_raw(c.lat, c.lng, 15.0) for c in self.counties)

    def _density_raw(self, lat: float, lng: float, scale_km: float) -> float:
        cos = math.cos(math.radians(lat))
        total = 0.0
        for w, c in zip(self.weights, self.counties, strict=True):
            dy = (c.lat - lat) * 110.574
            dx = (c.lng - lng) * 111.320 * cos
            total += w * math.exp(-math.hypot(dx, dy) / scale_km)
        return total

    def density(self, lat: float, lng: float, scale_km: float = 15.0) -> float:
        """Population near a point relative to the province's densest county seat (0..~1)."""
        return self._density_raw(lat, lng, scale_km) / self._density_peak

    def road_km(self, a: Point, b: Point) -> float:
        return great_circle_km(a.lat, a.lng, b.lat, b.lng) * self.detour_factor

    def drive_minutes(self, km: float, depart_minute: float = 0.0) -> int:
        """Competition rule: max(1, ceil(d / v * 60)), v scaled by the hour's speed factor."""
        if km <= 0:
            return 0
        hour = int(depart_minute // 60) % 24
        v = self.speed_kmh * self.speed_profile[hour]
        return max(1, math.ceil(km / v * 60))

    @cached_property
    def _sampling(self) -> list[tuple[float, float]]:
        """Per county: the sampling sigma and the km per degree of longitude (a month's cargo
        samples a few hundred thousand points; the same floats as computed inline)."""
        return [(max(c.radius_km, 1.0) / 2, 111.320 * math.cos(math.radians(c.lat)))
                for c in self.counties]

    def sample_point(self, county_index: int, rng: np.random.Generator) -> Point:
        """A point around a county centroid (Gaussian, sigma = radius/2), kept inside Guangdong."""
        c = self.counties[county_index]
        sigma_km, km_per_lng = self._sampling[county_index]
        for _ in range(16):
            dy, dx = rng.normal(0.0, sigma_km, size=2).tolist()
            lat = c.lat + dy / 110.574
            lng = c.lng + dx / km_per_lng
            if in_guangdong(lat, lng):
                return Point(round6(lat), round6(lng))
        return c.point

    def cell(self, p: Point, res: int | None = None) -> str:
        return h3.latlng_to_cell(p.lat, p.lng, self.market_h3_res if res is None else res)

    def nearest_county(self, p: Point) -> int:
        lat = np.array([c.lat for c in self.counties])
        lng = np.array([c.lng for c in self.counties])
        d2 = (lat - p.lat) ** 2 + ((lng - p.lng) * math.cos(math.radians(p.lat))) ** 2
        return int(np.argmin(d2))
