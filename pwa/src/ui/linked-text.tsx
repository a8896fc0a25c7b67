import { splitMentions } from '@buble/shared/mentions'
import { Fragment } from 'react'
import { useMentionMembers } from './mention-members.tsx'

// The same addresses firstUrl (@buble/shared/wall) finds, so the preview and the links agree.
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+/gi
const TRAILING = /[).,;:!?\]]+$/

interface Part {
  /** Where the part starts in the text: its key. */
  at: number
  text: string
  href?: string
}

/** Splits text into plain runs and http(s) addresses (trailing punctuation stays text). */
export function splitLinks(text: string): Part[] {
  const parts: Part[] = []
  let last = 0
  for (const match of text.matchAll(URL_PATTERN)) {
    const href = match[0].replace(TRAILING, '')
    if (match.index > last) parts.push({ at: last, text: text.slice(last, match.index) })
    parts.push({ at: match.index, text: href, href })
    last = match.index + href.length
  }
  if (last < text.length) parts.push({ at: last, text: text.slice(last) })
  return parts
}

/**
 * Text as written (line breaks kept, by CSS), its addresses clickable in a new tab and its mentions
 * highlighted with the member's name now (decision 94; a non-member's is plain text).
 */
export function LinkedText({ text, className }: { text: string; className?: string }) {
  const { nameOf } = useMentionMembers()
  return (
    <p className={className}>
      {splitMentions(text, nameOf).map((run) =>
        run.userId ? (
          <span key={run.at} className="mention">
            {run.text}
          </span>
        ) : (
          splitLinks(run.text).map((part) =>
            part.href ? (
              // noopener: the page opened cannot reach back into Buble; noreferrer: it does not learn where from.
              <a key={`${run.at}:${part.at}`} href={part.href} target="_blank" rel="noopener noreferrer">
                {part.text}
              </a>
            ) : (
              <Fragment key={`${run.at}:${part.at}`}>{part.text}</Fragment>
            ),
          )
        ),
      )}
    </p>
  )
}
