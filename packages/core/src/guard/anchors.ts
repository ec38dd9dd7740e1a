/**
 * Cross-reference anchors (spec: salience protection, "cross-reference detection"): tokens that the
 * trusted side of the conversation names — the user's request, the system prompt, the agent's own
 * calls — are what the agent navigates by, so a tool-output line that mentions one is load-bearing.
 *
 * Anchors come only from trusted text. A token shared between two untrusted blocks would let one
 * untrusted block change how another compresses, which is the shared budget spec/threat-model.txt
 * rules out; restricting the source keeps per-block independence for everything an attacker writes.
 */

// Words (identifiers split at '-', '.' and '/') and numbers of three or more digits; paths whole.
const ANCHOR_TOKEN = /[A-Za-z_]\w*|\d{3,}/g;
const PATH_TOKEN = /[\w.-]*\/[\w./-]*\w|[\w-]+\.[A-Za-z]\w{0,7}\b/g;
const MIN_ANCHOR_LENGTH = 4;
// Words too common to anchor anything.
const COMMON = new Set(
  'this that with from have what when where which will would should could there their about please file files line lines test tests error errors the and for you your into then than them they run running make sure check look help need want code using used also just like only some more most does done'.split(
    ' ',
  ),
);

/** Collects anchor tokens from trusted texts (user requests, system prompts, the agent's tool calls). */
export function collectAnchors(trustedTexts: Iterable<string>): Set<string> {
  const anchors = new Set<string>();
  for (const text of trustedTexts) {
    for (const pattern of [ANCHOR_TOKEN, PATH_TOKEN]) {
      for (const match of text.matchAll(pattern)) {
        const token = match[0];
        if (token.length < MIN_ANCHOR_LENGTH || COMMON.has(token.toLowerCase())) continue;
        anchors.add(token);
      }
    }
  }
  return anchors;
}

/** Whether a line mentions any anchor token. */
export function mentionsAnchor(line: string, anchors: ReadonlySet<string>): boolean {
  if (anchors.size === 0) return false;
  for (const pattern of [ANCHOR_TOKEN, PATH_TOKEN]) {
    for (const match of line.matchAll(pattern)) if (anchors.has(match[0])) return true;
  }
  return false;
}
