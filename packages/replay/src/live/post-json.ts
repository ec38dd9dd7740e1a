import { request } from 'undici';

/** Status codes worth another try: rate limits, overload (Anthropic's 529) and transient gateway errors. */
const RETRYABLE = new Set([408, 409, 429, 500, 502, 503, 504, 529]);

/** Options of {@link postJson}. */
export interface PostOptions {
  /** Attempts in all (default 4). */
  readonly attempts?: number;
  /** First backoff in milliseconds, doubled each retry, when the server names no retry-after (default 1000). */
  readonly backoffMs?: number;
  /** What the errors call the upstream, e.g. `anthropic`. */
  readonly label: string;
}

/** An upstream answered with an error status that retries did not cure. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * POSTs a JSON body and returns the parsed JSON answer, retrying rate limits and transient errors with the
 * server's `retry-after` (seconds) or exponential backoff. Error messages carry the status and the
 * provider's error text, never the request headers (they hold the API key).
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  options: PostOptions,
): Promise<unknown> {
  const attempts = options.attempts ?? 4;
  let backoff = options.backoffMs ?? 1000;
  for (let attempt = 1; ; attempt++) {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.body.text();
    if (response.statusCode >= 200 && response.statusCode < 300) {
      try {
        return JSON.parse(text);
      } catch {
        throw new UpstreamError(
          `${options.label}: the answer is not JSON: ${text.slice(0, 200)}`,
          response.statusCode,
        );
      }
    }
    if (!RETRYABLE.has(response.statusCode) || attempt >= attempts) {
      throw new UpstreamError(
        `${options.label}: HTTP ${response.statusCode}: ${errorText(text)}`,
        response.statusCode,
      );
    }
    const retryAfter = Number(response.headers['retry-after']);
    await sleep(Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : backoff);
    backoff *= 2;
  }
}

/** The provider's error message when the body has one (`{error: {message}}` in both APIs). */
function errorText(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
  } catch {
    // not JSON: show the start of the body
  }
  return text.slice(0, 200);
}
