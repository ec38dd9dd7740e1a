import type { Rng } from '../prng.js';
import { INVOICES_PY } from './billing-invoices-source.js';
import { PRORATION_PY } from './billing-proration-source.js';
import { TEST_INVOICES_PY, TEST_PRORATION_PY } from './billing-tests-source.js';
import type { TrajectoryBuilder } from './catalog.js';
import { type FailureSpec, pytestReport, type TestFile } from './pytest-report.js';
import { TurnLog } from './turn-log.js';

/**
 * A coding loop over a real (small) Python package: run the tests, read the module, read the tests,
 * edit one line, re-read the module, run the tests again, and so on until the whole suite passes — 16
 * turns. Every `read_file` result is the file's exact current content, so a re-read is a byte-identical
 * or one-line-different copy of an earlier block: what cross-turn dedup and cache-delta are measured on.
 */

const PRORATION = 'src/kestrel_billing/proration.py';
const INVOICES = 'src/kestrel_billing/invoices.py';
const TESTS_PRORATION = 'tests/test_proration.py';
const TESTS_INVOICES = 'tests/test_invoices.py';

const SYSTEM = `You are a coding agent working in the repository kestrel-billing (Python 3.11, pytest).

Tools:
- bash(command): run a shell command in the repository root and return its output.
- read_file(path): return the full content of a file.
- edit_file(path, old_str, new_str): replace the one occurrence of old_str in the file with new_str.

Work in small steps: read before you edit, re-read after you edit, and run the tests after every change.
Do not change tests unless they are wrong. Finish with a short summary of what you changed and why.`;

const FIX_DAYS = { old: '    return (end - start).days + 1', new: '    return (end - start).days' };
const FIX_QUANTIZE = {
  old: '    return amount.quantize(CENT, rounding=ROUND_HALF_UP)',
  new: '    return amount.quantize(exponent, rounding=ROUND_HALF_UP)',
};
const FIX_INVOICE = {
  old: '    billable_days = days_in_period(period.start, period.end) - 1',
  new: '    billable_days = days_in_period(period.start, period.end)',
};

function replaceOnce(text: string, oldStr: string, newStr: string): string {
  const at = text.indexOf(oldStr);
  if (at < 0 || text.indexOf(oldStr, at + 1) >= 0)
    throw new Error(`edit target must occur exactly once: ${oldStr}`);
  return text.slice(0, at) + newStr + text.slice(at + oldStr.length);
}

/** The editor's confirmation, with a `cat -n` snippet around the change as SWE-agent style tools print. */
function editResult(path: string, text: string, newStr: string): string {
  const lines = text.split('\n');
  const at = lines.indexOf(newStr.split('\n')[0]!);
  const from = Math.max(0, at - 4);
  const to = Math.min(lines.length, at + 5);
  const snippet = lines.slice(from, to).map((l, i) => `${String(from + i + 1).padStart(6)}\t${l}`);
  return [
    `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:`,
    ...snippet,
    'Review the changes and make sure they are as expected. Edit the file again if necessary.',
  ].join('\n');
}

function grepLines(pattern: string, files: readonly [string, string][]): string {
  const out: string[] = [];
  for (const [path, text] of files) {
    text.split('\n').forEach((line, i) => {
      if (line.includes(pattern)) out.push(`${path}:${i + 1}:${line}`);
    });
  }
  return out.join('\n');
}

const DAYS_FEB: FailureSpec = {
  file: TESTS_PRORATION,
  test: 'test_days_in_period_february_leap_year',
  line: 'assert days_in_period(date(2024, 2, 1), date(2024, 3, 1)) == 29',
  e: [
    'assert 30 == 29',
    ' +  where 30 = days_in_period(datetime.date(2024, 2, 1), datetime.date(2024, 3, 1))',
    ' +    where datetime.date(2024, 2, 1) = date(2024, 2, 1)',
    ' +    and   datetime.date(2024, 3, 1) = date(2024, 3, 1)',
  ],
  summary: 'assert 30 == 29',
};
const DAYS_HALF_OPEN: FailureSpec = {
  file: TESTS_PRORATION,
  test: 'test_days_in_period_is_half_open',
  line: 'assert days_in_period(date(2024, 4, 10), date(2024, 4, 11)) == 1',
  e: [
    'assert 2 == 1',
    ' +  where 2 = days_in_period(datetime.date(2024, 4, 10), datetime.date(2024, 4, 11))',
    ' +    where datetime.date(2024, 4, 10) = date(2024, 4, 10)',
    ' +    and   datetime.date(2024, 4, 11) = date(2024, 4, 11)',
  ],
  summary: 'assert 2 == 1',
};
const MID_MONTH: FailureSpec = {
  file: TESTS_PRORATION,
  test: 'test_prorate_mid_month',
  line: 'assert amount == Decimal("45.00")',
  e: [
    "AssertionError: assert Decimal('46.45') == Decimal('45.00')",
    " +  where Decimal('45.00') = Decimal('45.00')",
  ],
  summary: "AssertionError: assert Decimal('46.45') == Decimal('45.00')",
};
const JPY_BEFORE: FailureSpec = {
  file: TESTS_PRORATION,
  test: 'test_prorate_jpy_rounds_to_whole_yen',
  line: 'assert amount == Decimal("3871")',
  e: [
    "AssertionError: assert Decimal('4125.00') == Decimal('3871')",
    " +  where Decimal('3871') = Decimal('3871')",
  ],
  summary: "AssertionError: assert Decimal('4125.00') == Decimal('3871')",
};
const JPY_AFTER: FailureSpec = {
  ...JPY_BEFORE,
  e: [
    "AssertionError: assert Decimal('3870.97') == Decimal('3871')",
    " +  where Decimal('3871') = Decimal('3871')",
  ],
  summary: "AssertionError: assert Decimal('3870.97') == Decimal('3871')",
};
const UPGRADE: FailureSpec = {
  file: TESTS_PRORATION,
  test: 'test_upgrade_lines',
  line: 'assert [line.amount for line in lines] == [Decimal("-15.00"), Decimal("45.00")]',
  e: [
    "AssertionError: assert [Decimal('-15...imal('46.45')] == [Decimal('-15...imal('45.00')]",
    '  ',
    "  At index 0 diff: Decimal('-15.48') != Decimal('-15.00')",
    '  Use -v to get more diff',
  ],
  summary: "AssertionError: assert [Decimal('-15...imal('46.45')] == [Decimal('-15...imal('45.00')]",
};
const INVOICE_DAYS: FailureSpec = {
  file: TESTS_INVOICES,
  test: 'test_monthly_invoice_line_days',
  line: 'assert line.days == 30',
  e: ['assert 29 == 30', ' +  where 29 = <InvoiceLine plan=pro-monthly days=29>.days'],
  summary: 'assert 29 == 30',
};

function build(rng: Rng): ReturnType<TrajectoryBuilder['build']> {
  const proration0 = PRORATION_PY;
  const proration1 = replaceOnce(proration0, FIX_DAYS.old, FIX_DAYS.new);
  const proration2 = replaceOnce(proration1, FIX_QUANTIZE.old, FIX_QUANTIZE.new);
  const invoices0 = INVOICES_PY;
  const invoices1 = replaceOnce(invoices0, FIX_INVOICE.old, FIX_INVOICE.new);
  const prorationTests: TestFile = { path: TESTS_PRORATION, source: TEST_PRORATION_PY };
  const allTests: TestFile[] = [{ path: TESTS_INVOICES, source: TEST_INVOICES_PY }, prorationTests];
  const secs = (): number => rng.float(0.9, 2.4);
  const header = [
    'platform linux -- Python 3.11.9, pytest-8.2.2, pluggy-1.5.0',
    'rootdir: /workspace/kestrel-billing',
    'configfile: pyproject.toml',
    'plugins: cov-5.0.0',
  ];
  const grepCmd = 'grep -rn "days_in_period" src tests';
  const log = new TurnLog();
  log
    .system(SYSTEM)
    .user(
      'task',
      `Since we switched to half-open billing periods, tests/test_proration.py fails. Fix kestrel_billing.proration so the whole suite passes again (JPY amounts must come out in whole yen).`,
    )
    .call('bash', { command: `pytest ${TESTS_PRORATION}` });
  log
    .tool(
      'obs-0',
      'bash',
      'tool_output',
      pytestReport(
        [prorationTests],
        [DAYS_FEB, DAYS_HALF_OPEN, MID_MONTH, JPY_BEFORE, UPGRADE],
        secs(),
        header,
      ),
    )
    .call('read_file', { path: PRORATION });
  log
    .note(
      'note-1',
      'days_in_period(2024-02-01, 2024-03-01) returns 30 instead of 29, and the prorated amounts are too high. Reading the module.',
    )
    .tool('obs-1', 'read_file', 'source', proration0)
    .call('read_file', { path: TESTS_PRORATION });
  log
    .tool('obs-2', 'read_file', 'source', TEST_PRORATION_PY)
    .call('edit_file', { path: PRORATION, old_str: FIX_DAYS.old, new_str: FIX_DAYS.new });
  log
    .note('note-3', 'days_in_period documents a half-open range [start, end) but adds 1. Removing the + 1.')
    .tool('obs-3', 'edit_file', 'tool_output', editResult(PRORATION, proration1, FIX_DAYS.new))
    .call('read_file', { path: PRORATION });
  log
    .tool('obs-4', 'read_file', 'source', proration1)
    .call('bash', { command: `pytest -q ${TESTS_PRORATION}` });
  log
    .tool('obs-5', 'bash', 'tool_output', pytestReport([prorationTests], [JPY_AFTER], secs(), null))
    .call('read_file', { path: PRORATION });
  log
    .note(
      'note-6',
      "Only test_prorate_jpy_rounds_to_whole_yen is left: Decimal('3870.97') instead of Decimal('3871'). quantize() computes the currency exponent but rounds to CENT.",
    )
    .tool('obs-6', 'read_file', 'source', proration1)
    .call('edit_file', { path: PRORATION, old_str: FIX_QUANTIZE.old, new_str: FIX_QUANTIZE.new });
  log
    .tool('obs-7', 'edit_file', 'tool_output', editResult(PRORATION, proration2, FIX_QUANTIZE.new))
    .call('read_file', { path: PRORATION });
  log.tool('obs-8', 'read_file', 'source', proration2).call('bash', { command: 'pytest -q' });
  log
    .tool('obs-9', 'bash', 'tool_output', pytestReport(allTests, [INVOICE_DAYS], secs(), null))
    .call('bash', { command: grepCmd });
  log
    .note(
      'note-10',
      'test_monthly_invoice_line_days now gets 29 days for April. Something else compensated for the old inclusive count; finding the callers of days_in_period.',
    )
    .tool(
      'obs-10',
      'bash',
      'tool_output',
      grepLines('days_in_period', [
        [INVOICES, invoices0],
        [PRORATION, proration2],
        [TESTS_PRORATION, TEST_PRORATION_PY],
      ]),
    )
    .call('read_file', { path: INVOICES });
  log
    .tool('obs-11', 'read_file', 'source', invoices0)
    .call('edit_file', { path: INVOICES, old_str: FIX_INVOICE.old, new_str: FIX_INVOICE.new });
  log
    .note(
      'note-12',
      'recurring_line() subtracts 1 from days_in_period() to undo the old inclusive count; with the fix that undercounts by a day.',
    )
    .tool('obs-12', 'edit_file', 'tool_output', editResult(INVOICES, invoices1, FIX_INVOICE.new))
    .call('read_file', { path: INVOICES });
  log.tool('obs-13', 'read_file', 'source', invoices1).call('bash', { command: 'pytest -q' });
  log
    .tool('obs-14', 'bash', 'tool_output', pytestReport(allTests, [], secs(), null))
    .final(
      `All 18 tests pass. Changes: (1) ${PRORATION}: days_in_period() now returns (end - start).days for the half-open range instead of adding 1; (2) quantize() rounds to the currency's exponent instead of CENT, so JPY comes out in whole yen (3871); (3) ${INVOICES}: recurring_line() no longer subtracts 1 from days_in_period(), which only compensated for the old inclusive count.`,
    );
  return log.finish('coding-read-edit-reread', 'datasets/generate.ts', 'pass');
}

/** The read → edit → re-read coding loop. */
export const codingReadEditReread: TrajectoryBuilder = { id: 'coding-read-edit-reread', build };
