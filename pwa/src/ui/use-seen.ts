import { type RefObject, useEffect, useState } from 'react'

/**
 * True once the element has come near the viewport (within `margin`), and from then on. A tool far
 * down a page (the overview's Local Events) asks its server only when a member can see it: nothing
 * competes with the page's first load, and a phone that never scrolls there never asks. Without
 * IntersectionObserver (old browsers, jsdom) everything counts as seen at once.
 */
export function useSeen(ref: RefObject<Element | null>, margin = '200px'): boolean {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined')
  useEffect(() => {
    const element = ref.current
    if (seen || !element) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSeen(true)
      },
      { rootMargin: margin },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [ref, seen, margin])
  return seen
}
