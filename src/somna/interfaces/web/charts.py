"""Small bar and line charts as server-rendered SVG: no script, readable without colour alone.

Each chart is data in, markup out; the template places it. Every series has a
text legend and every bar a `<title>` with its value, for screen readers and
for a pointer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

__all__ = ["Series", "bars", "lines"]

_W, _H, _LEFT, _BOTTOM, _TOP = 640, 260, 64, 36, 14
_COLOURS = ("#1f6feb", "#2da44e", "#bf8700", "#cf222e")
_DASHES = ("", "6 3", "2 3", "8 2 2 2")


@dataclass(frozen=True)
class Series:
    name: str
    values: list[float]


def _top(series: list[Series]) -> float:
    """The top of the scale: a multiple of 4 at least the largest value, so ticks are whole."""
    largest = max([v for s in series for v in s.values] + [1.0])
    return float(4 * math.ceil(largest / 4))


def _frame(title: str, labels: list[str], top: float) -> list[str]:
    parts = [
        f"<figcaption>{escape(title)}</figcaption>",
        f'<svg viewBox="0 0 {_W} {_H}" role="img" aria-label="{escape(title)}" class="chart">',
        f"<title>{escape(title)}</title>",
    ]
    base = _H - _BOTTOM
    for step in range(5):
        value = top * step / 4
        y = base - (base - _TOP) * step / 4
        parts.append(
            f'<line x1="{_LEFT}" x2="{_W}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
            f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{value:,.0f}</text>'
        )
    width = (_W - _LEFT) / max(len(labels), 1)
    every = max(1, len(labels) // 8)
    for i, label in enumerate(labels):
        if i % every == 0:
            x = _LEFT + width * (i + 0.5)
            parts.append(f'<text x="{x:.1f}" y="{_H - 8}" text-anchor="middle">{label}</text>')
    return parts


def _legend(series: list[Series]) -> str:
    items = "".join(
        f'<li><span class="swatch" style="background:{_COLOURS[i % 4]}"></span>'
        f"{escape(s.name)}</li>"
        for i, s in enumerate(series)
    )
    return f'<ul class="legend">{items}</ul>'


def bars(title: str, labels: list[str], series: list[Series]) -> Markup:
    """Grouped bars: one group per label, one bar per series."""
    top = _top(series)
    parts = _frame(title, labels, top)
    base = _H - _BOTTOM
    group = (_W - _LEFT) / max(len(labels), 1)
    bar = group * 0.8 / max(len(series), 1)
    for i, label in enumerate(labels):
        for j, s in enumerate(series):
            value = s.values[i]
            height = (base - _TOP) * value / top
            x = _LEFT + group * i + group * 0.1 + bar * j
            parts.append(
                f'<rect x="{x:.1f}" y="{base - height:.1f}" width="{bar:.1f}" '
                f'height="{height:.1f}" fill="{_COLOURS[j % 4]}">'
                f"<title>{label}: {value:,.0f} {escape(s.name)}</title></rect>"
            )
    parts.append("</svg>")
    return Markup("".join(parts) + _legend(series))


def lines(title: str, labels: list[str], series: list[Series]) -> Markup:
    """One line per series, dashed differently so they read apart without colour."""
    top = _top(series)
    parts = _frame(title, labels, top)
    base = _H - _BOTTOM
    width = (_W - _LEFT) / max(len(labels), 1)
    for j, s in enumerate(series):
        points = " ".join(
            f"{_LEFT + width * (i + 0.5):.1f},{base - (base - _TOP) * v / top:.1f}"
            for i, v in enumerate(s.values)
        )
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{_COLOURS[j % 4]}" '
            f'stroke-width="2.5" stroke-dasharray="{_DASHES[j % 4]}"/>'
        )
        for i, v in enumerate(s.values):
            x, y = _LEFT + width * (i + 0.5), base - (base - _TOP) * v / top
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{_COLOURS[j % 4]}">'
                f"<title>{labels[i]}: {v:,.0f} {escape(s.name)}</title></circle>"
            )
    parts.append("</svg>")
    return Markup("".join(parts) + _legend(series))
