/**
 * Part of the Python package the coding trajectory works on: a billing module with two planted bugs (an
 * inclusive day count in a half-open range, rounding to cents whatever the currency) and an invoice
 * module that compensates for the first. The sources are valid Python 3.11 and their tests behave as the
 * trajectory shows (checked by running pytest on them).
 */

/** `tests/test_proration.py`. */
export const TEST_PRORATION_PY = `from datetime import date, datetime, timezone
from decimal import Decimal

import pytest

from kestrel_billing.errors import ProrationError, UnknownPlanError
from kestrel_billing.proration import (
    Interval,
    Period,
    PlanPrice,
    ProrationCalculator,
    add_months,
    days_in_period,
    period_for,
    prorate_amount,
    proration_lines,
    summarize,
)

BASIC = PlanPrice("basic-monthly", Decimal("30.00"), "EUR")
PRO = PlanPrice("pro-monthly", Decimal("90.00"), "EUR")
PRO_JPY = PlanPrice("pro-monthly-jpy", Decimal("12000"), "JPY")
APRIL = Period(date(2024, 4, 1), date(2024, 5, 1))
MAY = Period(date(2024, 5, 1), date(2024, 6, 1))


def test_days_in_period_february_leap_year():
    assert days_in_period(date(2024, 2, 1), date(2024, 3, 1)) == 29


def test_days_in_period_is_half_open():
    assert days_in_period(date(2024, 4, 10), date(2024, 4, 11)) == 1


def test_days_in_period_rejects_reversed_range():
    with pytest.raises(ProrationError):
        days_in_period(date(2024, 4, 11), date(2024, 4, 10))


def test_add_months_clamps_to_month_end():
    assert add_months(date(2024, 1, 31), 1) == date(2024, 2, 29)
    assert add_months(date(2023, 1, 31), 1) == date(2023, 2, 28)
    assert add_months(date(2024, 11, 30), 3) == date(2025, 2, 28)


def test_period_for_finds_containing_period():
    period = period_for(date(2024, 1, 15), Interval.MONTH, date(2024, 3, 20))
    assert period == Period(date(2024, 3, 15), date(2024, 4, 15))


def test_prorate_mid_month():
    amount = prorate_amount(PRO, APRIL, date(2024, 4, 16), date(2024, 5, 1))
    assert amount == Decimal("45.00")


def test_prorate_jpy_rounds_to_whole_yen():
    amount = prorate_amount(PRO_JPY, MAY, date(2024, 5, 22), date(2024, 6, 1))
    assert amount == Decimal("3871")


def test_prorate_outside_period_is_zero():
    assert prorate_amount(PRO, APRIL, date(2024, 5, 3), date(2024, 5, 9)) == Decimal("0")


def test_upgrade_lines():
    lines = proration_lines(BASIC, PRO, APRIL, date(2024, 4, 16))
    assert [line.amount for line in lines] == [Decimal("-15.00"), Decimal("45.00")]
    assert summarize(lines)["net"] == Decimal("30.00")


def test_change_on_period_start_only_charges():
    lines = proration_lines(BASIC, PRO, APRIL, date(2024, 4, 1))
    assert len(lines) == 1
    assert lines[0].amount == Decimal("90.00")


def test_change_outside_period_raises():
    with pytest.raises(ProrationError, match="outside"):
        proration_lines(BASIC, PRO, APRIL, date(2024, 5, 2))


def test_calculator_uses_account_timezone():
    calc = ProrationCalculator([BASIC, PRO], tz_offset_minutes=-300)
    at = datetime(2024, 4, 16, 3, 30, tzinfo=timezone.utc)
    lines = calc.change_plan(date(2024, 1, 1), "basic-monthly", "pro-monthly", at)
    assert lines[0].period.start == date(2024, 4, 15)


def test_calculator_unknown_plan():
    calc = ProrationCalculator([BASIC])
    with pytest.raises(UnknownPlanError):
        calc.price_for("enterprise-yearly")


def test_calculator_rejects_naive_datetime():
    calc = ProrationCalculator([BASIC, PRO])
    with pytest.raises(ProrationError, match="naive"):
        calc.local_day(datetime(2024, 4, 16, 12, 0))


def test_cancel_without_refund_is_empty():
    calc = ProrationCalculator([BASIC])
    assert calc.cancel(date(2024, 1, 1), "basic-monthly", datetime(2024, 4, 9, tzinfo=timezone.utc)) == []
`;

/** `tests/test_invoices.py`. */
export const TEST_INVOICES_PY = `from datetime import date
from decimal import Decimal

from kestrel_billing.invoices import build_invoice, finalize, recurring_line
from kestrel_billing.proration import Period, PlanPrice
from kestrel_billing.tax import TaxRule

PRO = PlanPrice("pro-monthly", Decimal("90.00"), "EUR")
APRIL = Period(date(2024, 4, 1), date(2024, 5, 1))


def test_monthly_invoice_line_days():
    line = recurring_line(PRO, APRIL)
    assert line.days == 30


def test_invoice_total_with_vat():
    invoice = build_invoice("inv_1042", "acct_77", [PRO], APRIL, tax_rules=[TaxRule("VAT", Decimal("21"))])
    assert invoice.total == Decimal("108.90")


def test_finalize_strips_draft_prefix():
    invoice = finalize(build_invoice("inv_1043", "acct_77", [PRO], APRIL))
    assert invoice.invoice_id == "inv_1043"
`;
