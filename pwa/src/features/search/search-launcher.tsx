import type { SearchHit } from '@buble/shared/search'
import { useState } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { bublePath, type LocalBuble } from '../../data/bubles.ts'
import { lazyPart } from '../../ui/lazy-part.ts'
import { SEARCH_TEXTS } from './search-texts.ts'

const SearchDialog = lazyPart(() => import('./search-dialog.tsx'), 'SearchDialog', { fallback: null })

/** Where a hit opens: the post on the wall (a comment's post), the chat at the message, the event or the poll in its tab. */
export function hitPath(buble: Pick<LocalBuble, 'id' | 'slug'>, hit: SearchHit, currentPath: string): string {
  switch (hit.kind) {
    case 'post':
      return `${bublePath(buble, 'wall')}?post=${hit.id}`
    case 'comment':
      return `${bublePath(buble, 'wall')}?post=${hit.post_id}`
    case 'chat':
      return `${currentPath}?chat=open&message=${hit.id}`
    case 'event':
      return `${bublePath(buble, 'events')}?item=${hit.id}`
    case 'poll':
      return `${bublePath(buble, 'polls')}?item=${hit.id}`
  }
}

/** The buble header's Search button and the search dialog it opens. */
export function SearchLauncher({ buble }: { buble: LocalBuble }) {
  const [open, setOpen] = useState(false)
  const navigate = useNavigate()
  const { pathname } = useLocation()

  function openHit(hit: SearchHit) {
    setOpen(false)
    navigate(hitPath(buble, hit, pathname))
  }

  return (
    <>
      <button
        type="button"
        className="btn btn-secondary search-button"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {SEARCH_TEXTS.button}
      </button>
      {open && <SearchDialog buble={buble} onOpen={openHit} onClose={() => setOpen(false)} />}
    </>
  )
}
