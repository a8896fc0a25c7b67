import type { SearchHit } from '@buble/shared/search'
import { useEffect, useId, useState } from 'react'
import type { LocalBuble } from '../../data/bubles.ts'
import { useDeviceSearch } from '../../data/search.ts'
import { useOnline } from '../../data/sync-status.ts'
import { useNow } from '../../data/wall.ts'
import { EmptyState } from '../../ui/empty-state.tsx'
import { Modal } from '../../ui/modal.tsx'
import { RelativeTime } from '../../ui/relative-time.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { HighlightedText } from './highlighted-text.tsx'
import { mergeHits } from './merge-hits.ts'
import { KIND_LABELS, SEARCH_TEXTS } from './search-texts.ts'
import { useServerSearch } from './use-server-search.ts'
import './search.css'

/** How long typing must pause before the server is asked (the device is searched at once). */
const SERVER_DELAY_MS = 300

/**
 * The buble's search: the device's rows answer at once (offline too), then the server adds older
 * history when online. Each hit says where it is and opens in place.
 */
export function SearchDialog({
  buble,
  onOpen,
  onClose,
}: {
  buble: LocalBuble
  onOpen: (hit: SearchHit) => void
  onClose: () => void
}) {
  const inputId = useId()
  const [text, setText] = useState('')
  const [asked, setAsked] = useState('')
  const query = text.trim()
  useEffect(() => {
    const timer = window.setTimeout(() => setAsked(query), SERVER_DELAY_MS)
    return () => window.clearTimeout(timer)
  }, [query])
  const local = useDeviceSearch(buble.id, query)
  const server = useServerSearch(buble.id, asked)
  const online = useOnline()
  const now = useNow()
  const hits = mergeHits(local ?? [], asked === query ? server.hits : [])
  const waiting = local === undefined || (online && (asked !== query || server.status === 'loading'))

  return (
    <Modal title={SEARCH_TEXTS.title(buble.name)} onClose={onClose} size="medium">
      <search className="search-form">
        <label htmlFor={inputId} className="visually-hidden">
          {SEARCH_TEXTS.label}
        </label>
        <input
          id={inputId}
          type="search"
          className="search-input"
          placeholder={SEARCH_TEXTS.placeholder}
          value={text}
          maxLength={200}
          autoComplete="off"
          data-autofocus
          onChange={(event) => setText(event.target.value)}
        />
      </search>
      {query !== '' && (
        <div className="search-results" aria-live="polite" aria-busy={waiting}>
          {!online && <p className="search-note">{SEARCH_TEXTS.offline}</p>}
          {server.status === 'failed' && online && <p className="search-note">{SEARCH_TEXTS.serverFailed}</p>}
          {hits.length > 0 && (
            <>
              <p className="visually-hidden">{SEARCH_TEXTS.results(hits.length)}</p>
              <ol className="search-hits" aria-label={SEARCH_TEXTS.resultsLabel}>
                {hits.map((hit) => (
                  <li key={hit.id}>
                    <button type="button" className="search-hit" onClick={() => onOpen(hit)}>
                      <span className="search-hit-head">
                        <span className="search-hit-kind">{KIND_LABELS[hit.kind]}</span>
                        <span className="search-hit-author">{hit.author.name}</span>
                        <RelativeTime iso={hit.created_at} now={now} className="search-hit-time" />
                      </span>
                      <span className="search-hit-text">
                        <HighlightedText snippet={hit.snippet} />
                      </span>
                    </button>
                  </li>
                ))}
              </ol>
            </>
          )}
          {waiting && <Spinner label={hits.length > 0 ? SEARCH_TEXTS.lookingFurther : SEARCH_TEXTS.searching} />}
          {!waiting && hits.length === 0 && (
            <EmptyState title={SEARCH_TEXTS.noResults}>
              <p>{SEARCH_TEXTS.noResultsHint}</p>
            </EmptyState>
          )}
          {!waiting && server.hasMore && (
            <button type="button" className="btn btn-secondary btn-block" onClick={() => void server.loadMore()}>
              {SEARCH_TEXTS.loadMore}
            </button>
          )}
        </div>
      )}
    </Modal>
  )
}
