import { useEffect, useRef } from 'react'
import { useSearchParams } from 'react-router-dom'

/** The element id of a listed item (`item-<id>`), which `?item=<id>` scrolls to. */
export const foundItemId = (id: string) => `item-${id}`

/**
 * `?item=<id>`: an item opened from search (an event, a poll). Once it is among `shown`, it is
 * scrolled to and focused, once; answers its id, for the list to mark it.
 */
export function useFoundItem(shown: readonly { id: string }[] | undefined): string | null {
  const [params] = useSearchParams()
  const id = params.get('item')
  const present = id !== null && shown?.some((item) => item.id === id) === true
  const done = useRef<string | null>(null)
  useEffect(() => {
    if (!present || !id || done.current === id) return
    done.current = id
    const item = document.getElementById(foundItemId(id))
    item?.scrollIntoView({ block: 'center' })
    item?.focus({ preventScroll: true })
  }, [present, id])
  return id
}

/** The attributes of a listed item: its id, and the mark and focus target when it is the one found. */
export const foundItemProps = (id: string, found: string | null) =>
  id === found ? { id: foundItemId(id), className: 'found-item', tabIndex: -1 } : { id: foundItemId(id) }
