/** Words that open a sentence or a label: their first letter in capitals ('names only' → 'Names only'). */
export function sentenceStart(words: string): string {
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}
