/**
 * Okapi BM25 over a fixed set of documents, as given by Robertson & Zaragoza, "The Probabilistic Relevance
 * Framework: BM25 and Beyond" (Foundations and Trends in IR 3(4), 2009), §3.4:
 *
 *   score(D, Q) = Σ_{t ∈ Q} idf(t) · tf(t,D)·(k1 + 1) / (tf(t,D) + k1·(1 − b + b·|D|/avgdl))
 *
 * with the non-negative idf(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5)) that Lucene uses (the RSJ weight
 * of the paper goes negative for a term in more than half the documents, which would punish a chunk for
 * matching a common query word). Repeated query terms count once.
 *
 * Written here rather than taken from minisearch 7.2: minisearch scores BM25+ and then
 * multiplies each score by the number of query terms matched — a coordination factor BM25 does not have —
 * and its radix tree, built for prefix and fuzzy search this does not use, made indexing ~3× slower in a
 * measurement on this machine (4.2 MB of log lines in 2,500 chunks: 370 ms against 119 ms for postings
 * lists), with ~10 ms queries on frequent words. Retrieval indexes an original on first search, so
 * indexing time is what a user waits for.
 */

/** BM25 free parameters; the defaults are the customary k1 = 1.2, b = 0.75 (Robertson & Zaragoza §3.4). */
export interface Bm25Params {
  readonly k1?: number;
  readonly b?: number;
}

/** One ranked document: its position in the indexed array and its BM25 score. */
export interface Bm25Hit {
  readonly index: number;
  readonly score: number;
}

const TOKEN_SEPARATOR = /[^\p{L}\p{N}]+/u;

/** Lower-cased runs of letters and digits: `ERR_CONN_RESET at db-7` → err, conn, reset, at, db, 7. */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(TOKEN_SEPARATOR)
    .filter((token) => token.length > 0);
}

/** An inverted index with BM25 ranking. Build once per original; queries are cheap. */
export class Bm25Index {
  readonly documentCount: number;
  readonly #postings: Map<string, number[]>;
  readonly #lengths: Float64Array;
  readonly #averageLength: number;
  readonly #k1: number;
  readonly #b: number;

  private constructor(postings: Map<string, number[]>, lengths: Float64Array, params: Bm25Params) {
    this.#postings = postings;
    this.#lengths = lengths;
    this.documentCount = lengths.length;
    const total = lengths.reduce((sum, length) => sum + length, 0);
    this.#averageLength = this.documentCount > 0 ? total / this.documentCount : 0;
    this.#k1 = params.k1 ?? 1.2;
    this.#b = params.b ?? 0.75;
  }

  /** Indexes `documents` (their order gives each its index). */
  static build(documents: readonly string[], params: Bm25Params = {}): Bm25Index {
    // Postings are flat [document, termFrequency, document, termFrequency, …] arrays: one allocation per
    // term rather than one object per occurrence.
    const postings = new Map<string, number[]>();
    const lengths = new Float64Array(documents.length);
    documents.forEach((document, index) => {
      const frequencies = new Map<string, number>();
      const tokens = tokenize(document);
      for (const token of tokens) frequencies.set(token, (frequencies.get(token) ?? 0) + 1);
      lengths[index] = tokens.length;
      for (const [term, frequency] of frequencies) {
        const list = postings.get(term);
        if (list) list.push(index, frequency);
        else postings.set(term, [index, frequency]);
      }
    });
    return new Bm25Index(postings, lengths, params);
  }

  /** The `k` best documents for `query`, best first (ties: earlier document first); only documents that match. */
  search(query: string, k: number): Bm25Hit[] {
    const scores = new Float64Array(this.documentCount);
    const matched: number[] = [];
    const n = this.documentCount;
    for (const term of new Set(tokenize(query))) {
      const list = this.#postings.get(term);
      if (!list) continue;
      const documentFrequency = list.length / 2;
      const idf = Math.log(1 + (n - documentFrequency + 0.5) / (documentFrequency + 0.5));
      for (let at = 0; at < list.length; at += 2) {
        const document = list[at] as number;
        const tf = list[at + 1] as number;
        const norm = 1 - this.#b + (this.#b * (this.#lengths[document] as number)) / this.#averageLength;
        if (scores[document] === 0) matched.push(document);
        scores[document] =
          (scores[document] as number) + (idf * tf * (this.#k1 + 1)) / (tf + this.#k1 * norm);
      }
    }
    return matched
      .map((index) => ({ index, score: scores[index] as number }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, k);
  }
}
