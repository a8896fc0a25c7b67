import type { ToolKey } from '@buble/shared/tools'

/** What each overview tool shows; said on its card until the tool itself arrives. */
export const TOOL_TEXTS: Readonly<Record<ToolKey, string>> = {
  wall: "The newest posts from your Buble's wall.",
  stories: 'Photos and short videos members share for 24 hours.',
  local_events: 'Concerts, sports and shows nearby, ready to become Buble events.',
  weather: "Current conditions and a 5-day forecast for your Buble's location.",
  event_stats: "Your Buble's most popular events at a glance.",
  latest_polls: 'The three newest polls, each with its first three options.',
}
