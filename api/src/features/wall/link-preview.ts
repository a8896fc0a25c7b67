/**
 * A link's preview (title, description, image) read from its page's Open Graph, Twitter and plain HTML tags.
 * It runs as a background job: a page that cannot be fetched or says nothing answers null, never an error.
 */

import { Parser } from 'htmlparser2'
import { type SafeFetch, SafeFetchError, type SafeFetchResponse } from '../../lib/safe-fetch.ts'

export interface LinkPreview {
  title: string | null
  description: string | null
  image: string | null
}

const TITLE_MAX = 300
const DESCRIPTION_MAX = 1000
/** As long as a post's link_url may be. */
const IMAGE_URL_MAX = 2048
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml'])

// In order of preference; `<title>` and `<meta name="description">` are the last resort.
const TITLE_KEYS = ['og:title', 'twitter:title', '<title>']
const DESCRIPTION_KEYS = ['og:description', 'twitter:description', 'description']
const IMAGE_KEYS = ['og:image:secure_url', 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src']

export async function fetchLinkPreview(safeFetch: SafeFetch, url: string): Promise<LinkPreview | null> {
  let response: SafeFetchResponse
  try {
    response = await safeFetch(url, { accept: 'text/html,application/xhtml+xml;q=0.9' })
  } catch (err) {
    if (err instanceof SafeFetchError) return null
    throw err
  }
  const contentType = response.headers.get('content-type') ?? ''
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  if (response.status !== 200 || !HTML_TYPES.has(mediaType)) return null

  const head = readHead(decodeHtml(response.body, charsetOf(contentType)))
  const preview: LinkPreview = {
    title: firstText(head.tags, TITLE_KEYS, TITLE_MAX),
    description: firstText(head.tags, DESCRIPTION_KEYS, DESCRIPTION_MAX),
    image: firstImage(head.tags, baseUrl(head.base, response.url)),
  }
  return preview.title || preview.description || preview.image ? preview : null
}

interface Head {
  /** The first value met for each meta key (lower-cased), plus `<title>` for the title element's text. */
  tags: Map<string, string>
  base: string | null
}

/** Collects the head's meta tags, title and base; stops at `</head>` or `<body>` since nothing we read lives later. */
function readHead(html: string): Head {
  const head: Head = { tags: new Map(), base: null }
  let title: string | null = null
  let done = false
  const stop = () => {
    done = true
    parser.pause()
  }
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (done) return
        if (name === 'meta') recordMeta(head.tags, attribs)
        else if (name === 'title' && !head.tags.has('<title>')) title = ''
        else if (name === 'base' && head.base === null && attribs.href) head.base = attribs.href
        else if (name === 'body') stop()
      },
      ontext(text) {
        if (title !== null) title += text
      },
      onclosetag(name) {
        if (name === 'title' && title !== null) {
          head.tags.set('<title>', title)
          title = null
        } else if (name === 'head') stop()
      },
    },
    { decodeEntities: true },
  )
  parser.write(html)
  if (!done) parser.end()
  return head
}

function recordMeta(tags: Map<string, string>, attribs: Record<string, string>): void {
  // Open Graph uses `property`, Twitter and plain HTML `name`; pages mix them up, so either counts.
  const key = (attribs.property ?? attribs.name ?? '').trim().toLowerCase()
  const content = attribs.content
  if (key && content?.trim() && !tags.has(key)) tags.set(key, content)
}

function firstText(tags: Map<string, string>, keys: readonly string[], max: number): string | null {
  for (const key of keys) {
    const text = cleanText(tags.get(key) ?? '')
    if (text) return capText(text, max)
  }
  return null
}

function firstImage(tags: Map<string, string>, base: string): string | null {
  for (const key of IMAGE_KEYS) {
    const image = resolveImage(tags.get(key), base)
    if (image) return image
  }
  return null
}

/** Control characters out, runs of whitespace as one space, trimmed. */
function cleanText(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

function capText(text: string, max: number): string {
  if (text.length <= max) return text
  let cut = text.slice(0, max - 1)
  // Never leave half of a surrogate pair (an emoji, say) at the end.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1)
  return `${cut.trimEnd()}…`
}

/** The page's `<base href>` when it has a usable one, else the address that answered. */
function baseUrl(base: string | null, finalUrl: string): string {
  if (!base) return finalUrl
  try {
    return new URL(base, finalUrl).href
  } catch {
    return finalUrl
  }
}

function resolveImage(raw: string | undefined, base: string): string | null {
  if (!raw?.trim()) return null
  try {
    const url = new URL(raw.trim(), base)
    const isWeb = url.protocol === 'http:' || url.protocol === 'https:'
    return isWeb && url.href.length <= IMAGE_URL_MAX ? url.href : null
  } catch {
    return null
  }
}

/** The charset a Content-Type header declares, if any. */
function charsetOf(contentType: string): string | null {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1] ?? null
}

/** Decodes by the byte order mark, else the header's charset, else a `<meta>` charset near the top, else UTF-8. */
function decodeHtml(body: Buffer, headerCharset: string | null): string {
  const bom = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 'utf-8' : null
  const prescan = body.subarray(0, 4096).toString('latin1')
  const metaCharset = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(prescan)?.[1] ?? null
  for (const label of [bom, headerCharset, metaCharset]) {
    if (!label) continue
    try {
      return new TextDecoder(label).decode(body)
    } catch {
      // An unknown label: try the next source.
    }
  }
  return new TextDecoder('utf-8').decode(body)
}
