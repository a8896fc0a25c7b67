/** Overview tools (spec part 2 §2, CONTRACT §3.2): three always there, three the owner may add or remove. */

import { z } from 'zod'

export const TOOL_KEYS = ['wall', 'stories', 'local_events', 'weather', 'event_stats', 'latest_polls'] as const
export type ToolKey = (typeof TOOL_KEYS)[number]

/** The initial three: always on, never removable. */
export const FIXED_TOOLS: readonly ToolKey[] = ['wall', 'stories', 'local_events']
/** What the owner may add through 'Add Tool'. */
export const OPTIONAL_TOOLS: readonly ToolKey[] = ['weather', 'event_stats', 'latest_polls']

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

/** The tools to have on: unknown keys are refused; the fixed three are on whether listed or not. */
export const ToolsBody = z.object({ enabled: z.array(ToolKeySchema).max(TOOL_KEYS.length * 2) })
export type ToolsBody = z.infer<typeof ToolsBody>

/** The optional tools of a stored list, in their display order, without duplicates. */
export const optionalToolsOf = (keys: readonly string[]): ToolKey[] =>
  OPTIONAL_TOOLS.filter((key) => keys.includes(key))

/** Every tool with whether it is on and whether it may be removed, for a stored list of optional ones. */
export const toolsOf = (enabled: readonly string[]): Tool[] =>
  TOOL_KEYS.map((key) => {
    const fixed = FIXED_TOOLS.includes(key)
    return { key, enabled: fixed || enabled.includes(key), removable: !fixed }
  })
