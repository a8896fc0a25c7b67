/** Overview tools (spec part 2 §2, CONTRACT §3.2, issue 21): two always there, four the owner may add or remove. */

import { z } from 'zod'

export const TOOL_KEYS = ['wall', 'stories', 'local_events', 'weather', 'event_stats', 'latest_polls'] as const
export type ToolKey = (typeof TOOL_KEYS)[number]

/** Always on, never removable. */
export const FIXED_TOOLS: readonly ToolKey[] = ['wall', 'stories']
/**
 * What a new buble starts with: spec part 2 §2's initial three. Issue 21 (decision 83) made Local Events
 * removable: it is on from the start, and the owner may take it off and put it back like any other.
 */
export const INITIAL_TOOLS: readonly ToolKey[] = ['wall', 'stories', 'local_events']
/** What the owner may add or remove through 'Add Tool'. */
export const OPTIONAL_TOOLS: readonly ToolKey[] = ['local_events', 'weather', 'event_stats', 'latest_polls']

/**
 * The removable tools a new buble starts with. The buble row stores the optional tools turned on, so for
 * these it stores their removal instead ('-local_events'): rows written before they were removable, which
 * say nothing of them, keep them on.
 */
const ON_UNTIL_REMOVED: readonly ToolKey[] = INITIAL_TOOLS.filter((key) => OPTIONAL_TOOLS.includes(key))
const removed = (key: ToolKey) => `-${key}`

export const TOOL_LABELS: Readonly<Record<ToolKey, string>> = {
  wall: 'Wall',
  stories: 'Stories',
  local_events: 'Local Events',
  weather: 'Weather',
  event_stats: 'Event Stats',
  latest_polls: 'Latest Polls',
}

export const ToolKeySchema = z.enum(TOOL_KEYS)

export const Tool = z.object({ key: ToolKeySchema, enabled: z.boolean(), removable: z.boolean() })
export type Tool = z.infer<typeof Tool>

export const ToolsResponse = z.object({ tools: z.array(Tool) })
export type ToolsResponse = z.infer<typeof ToolsResponse>

/** The tools to have on: unknown keys are refused; the fixed two are on whether listed or not. */
export const ToolsBody = z.object({ enabled: z.array(ToolKeySchema).max(TOOL_KEYS.length * 2) })
export type ToolsBody = z.infer<typeof ToolsBody>

/** The optional tools on, for a buble row's stored list, in their display order. */
export const optionalToolsOf = (stored: readonly string[]): ToolKey[] =>
  OPTIONAL_TOOLS.filter((key) =>
    ON_UNTIL_REMOVED.includes(key) ? !stored.includes(removed(key)) : stored.includes(key),
  )

/** What a buble row stores when these tools are asked for (unknown and fixed keys change nothing). */
export const storedToolsOf = (enabled: readonly string[]): string[] =>
  OPTIONAL_TOOLS.flatMap((key) => {
    const on = enabled.includes(key)
    if (ON_UNTIL_REMOVED.includes(key)) return on ? [] : [removed(key)]
    return on ? [key] : []
  })

/** Every tool with whether it is on and whether it may be removed, for a buble row's stored list. */
export const toolsOf = (stored: readonly string[]): Tool[] => {
  const on = optionalToolsOf(stored)
  return TOOL_KEYS.map((key) => {
    const fixed = FIXED_TOOLS.includes(key)
    return { key, enabled: fixed || on.includes(key), removable: !fixed }
  })
}

/** The tools on, in display order, for a buble row's stored list (what a Buble answer carries). */
export const enabledToolsOf = (stored: readonly string[]): ToolKey[] => [...FIXED_TOOLS, ...optionalToolsOf(stored)]
