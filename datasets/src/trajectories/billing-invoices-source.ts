/**
 * Part of the Python package the coding trajectory works on: a billing module with two planted bugs (an
 * inclusive day count in a half-open range, rounding to cents whatever the currency) and an invoice
 * module that compensates for the first. The sources are valid Python 3.11 and their tests behave as the
 * trajectory shows (checked by running pytest on them).
 */

/** `src/kestrel_billing/invoices.py` before any fix. */
export const INVOICES_PY = `"""Monthly invoice assembly: recurring lines, usage lines and proration adjustments."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Iterable, Sequence

from kestrel_billing.currency import format_amount
from kestrel_billing.errors import InvoiceError
from kestrel_billing.proration import (
    ZERO,
    Period,
    PlanPrice,
    ProrationLine,
    days_in_period,
    quantize,
)
from kestrel_billing.tax import TaxRule, tax_for

logger = logging.getLogger(__name__)

MAX_LINES = 250
DRAFT_PREFIX = "draft_"


@dataclass(frozen=True)
class UsageRecord:
    """Metered usage reported by a product, already rated."""

    metric: str
    quantity: Decimal
    unit_price: Decimal
    day: date


@dataclass
class InvoiceLine:
    """One line on an invoice."""

    description: str
    amount: Decimal
    plan_id: str | None = None
    days: int | None = None
    kind: str = "recurring"

    def __repr__(self) -> str:
        return f"<InvoiceLine plan={self.plan_id} days={self.days}>"


@dataclass
class Invoice:
    """A draft or finalized invoice for one account and period."""

    invoice_id: str
    account_id: str
    currency: str
    period: Period
    lines: list[InvoiceLine] = field(default_factory=list)
    tax_lines: list[InvoiceLine] = field(default_factory=list)
    finalized: bool = False

    @property
    def subtotal(self) -> Decimal:
        return sum((line.amount for line in self.lines), ZERO)

    @property
    def tax(self) -> Decimal:
        return sum((line.amount for line in self.tax_lines), ZERO)

    @property
    def total(self) -> Decimal:
        return quantize(self.subtotal + self.tax, self.currency)


def recurring_line(price: PlanPrice, period: Period) -> InvoiceLine:
    """The full-period charge for a plan."""
    billable_days = days_in_period(period.start, period.end) - 1
    return InvoiceLine(
        description=f"{price.plan_id} ({period.start.isoformat()} to {period.end.isoformat()})",
        amount=quantize(price.amount, price.currency),
        plan_id=price.plan_id,
        days=billable_days,
    )


def usage_lines(records: Iterable[UsageRecord], period: Period, currency: str) -> list[InvoiceLine]:
    """One line per metric, summing the records that fall inside \`period\`."""
    by_metric: dict[str, Decimal] = {}
    for record in records:
        if not period.contains(record.day):
            logger.debug("usage on %s outside %s..%s skipped", record.day, period.start, period.end)
            continue
        by_metric[record.metric] = by_metric.get(record.metric, ZERO) + record.quantity * record.unit_price
    return [
        InvoiceLine(description=f"Usage: {metric}", amount=quantize(amount, currency), kind="usage")
        for metric, amount in sorted(by_metric.items())
    ]


def proration_to_invoice_lines(lines: Iterable[ProrationLine]) -> list[InvoiceLine]:
    """Proration credits and charges as invoice lines."""
    return [
        InvoiceLine(
            description=line.description,
            amount=line.amount,
            plan_id=line.plan_id,
            days=days_in_period(line.period.start, line.period.end),
            kind="proration",
        )
        for line in lines
    ]


def apply_tax(invoice: Invoice, rules: Sequence[TaxRule]) -> None:
    """Replace the invoice's tax lines with those computed from \`rules\`."""
    invoice.tax_lines = []
    for rule in rules:
        amount = tax_for(invoice.subtotal, rule)
        if amount == ZERO:
            continue
        invoice.tax_lines.append(
            InvoiceLine(description=f"{rule.name} {rule.rate_percent}%", amount=quantize(amount, invoice.currency), kind="tax")
        )


def build_invoice(
    invoice_id: str,
    account_id: str,
    prices: Sequence[PlanPrice],
    period: Period,
    usage: Iterable[UsageRecord] = (),
    prorations: Iterable[ProrationLine] = (),
    tax_rules: Sequence[TaxRule] = (),
) -> Invoice:
    """Assemble a draft invoice for one account."""
    if not prices:
        raise InvoiceError(f"account {account_id} has no active prices")
    currencies = {price.currency for price in prices}
    if len(currencies) != 1:
        raise InvoiceError(f"mixed currencies for {account_id}: {sorted(currencies)}")
    currency = currencies.pop()
    invoice = Invoice(invoice_id=DRAFT_PREFIX + invoice_id, account_id=account_id, currency=currency, period=period)
    invoice.lines.extend(recurring_line(price, period) for price in prices)
    invoice.lines.extend(usage_lines(usage, period, currency))
    invoice.lines.extend(proration_to_invoice_lines(prorations))
    if len(invoice.lines) > MAX_LINES:
        raise InvoiceError(f"invoice {invoice_id} has {len(invoice.lines)} lines (max {MAX_LINES})")
    apply_tax(invoice, tax_rules)
    logger.info("built %s for %s: %s lines, total %s", invoice.invoice_id, account_id, len(invoice.lines), invoice.total)
    return invoice


def finalize(invoice: Invoice) -> Invoice:
    """Mark a draft as final; a finalized invoice never changes again."""
    if invoice.finalized:
        raise InvoiceError(f"{invoice.invoice_id} is already finalized")
    if invoice.total < ZERO:
        raise InvoiceError(f"{invoice.invoice_id} has a negative total {invoice.total}; issue a credit note instead")
    invoice.invoice_id = invoice.invoice_id.removeprefix(DRAFT_PREFIX)
    invoice.finalized = True
    return invoice


def render_text(invoice: Invoice) -> str:
    """A plain-text rendering used in emails and the CLI."""
    rows = [f"Invoice {invoice.invoice_id} for {invoice.account_id}", ""]
    for line in invoice.lines + invoice.tax_lines:
        days = f" [{line.days} days]" if line.days is not None else ""
        rows.append(f"  {line.description}{days}: {format_amount(line.amount, invoice.currency)}")
    rows.append("")
    rows.append(f"  Total: {format_amount(invoice.total, invoice.currency)}")
    return "\\n".join(rows)
`;
