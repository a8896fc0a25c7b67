import type { SearchHit } from '@buble/shared/search'

/**
 * The device's hits and the server's as one list, newest first: a hit both have shows once, as the
 * device has it (it may hold an edit not yet sent).
 */
export function mergeHits(device: readonly SearchHit[], server: readonly SearchHit[]): SearchHit[] {
  const seen = new Set(device.map((hit) => hit.id))
  const merged = [...device, ...server.filter((hit) => !seen.has(hit.id))]
  return merged.sort((a, b) =>
    a.created_at === b.created_at ? b.id.localeCompare(a.id) : b.created_at.localeCompare(a.created_at),
  )
}
