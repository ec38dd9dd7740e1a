import type { Rng } from './prng.js';

/**
 * Word lists and the small grammar that composes them into identifiers, project names, commit subjects and
 * people. Composition (verb × noun × qualifier) rather than fixed strings is what keeps thousands of
 * generated lines from repeating.
 */

/** Splits a whitespace-separated word list into a frozen array (keeps long vocabularies compact). */
export function words(list: string): readonly string[] {
  return Object.freeze(list.trim().split(/\s+/));
}

export const VERBS = words(`
  parse load resolve compute validate normalize fetch build merge flush encode decode render apply
  collect schedule retry emit sync index reconcile split format serialize hydrate evict refresh
  migrate dispatch aggregate sanitize compact expand register lookup partition throttle verify
`);

export const NOUNS = words(`
  config invoice token schedule ledger session batch cursor manifest payload header record
  snapshot tenant quota window bucket order account policy shard route event metric span chunk
  segment entry job lease checkpoint report profile user webhook receipt currency address timezone
  feature flag plan subscription refund upload thumbnail cache index query filter page
`);

export const QUALIFIERS = words(`
  pending active stale raw merged partial default remote local cached legacy next last max min
  total expired dirty shared primary
`);

export const ADJECTIVES = words(`
  amber brisk cobalt dusky ember frosty gilded hollow iron jade keen lunar misty noble opal
  prairie quiet rapid silver tidal umber velvet
`);

export const PROJECT_STEMS = words(`
  ledger billing atlas orbit quill harbor pulse meridian sable tandem vantage lumen ferry cinder
  kestrel juniper basalt beacon cascade drift ember fathom granite helix inkwell jetty lattice
  mosaic nimbus prism
`);

export const PROJECT_SUFFIXES = words(`
  api service worker gateway core sdk cli web sync indexer scheduler store bridge relay engine hub
  agent console pipeline ingest
`);

export const ORGS = words(`
  acme northwind globex initech umbrella-labs hooli vandelay stark-ind wayfare tessellate bluefin
  copperleaf driftwood-io openmeadow parcelkit quantum-sheep
`);

const FIRST_NAMES = words(`
  Ana Bjorn Chen Dana Elif Farid Greta Hiro Ines Jonas Kemi Lars Mei Nikolai Oksana Priya Quentin
  Rosa Sanjay Tomasz Uma Viktor Wren Ximena Yusuf Zofia Mateo Amara Kenji Leila
`);

const LAST_NAMES = words(`
  Okafor Lindqvist Wei Moreau Yilmaz Haddad Novak Tanaka Ferreira Becker Adeyemi Nilsson Zhang
  Petrov Kowalski Iyer Dubois Santos Kapoor Nowak Ruiz Svensson Murphy Abbasi Costa Fischer Kim
  Rossi Mensah Horvat
`);

/** `snake_case` joined words. */
export function snake(words: readonly string[]): string {
  return words.join('_');
}

/** `camelCase` joined words. */
export function camel(words: readonly string[]): string {
  return words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
}

/** `PascalCase` joined words. */
export function pascal(words: readonly string[]): string {
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** `kebab-case` joined words. */
export function kebab(words: readonly string[]): string {
  return words.join('-');
}

/** Words for a function name: verb, sometimes a qualifier, a noun. */
export function functionWords(rng: Rng): string[] {
  const words: string[] = [rng.pick(VERBS)];
  if (rng.chance(0.3)) words.push(rng.pick(QUALIFIERS));
  words.push(rng.pick(NOUNS));
  if (rng.chance(0.15)) words.push(rng.pick(['by', 'for', 'from', 'to', 'with']), rng.pick(NOUNS));
  return words;
}

/** Words for a type or class name: a noun with an optional qualifier and role. */
export function typeWords(rng: Rng): string[] {
  const words: string[] = [];
  if (rng.chance(0.3)) words.push(rng.pick(QUALIFIERS));
  words.push(rng.pick(NOUNS));
  if (rng.chance(0.55)) {
    words.push(
      rng.pick(['service', 'store', 'client', 'builder', 'parser', 'resolver', 'cache', 'queue', 'error']),
    );
  }
  return words;
}

/** A project name such as `kestrel-gateway`. */
export function projectName(rng: Rng): string {
  return `${rng.pick(PROJECT_STEMS)}-${rng.pick(PROJECT_SUFFIXES)}`;
}

/** A person with a name and a plausible email. */
export interface Person {
  readonly name: string;
  readonly email: string;
}

/** A person; `domain` defaults to a mail host chosen per person. */
export function person(rng: Rng, domain?: string): Person {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const host = domain ?? rng.pick(['gmail.com', 'users.noreply.github.com', 'proton.me', 'fastmail.com']);
  const local = rng.pick([
    `${first}.${last}`.toLowerCase(),
    `${first[0]}${last}`.toLowerCase(),
    `${first}${rng.int(1, 99)}`.toLowerCase(),
  ]);
  const email =
    host === 'users.noreply.github.com'
      ? `${rng.int(1_000_000, 98_000_000)}+${local}@${host}`
      : `${local}@${host}`;
  return { name: `${first} ${last}`, email };
}

const COMMIT_VERBS = words(`
  fix add remove handle support refactor rename bump drop guard
`);
const COMMIT_TYPES = words(`
  fix feat chore refactor test docs perf ci build
`);

/** A commit subject in one of the styles real repositories mix: conventional, imperative, ticket-prefixed. */
export function commitSubject(rng: Rng, scope?: string): string {
  const noun = rng.pick(NOUNS);
  const qual = rng.pick(QUALIFIERS);
  const phrase = rng.pick([
    `${rng.pick(COMMIT_VERBS)} ${qual} ${noun} handling`,
    `${rng.pick(COMMIT_VERBS)} ${noun} ${rng.pick(['validation', 'retries', 'timeouts', 'parsing', 'encoding'])}`,
    `${rng.pick(VERBS)} ${plural(noun)} before ${gerund(rng.pick(VERBS))} ${plural(rng.pick(NOUNS))}`,
    `avoid ${rng.pick(['double', 'stale', 'empty', 'negative', 'duplicate'])} ${noun} on ${rng.pick(VERBS)}`,
    `make ${camel([rng.pick(VERBS), rng.pick(NOUNS)])} ${rng.pick(['idempotent', 'async', 'lazy', 'thread-safe', 'cancellable'])}`,
  ]);
  const style = rng.int(0, 4);
  if (style === 0) return `${rng.pick(COMMIT_TYPES)}${scope ? `(${scope})` : ''}: ${phrase}`;
  if (style === 1) return `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}`;
  if (style === 2)
    return `[${rng.pick(['CORE', 'PAY', 'OPS', 'API', 'INFRA'])}-${rng.int(100, 4999)}] ${phrase}`;
  if (style === 3) return `${phrase} (#${rng.int(100, 9999)})`;
  return `${rng.pick(COMMIT_TYPES)}: ${phrase}`;
}

const DOUBLED = new Set(['split', 'emit', 'get', 'set', 'run', 'put', 'stop', 'plan', 'ship']);

/** The -ing form of a verb: parse → parsing, split → splitting, retry → retrying. */
export function gerund(verb: string): string {
  if (DOUBLED.has(verb)) return `${verb}${verb.slice(-1)}ing`;
  if (verb.endsWith('e') && !verb.endsWith('ee')) return `${verb.slice(0, -1)}ing`;
  return `${verb}ing`;
}

/** The plural of a noun: invoice → invoices, policy → policies, index → indexes. */
export function plural(noun: string): string {
  if (/(s|x|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

/** The third-person form of a verb: parse → parses, flush → flushes, apply → applies. */
export function thirdPerson(verb: string): string {
  return plural(verb);
}

/** A short lowercase sentence for log messages and descriptions. */
export function phrase(rng: Rng): string {
  return rng.pick([
    `${gerund(rng.pick(VERBS))} ${rng.pick(QUALIFIERS)} ${plural(rng.pick(NOUNS))}`,
    `${rng.pick(NOUNS)} ${rng.pick(['updated', 'created', 'skipped', 'queued', 'evicted', 'loaded'])}`,
    `${rng.pick(VERBS)} ${rng.pick(NOUNS)} for ${rng.pick(NOUNS)}`,
    `${rng.pick(['no', 'new', 'stale', 'missing'])} ${rng.pick(NOUNS)} ${rng.pick(['found', 'detected', 'in queue'])}`,
  ]);
}
