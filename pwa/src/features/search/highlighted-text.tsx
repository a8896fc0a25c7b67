import type { SearchSnippet } from '@buble/shared/search'

/**
 * A snippet with its matching words in `<mark>`: the text is always rendered as text (React escapes
 * it), the marks come as offsets, so no content can bring markup of its own.
 */
export function HighlightedText({ snippet }: { snippet: SearchSnippet }) {
  const parts: { text: string; marked: boolean; at: number }[] = []
  let at = 0
  for (const [start, end] of snippet.marks) {
    if (start < at || end > snippet.text.length) continue
    if (start > at) parts.push({ text: snippet.text.slice(at, start), marked: false, at })
    parts.push({ text: snippet.text.slice(start, end), marked: true, at: start })
    at = end
  }
  if (at < snippet.text.length) parts.push({ text: snippet.text.slice(at), marked: false, at })
  return (
    <>
      {parts.map((part) =>
        part.marked ? <mark key={part.at}>{part.text}</mark> : <span key={part.at}>{part.text}</span>,
      )}
    </>
  )
}
