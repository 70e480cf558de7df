/**
 * The example list's description line: what a model's leading `///` doc comment says, as one
 * line for the quick pick (pure, so the unit tests read the shipped examples with it).
 */

/** Longest description shown. */
const MAX = 120;

/** The leading `///` lines as one text, cut at the first sentence end past 40 characters (or at 120). */
export function firstDocLine(text: string): string {
  const doc: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*\/\/\/\s?(.*)$/.exec(line);
    if (!m) break;
    doc.push(m[1]!.trim());
  }
  const joined = doc.join(' ').trim();
  // A sentence ends with . ? or ! and a space, not an abbreviation's dot ("fig. 6.3", "et al. 1989").
  const end = /(?<!\b(?:fig|al|e\.g|i\.e|cf|vs|eq|ch|p))[.?!](?=\s|$)/g;
  end.lastIndex = 40;
  const at = end.exec(joined)?.index;
  const sentence = at !== undefined && at < MAX ? joined.slice(0, at + 1) : joined;
  return sentence.length > MAX ? `${sentence.slice(0, MAX - 1)}…` : sentence;
}
