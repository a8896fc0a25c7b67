import type { MediaItem } from '@buble/shared/media'
import { useEffect, useRef, useState } from 'react'
import type { LocalBuble } from '../../data/bubles.ts'
import { useMediaGallery } from '../../data/media.ts'
import { Alert } from '../../ui/alert.tsx'
import { EmptyState } from '../../ui/empty-state.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { useSecureImage } from '../../ui/use-secure-image.ts'
import { MEDIA_TEXTS, mediaLabel } from './media-texts.ts'
import { MediaViewer } from './media-viewer.tsx'

/** True once `node` has come near the screen (and stays true): what lazy loading waits for. */
function useNearScreen<T extends Element>(): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null)
  const [near, setNear] = useState(typeof IntersectionObserver === 'undefined')
  useEffect(() => {
    const node = ref.current
    if (near || !node) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true)
      },
      { rootMargin: '200px' },
    )
    observer.observe(node)
    return () => observer.disconnect()
  }, [near])
  return [ref, near]
}

/** The Media tab: every image and video of the buble, newest first, in a grid that loads as it scrolls. */
export function MediaTab({ buble }: { buble: LocalBuble }) {
  const gallery = useMediaGallery(buble.id, MEDIA_TEXTS.failed)
  const [open, setOpen] = useState<number | null>(null)

  if (gallery.status === 'loading') return <Spinner label={MEDIA_TEXTS.loading} />
  if (gallery.status === 'failed') return <Alert kind="error">{gallery.message}</Alert>
  const { items } = gallery

  return (
    <section className="media" aria-label={MEDIA_TEXTS.title}>
      {gallery.fromDevice && items.length > 0 && <Alert kind="info">{MEDIA_TEXTS.offline}</Alert>}
      {items.length === 0 ? (
        <EmptyState title={MEDIA_TEXTS.emptyTitle}>
          <p>{gallery.fromDevice ? MEDIA_TEXTS.offlineEmpty : MEDIA_TEXTS.empty}</p>
        </EmptyState>
      ) : (
        <ul className="media-grid">
          {items.map((item, index) => (
            <li key={item.id}>
              <MediaTile item={item} bubleId={buble.id} onOpen={() => setOpen(index)} />
            </li>
          ))}
        </ul>
      )}
      {gallery.hasMore && <NextPage key={items.length} loading={gallery.loadingMore} onNear={gallery.loadMore} />}
      {open !== null && (
        <MediaViewer
          items={items}
          index={open}
          bubleId={buble.id}
          onIndex={(index) => {
            setOpen(index)
            // Near the end of what is loaded, the next page comes so that Next goes on.
            if (index >= items.length - 2 && gallery.hasMore) gallery.loadMore()
          }}
          onClose={() => setOpen(null)}
        />
      )}
    </section>
  )
}

/** One tile: a button that opens the viewer; its file is fetched once it comes near the screen. */
function MediaTile({ item, bubleId, onOpen }: { item: MediaItem; bubleId: string; onOpen: () => void }) {
  const [ref, near] = useNearScreen<HTMLButtonElement>()
  const label = mediaLabel(item)
  return (
    <button ref={ref} type="button" className="media-tile" aria-label={label} onClick={onOpen}>
      {item.media_type === 'video' ? (
        <span className="media-tile-video" aria-hidden="true">
          ▶ {MEDIA_TEXTS.video}
        </span>
      ) : (
        near && <TileImage url={item.url} bubleId={bubleId} />
      )}
    </button>
  )
}

function TileImage({ url, bubleId }: { url: string; bubleId: string }) {
  const src = useSecureImage(url, bubleId)
  return src ? <img src={src} alt="" loading="lazy" decoding="async" /> : null
}

/** The end of the grid: the next page loads when it comes near the screen, or on a press. */
function NextPage({ loading, onNear }: { loading: boolean; onNear: () => void }) {
  const [ref, near] = useNearScreen<HTMLDivElement>()
  const latest = useRef(onNear)
  latest.current = onNear
  useEffect(() => {
    if (near) latest.current()
  }, [near])
  return (
    <div ref={ref} className="media-more">
      {loading ? (
        <Spinner label={MEDIA_TEXTS.loadingMore} />
      ) : (
        <button type="button" className="btn btn-secondary btn-block" onClick={onNear}>
          {MEDIA_TEXTS.loadMore}
        </button>
      )}
    </div>
  )
}
