/**
 * The local events finder's search (spec part 2 §7, CONTRACT §6): Ticketmaster's Discovery API,
 * each event mapped to an ExternalEvent. Without an API key the finder is off (503), and the
 * client shows its sample event.
 */

import type { ExternalEvent, TicketmasterQuery } from '@buble/shared/providers'
import { z } from 'zod'
import { AppError } from '../../lib/errors.ts'
import { type ProviderJson, providerFailed, providerUrl } from '../../lib/provider-fetch.ts'

export const TICKETMASTER_SERVICE = 'The event search'
export const FINDER_NOT_CONFIGURED = 'The local events finder is not configured on this server'

const Text = z.string().optional().catch(undefined)
const Num = z.number().finite().optional().catch(undefined)
const When = z.object({ localDate: Text, dateTime: Text }).optional().catch(undefined)

// Lenient per field: one odd event or field must not cost the whole list.
const TmEvent = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  url: Text,
  info: Text,
  pleaseNote: Text,
  dates: z.object({ start: When, end: When }).optional().catch(undefined),
  classifications: z
    .array(z.object({ segment: z.object({ name: Text }).optional() }))
    .optional()
    .catch(undefined),
  priceRanges: z
    .array(z.object({ currency: Text, min: Num, max: Num }))
    .optional()
    .catch(undefined),
  images: z
    .array(z.object({ url: Text, width: Num }))
    .optional()
    .catch(undefined),
  _embedded: z
    .object({ venues: z.array(z.object({ name: Text, city: z.object({ name: Text }).optional() })).optional() })
    .optional()
    .catch(undefined),
})
type TmEvent = z.infer<typeof TmEvent>

const SearchAnswer = z.object({
  _embedded: z.object({ events: z.array(z.unknown()) }).optional(),
})

export interface TicketmasterDeps {
  json: ProviderJson
  config: { apiKey: string | undefined; baseUrl: string }
}

export function ticketmasterService({ json, config }: TicketmasterDeps) {
  return {
    /** Events matching the finder's query; `{events: []}` when none do. */
    async search(query: TicketmasterQuery): Promise<{ events: ExternalEvent[] }> {
      if (!config.apiKey) throw new AppError('SERVICE_UNAVAILABLE', FINDER_NOT_CONFIGURED)
      const url = providerUrl(config.baseUrl, '/events.json', { apikey: config.apiKey, ...providerQuery(query) })
      const answer = SearchAnswer.safeParse(await json(url))
      if (!answer.success) throw providerFailed(TICKETMASTER_SERVICE)
      const events = (answer.data._embedded?.events ?? []).flatMap((raw) => {
        const parsed = TmEvent.safeParse(raw)
        const event = parsed.success ? toExternalEvent(parsed.data) : null
        return event ? [event] : []
      })
      return { events }
    },
  }
}
export type TicketmasterService = ReturnType<typeof ticketmasterService>

/** The provider's query: coordinates become latlong, radius and unit; everything else as given. */
export function providerQuery({ lat, lng, radius_km, ...rest }: TicketmasterQuery): Record<string, string> {
  const query: Record<string, string> = {}
  for (const [name, value] of Object.entries(rest)) if (value !== undefined) query[name] = String(value)
  if (lat !== undefined && lng !== undefined) query.latlong = `${lat},${lng}`
  if (radius_km !== undefined) Object.assign(query, { radius: String(radius_km), unit: 'km' })
  return query
}

/** ISO 8601: the instant when the provider gives one, else the local date alone. */
const dateOf = (when: z.infer<typeof When>): string | null => {
  if (when?.dateTime && !Number.isNaN(Date.parse(when.dateTime))) return new Date(when.dateTime).toISOString()
  return when?.localDate && /^\d{4}-\d{2}-\d{2}$/.test(when.localDate) ? when.localDate : null
}

const webUrl = (raw: string | undefined): string | null => (raw && /^https?:\/\//i.test(raw) ? raw : null)

function priceOf(ranges: TmEvent['priceRanges']): string | null {
  const range = ranges?.[0]
  const min = range?.min ?? range?.max
  const max = range?.max ?? range?.min
  if (min === undefined || max === undefined) return null
  return `${min}–${max}${range?.currency ? ` ${range.currency}` : ''}`
}

function widestImage(images: TmEvent['images']): string | null {
  let best: { url: string; width: number } | null = null
  for (const image of images ?? []) {
    const url = webUrl(image.url)
    if (url && (!best || (image.width ?? 0) > best.width)) best = { url, width: image.width ?? 0 }
  }
  return best?.url ?? null
}

/** An event as the finder shows it; null for one without a start date, which it could not place. */
export function toExternalEvent(event: TmEvent): ExternalEvent | null {
  const startDate = dateOf(event.dates?.start)
  if (!startDate) return null
  const venue = event._embedded?.venues?.[0]
  return {
    id: event.id,
    title: event.name,
    description: event.info?.trim() || event.pleaseNote?.trim() || null,
    location: [venue?.name, venue?.city?.name].filter((part) => part?.trim()).join(', '),
    startDate,
    endDate: dateOf(event.dates?.end),
    price: priceOf(event.priceRanges),
    category: event.classifications?.[0]?.segment?.name ?? null,
    source: 'ticketmaster',
    url: webUrl(event.url),
    image: widestImage(event.images),
  }
}
