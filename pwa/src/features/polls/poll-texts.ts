/** What the polls tab says (spec part 2 §2, §8). */
export const POLL_TEXTS = {
  create: 'Create Poll',
  edit: 'Edit Poll',
  noOptions: 'No options available',
  empty: 'No polls yet',
  emptyHint: 'Ask the group something: create the first poll.',
  emptyHintReader: 'Polls members create show here.',
  yourVote: 'Your vote',
  changeVote: 'Change vote',
  removeVote: 'Remove vote',
  addOption: 'Add option',
  /** An option's share of the votes cast: "1 of 1 votes · 100 %". */
  share: (votes: number, total: number, percent: number) => `${votes} of ${total} votes · ${percent} %`,
} as const
