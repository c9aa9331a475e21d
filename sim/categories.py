"""The competition's cargo categories (docs/competition.md §2.2: a cargo record's `cargo_name`),
Chinese as the records carry them, with the English the generated texts use."""

from __future__ import annotations

CATEGORIES: dict[str, str] = {
    "蔬菜": "vegetables", "水果": "fruit", "建材": "building materials",
    "化工塑料": "chemicals and plastics", "煤炭矿产": "coal and minerals",
    "机械设备": "machinery", "食品饮料": "food and drink", "鲜活水产品": "live seafood",
    "服饰纺织皮革": "clothing, textiles and leather", "快递快运搬家": "parcels and house moves",
}
