/** Ids read from request paths: anything but a UUID names nothing (404, like a row the caller may not see). */

import { isUuid } from '@buble/shared/bubles'
import { bubleNotFound } from './memberships.ts'

/** The lower-cased UUID in `raw`, or the feature's "not found" thrown. */
export function idFromPath(raw: string, missing: () => Error): string {
  if (!isUuid(raw)) throw missing()
  return raw.toLowerCase()
}

export const bubleIdFromPath = (raw: string) => idFromPath(raw, bubleNotFound)
