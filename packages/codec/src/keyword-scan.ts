/**
 * Which families of keywords a line contains, found in one pass over its characters: an Aho–Corasick
 * automaton (Aho & Corasick, "Efficient string matching", CACM 1975) compiled to a dense table, case
 * folded, so every character costs two table lookups whatever the number of keywords.
 *
 * Why our own: the line signals are case-insensitive alternations of dozens of words, and irregexp tries
 * every alternative at every position of every line (100–250 ns a line each, measured on CI logs). Most
 * lines hold none of the words. One scan that says which families can match lets the exact patterns run
 * only on the lines that may match; the published Aho–Corasick packages build an object per match to report
 * positions, which is more than a gate needs.
 *
 * A family's bit is set exactly when one of its keywords occurs in the text with ASCII letters compared
 * case-insensitively, which is how a regular expression with the `i` flag (and no `u` flag) compares them:
 * no character outside ASCII folds to one inside it. A gate built on a family is therefore sound when
 * every match of the pattern it guards contains one of the family's keywords.
 */

/** Set in a scan's result when the text holds any character outside ASCII (which no keyword contains). */
export const NON_ASCII = 1 << 30;

/** The most keyword families one scanner tells apart (bits 0–29; bit 30 is {@link NON_ASCII}). */
export const MAX_FAMILIES = 30;

const ASCII = 128;

/** The tables of a compiled {@link KeywordScanner} (see {@link KeywordScanner.automaton}). */
export interface KeywordAutomaton {
  readonly classOf: Uint8Array;
  readonly delta: Int32Array;
  readonly found: Int32Array;
}

/** A compiled set of keyword families; {@link KeywordScanner.scan} returns a bit per family found. */
export class KeywordScanner {
  /** The character class of each ASCII code: 0 for a character no keyword holds, upper case as lower. */
  private readonly classOf: Uint8Array;
  /**
   * The automaton: `delta[state + classOf[code]]` is the next state. States are stored as their row's
   * offset (state number × number of classes), which saves a multiplication per character.
   */
  private readonly delta: Int32Array;
  /** At a state's offset: the families whose keyword ends there (its suffixes' included). */
  private readonly found: Int32Array;

  /** `families[k]` lists the keywords of family k (bit `1 << k`): non-empty ASCII strings, any case. */
  constructor(families: readonly (readonly string[])[]) {
    if (families.length > MAX_FAMILIES) throw new RangeError(`at most ${MAX_FAMILIES} keyword families`);
    const words = families.map((list) =>
      list.map((word) => {
        if (!/^[\x00-\x7f]+$/.test(word))
          throw new RangeError(`keyword ${JSON.stringify(word)}: must be non-empty ASCII`);
        return word.toLowerCase();
      }),
    );
    this.classOf = new Uint8Array(ASCII);
    let classes = 1;
    for (const word of words.flat()) {
      for (let i = 0; i < word.length; i++) {
        const code = word.charCodeAt(i);
        if (this.classOf[code] !== 0) continue;
        this.classOf[code] = classes;
        if (code >= 97 && code <= 122) this.classOf[code - 32] = classes;
        classes++;
      }
    }
    // the trie, over classes
    const children: Int32Array[] = [new Int32Array(classes).fill(-1)];
    const ends: number[] = [0];
    words.forEach((list, k) => {
      for (const word of list) {
        let state = 0;
        for (let i = 0; i < word.length; i++) {
          const cls = this.classOf[word.charCodeAt(i)]!;
          let next = children[state]![cls]!;
          if (next < 0) {
            next = children.length;
            children.push(new Int32Array(classes).fill(-1));
            ends.push(0);
            children[state]![cls] = next;
          }
          state = next;
        }
        ends[state]! |= 1 << k;
      }
    });
    const states = children.length;
    this.delta = new Int32Array(states * classes);
    this.found = new Int32Array(states * classes);
    const fail = new Int32Array(states);
    // breadth first: a state's failure state is shallower, so its row is complete before it is read
    const queue: number[] = [0];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      this.found[state * classes] = ends[state]! | (state === 0 ? 0 : this.found[fail[state]! * classes]!);
      for (let cls = 0; cls < classes; cls++) {
        const child = cls === 0 ? -1 : children[state]![cls]!;
        const viaFail = state === 0 ? 0 : this.delta[fail[state]! * classes + cls]! / classes;
        if (child < 0) {
          this.delta[state * classes + cls] = viaFail * classes;
        } else {
          this.delta[state * classes + cls] = child * classes;
          fail[child] = viaFail;
          queue.push(child);
        }
      }
    }
  }

  /**
   * The compiled tables, for a caller that folds the scan into a character loop of its own: from state 0,
   * each ASCII character moves to `delta[state + classOf[code]]` and adds `found[state]` to the result; any
   * other character goes back to state 0 and adds {@link NON_ASCII}.
   */
  get automaton(): KeywordAutomaton {
    return { classOf: this.classOf, delta: this.delta, found: this.found };
  }

  /** The families (bit `1 << k` for family k) with a keyword in `text`, plus {@link NON_ASCII}. */
  scan(text: string): number {
    const { classOf, delta, found } = this;
    let state = 0;
    let mask = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < ASCII) {
        state = delta[state + classOf[code]!]!;
        mask |= found[state]!;
      } else {
        state = 0;
        mask |= NON_ASCII;
      }
    }
    return mask;
  }
}
