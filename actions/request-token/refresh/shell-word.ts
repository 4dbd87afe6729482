/** One POSIX shell word, single-quoted: the runner's paths may hold spaces or quotes. */
export const shellWord = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;
