/**
 * Part of the Python package the coding trajectory works on: a billing module with two planted bugs (an
 * inclusive day count in a half-open range, rounding to cents whatever the currency) and an invoice
 * module that compensates for the first. The sources are valid Python 3.11 and their tests behave as the
 * trajectory shows (checked by running pytest on them).
 */

/** `src/kestrel_billing/proration.py` before any fix. */
export const PRORATION_PY = `"""Proration of subscription charges for partial billing periods.

Amounts are Decimal throughout and every public function returns values quantized to
the currency's minor unit. Periods are half-open, [start, end), in the account's
local calendar; an upgrade on the 15th of a 30-day month therefore bills 16 days of
the new plan and credits 16 days of the old one.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from decimal import ROUND_HALF_UP, Decimal
from enum import Enum
from typing import Iterable, Sequence

from kestrel_billing.currency import minor_unit
from kestrel_billing.errors import ProrationError, UnknownPlanError

logger = logging.getLogger(__name__)

CENT = Decimal("0.01")
ZERO = Decimal("0")
MAX_PERIOD_DAYS = 366
CREDIT_PREFIX = "Unused time on"
CHARGE_PREFIX = "Remaining time on"


class Interval(str, Enum):
    """Billing interval of a plan."""

    MONTH = "month"
    QUARTER = "quarter"
    YEAR = "year"

    @property
    def months(self) -> int:
        return {Interval.MONTH: 1, Interval.QUARTER: 3, Interval.YEAR: 12}[self]


@dataclass(frozen=True)
class Period:
    """A half-open billing period [start, end)."""

    start: date
    end: date

    def __post_init__(self) -> None:
        if self.end <= self.start:
            raise ProrationError(f"empty period {self.start}..{self.end}")
        if (self.end - self.start).days > MAX_PERIOD_DAYS:
            raise ProrationError(f"period longer than {MAX_PERIOD_DAYS} days: {self.start}..{self.end}")

    def contains(self, day: date) -> bool:
        return self.start <= day < self.end

    def clip(self, start: date, end: date) -> tuple[date, date]:
        """The part of [start, end) that falls inside this period."""
        return max(start, self.start), min(end, self.end)


@dataclass(frozen=True)
class PlanPrice:
    """The recurring price of a plan in one currency."""

    plan_id: str
    amount: Decimal
    currency: str
    interval: Interval = Interval.MONTH

    def __post_init__(self) -> None:
        if self.amount < ZERO:
            raise ProrationError(f"negative price for {self.plan_id}: {self.amount}")


@dataclass
class ProrationLine:
    """One line of a proration invoice: a credit (negative) or a charge."""

    description: str
    amount: Decimal
    period: Period
    plan_id: str
    metadata: dict[str, str] = field(default_factory=dict)

    @property
    def is_credit(self) -> bool:
        return self.amount < ZERO


def quantize(amount: Decimal, currency: str = "EUR") -> Decimal:
    """Round to the currency's minor unit, half away from zero (our invoice convention)."""
    exponent = Decimal(1).scaleb(-minor_unit(currency))
    logger.debug("quantize %s %s to %s", amount, currency, exponent)
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def days_in_period(start: date, end: date) -> int:
    """Number of billable days in the half-open range [start, end)."""
    if end < start:
        raise ProrationError(f"range ends before it starts: {start} > {end}")
    return (end - start).days + 1


def add_months(day: date, months: int) -> date:
    """The same day \`months\` later, clamped to the end of a shorter month."""
    month_index = day.month - 1 + months
    year = day.year + month_index // 12
    month = month_index % 12 + 1
    for candidate in (day.day, 30, 29, 28):
        try:
            return date(year, month, min(day.day, candidate))
        except ValueError:
            continue
    raise ProrationError(f"cannot add {months} months to {day}")


def period_for(anchor: date, interval: Interval, on: date) -> Period:
    """The billing period of an \`anchor\`-aligned subscription that contains \`on\`."""
    if on < anchor:
        raise ProrationError(f"{on} is before the subscription anchor {anchor}")
    start = anchor
    while True:
        end = add_months(start, interval.months)
        if on < end:
            return Period(start, end)
        start = end


def daily_rate(price: PlanPrice, period: Period) -> Decimal:
    """Price per day of \`period\`; not quantized, so sums stay exact until the end."""
    return price.amount / Decimal(days_in_period(period.start, period.end))


def prorate_amount(price: PlanPrice, period: Period, used_from: date, used_until: date) -> Decimal:
    """The charge for using \`price\` over [used_from, used_until) within \`period\`."""
    start, end = period.clip(used_from, used_until)
    if end <= start:
        return ZERO
    used_days = days_in_period(start, end)
    amount = daily_rate(price, period) * Decimal(used_days)
    logger.debug(
        "prorate %s over %s..%s: %s days of %s",
        price.plan_id,
        start,
        end,
        used_days,
        days_in_period(period.start, period.end),
    )
    return quantize(amount, price.currency)


def credit_for_unused(price: PlanPrice, period: Period, change_day: date) -> ProrationLine:
    """A negative line for the part of \`period\` after \`change_day\` already paid for."""
    amount = prorate_amount(price, period, change_day, period.end)
    return ProrationLine(
        description=f"{CREDIT_PREFIX} {price.plan_id} after {change_day.isoformat()}",
        amount=-amount,
        period=Period(change_day, period.end),
        plan_id=price.plan_id,
        metadata={"kind": "credit"},
    )


def charge_for_remaining(price: PlanPrice, period: Period, change_day: date) -> ProrationLine:
    """A positive line for the new plan from \`change_day\` to the end of \`period\`."""
    amount = prorate_amount(price, period, change_day, period.end)
    return ProrationLine(
        description=f"{CHARGE_PREFIX} {price.plan_id} after {change_day.isoformat()}",
        amount=amount,
        period=Period(change_day, period.end),
        plan_id=price.plan_id,
        metadata={"kind": "charge"},
    )


def proration_lines(old: PlanPrice, new: PlanPrice, period: Period, change_day: date) -> list[ProrationLine]:
    """Credit the unused part of \`old\` and charge the rest of the period at \`new\`."""
    if not period.contains(change_day):
        raise ProrationError(f"change on {change_day} is outside {period.start}..{period.end}")
    if old.currency != new.currency:
        raise ProrationError(f"cannot prorate {old.currency} into {new.currency}")
    if change_day == period.start:
        return [charge_for_remaining(new, period, change_day)]
    lines = [credit_for_unused(old, period, change_day), charge_for_remaining(new, period, change_day)]
    return [line for line in lines if line.amount != ZERO]


def merge_lines(lines: Iterable[ProrationLine]) -> list[ProrationLine]:
    """Combine lines of the same plan and kind; keeps the first description."""
    merged: dict[tuple[str, str], ProrationLine] = {}
    for line in lines:
        key = (line.plan_id, line.metadata.get("kind", ""))
        if key in merged:
            current = merged[key]
            merged[key] = ProrationLine(
                description=current.description,
                amount=current.amount + line.amount,
                period=Period(min(current.period.start, line.period.start), max(current.period.end, line.period.end)),
                plan_id=line.plan_id,
                metadata=dict(current.metadata),
            )
        else:
            merged[key] = line
    return list(merged.values())


def summarize(lines: Iterable[ProrationLine]) -> dict[str, Decimal]:
    """Totals of credits, charges and the net amount."""
    totals: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for line in lines:
        totals["credits" if line.is_credit else "charges"] += line.amount
    totals["net"] = totals["credits"] + totals["charges"]
    return dict(totals)


class ProrationCalculator:
    """Prorates plan changes for subscriptions in one account."""

    def __init__(self, prices: Sequence[PlanPrice], tz_offset_minutes: int = 0) -> None:
        self._prices = {price.plan_id: price for price in prices}
        self._tz = timezone(timedelta(minutes=tz_offset_minutes))
        if len(self._prices) != len(prices):
            raise ProrationError("duplicate plan ids in price list")

    def price_for(self, plan_id: str) -> PlanPrice:
        try:
            return self._prices[plan_id]
        except KeyError:
            raise UnknownPlanError(plan_id) from None

    def local_day(self, at: datetime) -> date:
        """The calendar day of \`at\` in the account's timezone."""
        if at.tzinfo is None:
            raise ProrationError("naive datetime: pass an aware timestamp")
        return at.astimezone(self._tz).date()

    def change_plan(self, anchor: date, old_plan_id: str, new_plan_id: str, at: datetime) -> list[ProrationLine]:
        """Lines for switching from \`old_plan_id\` to \`new_plan_id\` at \`at\`."""
        old = self.price_for(old_plan_id)
        new = self.price_for(new_plan_id)
        day = self.local_day(at)
        period = period_for(anchor, old.interval, day)
        lines = proration_lines(old, new, period, day)
        logger.info(
            "plan change %s -> %s on %s: %s",
            old_plan_id,
            new_plan_id,
            day,
            ", ".join(f"{line.amount}" for line in lines),
        )
        return lines

    def cancel(self, anchor: date, plan_id: str, at: datetime, refund_unused: bool = False) -> list[ProrationLine]:
        """Lines for cancelling at \`at\`; only credits when \`refund_unused\` is set."""
        if not refund_unused:
            return []
        price = self.price_for(plan_id)
        day = self.local_day(at)
        period = period_for(anchor, price.interval, day)
        return [credit_for_unused(price, period, day)]

    def preview(self, anchor: date, changes: Sequence[tuple[str, str, datetime]]) -> dict[str, Decimal]:
        """Net effect of several changes, in order, without persisting anything."""
        lines: list[ProrationLine] = []
        for old_plan_id, new_plan_id, at in changes:
            lines.extend(self.change_plan(anchor, old_plan_id, new_plan_id, at))
        return summarize(merge_lines(lines))
`;
