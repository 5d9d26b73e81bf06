/**
 * Word-prefix search over item names.
 *
 * Name words: the name is split on whitespace; each chunk contributes itself lowercased with
 * surrounding punctuation trimmed (`(field-tested)` → `field-tested`, `stattrak™` → `stattrak`)
 * and its alphanumeric parts (`ak-47` → `ak`, `47`); a chunk holding `★` also contributes `★`.
 * A query word is trimmed the same way and matches when it is a prefix of some name word; every
 * query word must match. Query words that are only punctuation (`|`, `™`) are ignored.
 *
 * Index: the distinct words sorted, each with an ascending posting list of item positions.
 * A query word's matches are a contiguous range of the sorted words (binary search); the word
 * with the fewest postings seeds the candidates; each candidate is then checked for a word id
 * inside every other query word's range.
 */

const STAR = '★';
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const NON_ALNUM = /[^\p{L}\p{N}]+/u;
const SIMPLE_WORD = /^[a-z0-9]+$/;

export function nameWords(name: string): string[] {
  const words = new Set<string>();
  for (const chunk of name.toLowerCase().split(/\s+/)) {
    if (SIMPLE_WORD.test(chunk)) {
      words.add(chunk);
      continue;
    }
    if (chunk.includes(STAR)) words.add(STAR);
    const trimmed = chunk.replace(EDGE_PUNCTUATION, '');
    if (trimmed !== '') words.add(trimmed);
    for (const part of trimmed.split(NON_ALNUM)) if (part !== '') words.add(part);
  }
  return [...words];
}

export function queryWords(query: string): string[] {
  const words: string[] = [];
  for (const chunk of query.toLowerCase().split(/\s+/)) {
    const trimmed = chunk.replace(EDGE_PUNCTUATION, '');
    const word = trimmed !== '' ? trimmed : chunk.includes(STAR) ? STAR : '';
    if (word !== '' && !words.includes(word)) words.push(word);
  }
  return words;
}

interface WordRange {
  from: number;
  to: number;
  postings: number;
}

export class SearchIndex {
  private readonly words: string[];
  private readonly postings: Int32Array[];
  /** Per item, the positions of its words in `words`. */
  private readonly itemWords: Int32Array[];
  private readonly marks: Uint32Array;
  private generation = 0;

  constructor(names: readonly string[]) {
    const wordsPerItem = names.map(nameWords);
    const lists = new Map<string, number[]>();
    wordsPerItem.forEach((words, position) => {
      for (const word of words) {
        const list = lists.get(word);
        if (list) list.push(position);
        else lists.set(word, [position]);
      }
    });
    this.words = [...lists.keys()].sort();
    this.postings = this.words.map((word) => Int32Array.from(lists.get(word) ?? []));
    const wordPosition = new Map(this.words.map((word, index) => [word, index]));
    this.itemWords = wordsPerItem.map((words) =>
      Int32Array.from(words, (word) => wordPosition.get(word) ?? -1),
    );
    this.marks = new Uint32Array(names.length);
  }

  /** Positions of matching items, ascending. An empty query matches everything. */
  search(query: string): number[] {
    const words = queryWords(query);
    if (words.length === 0) return Array.from(this.itemWords, (_, position) => position);
    const ranges = words.map((word) => this.range(word));
    ranges.sort((a, b) => a.postings - b.postings);
    const [seed, ...rest] = ranges;
    if (!seed || seed.postings === 0) return [];
    const candidates = this.union(seed);
    if (rest.length === 0) return candidates;
    return candidates.filter((position) => rest.every((range) => this.hasPrefix(position, range)));
  }

  private range(word: string): WordRange {
    const from = lowerBound(this.words, word);
    let to = from;
    let postings = 0;
    while (to < this.words.length && (this.words[to] as string).startsWith(word)) {
      postings += (this.postings[to] as Int32Array).length;
      to += 1;
    }
    return { from, to, postings };
  }

  private union(range: WordRange): number[] {
    if (range.to - range.from === 1) return Array.from(this.postings[range.from] as Int32Array);
    this.generation = (this.generation + 1) >>> 0 || 1;
    if (this.generation === 1) this.marks.fill(0);
    const stamp = this.generation;
    let lowest = this.marks.length;
    let highest = -1;
    for (let index = range.from; index < range.to; index += 1) {
      for (const position of this.postings[index] as Int32Array) {
        this.marks[position] = stamp;
        if (position < lowest) lowest = position;
        if (position > highest) highest = position;
      }
    }
    const out: number[] = [];
    for (let position = lowest; position <= highest; position += 1) {
      if (this.marks[position] === stamp) out.push(position);
    }
    return out;
  }

  private hasPrefix(position: number, range: WordRange): boolean {
    for (const word of this.itemWords[position] as Int32Array) {
      if (word >= range.from && word < range.to) return true;
    }
    return false;
  }
}

function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
