/** The search box's texts (issue 23 §2), in the spec's tone: short, plain, friendly. */

import type { SearchKind } from '@buble/shared/search'

export const SEARCH_TEXTS = {
  button: 'Search',
  title: (bubleName: string) => `Search ${bubleName}`,
  label: 'Search posts, comments, chat, events and polls',
  placeholder: 'Search this Buble',
  searching: 'Searching…',
  lookingFurther: 'Looking further back…',
  noResults: 'No results',
  noResultsHint: 'Try another word, or fewer of them.',
  offline: 'You are offline: these results are from this device.',
  serverFailed: 'Older messages could not be searched right now.',
  loadMore: 'Load more',
  close: 'Close',
  resultsLabel: 'Results',
  results: (count: number) => (count === 1 ? '1 result' : `${count} results`),
} as const

/** Where a hit is, as its card says it. */
export const KIND_LABELS: Record<SearchKind, string> = {
  post: 'Wall post',
  comment: 'Comment on a post',
  chat: 'Chat',
  event: 'Event',
  poll: 'Poll',
}
