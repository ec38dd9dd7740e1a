/**
 * o200k_base's pre-tokenizer: text is cut into pieces with this pattern before byte-pair merging, and no
 * token crosses a piece. Copied as data from gpt-tokenizer 4.0.0 (`src/encodingParams/constants.ts`,
 * `O200K_TOKEN_SPLIT_PATTERN` with its contraction suffix spelled out), which transcribes tiktoken's
 * `o200k_base` pattern to JavaScript. It is the pattern, not an import, because the counter here must not
 * load the library's tables; the property test against gpt-tokenizer keeps the two the same.
 */
const CONTRACTION = "(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?";

export const O200K_SPLIT_PATTERN = [
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}`,
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}`,
  String.raw`\p{N}{1,3}`,
  String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
  String.raw`\s*[\r\n]+`,
  String.raw`\s+(?!\S)`,
  String.raw`\s+`,
].join('|');
