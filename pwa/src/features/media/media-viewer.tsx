import type { MediaItem } from '@buble/shared/media'
import { useEffect, useRef } from 'react'
import { Modal } from '../../ui/modal.tsx'
import { useSecureImage } from '../../ui/use-secure-image.ts'
import { MEDIA_TEXTS, mediaLabel } from './media-texts.ts'

/** How far a finger or pointer moves sideways before it counts as a swipe. */
const SWIPE_PX = 50

interface MediaViewerProps {
  items: readonly MediaItem[]
  index: number
  bubleId: string
  onIndex: (index: number) => void
  onClose: () => void
}

/**
 * One item of the gallery at a time, in a dialog (focus kept inside, Escape closes): Left and Right
 * keys, the Previous and Next buttons, or a swipe move between items; a video plays with its controls.
 */
export function MediaViewer({ items, index, bubleId, onIndex, onClose }: MediaViewerProps) {
  const item = items[index]
  const hasPrevious = index > 0
  const hasNext = index < items.length - 1
  const start = useRef<{ x: number; y: number } | null>(null)
  const move = useRef({ index, count: items.length, onIndex })
  move.current = { index, count: items.length, onIndex }

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { index: at, count, onIndex: go } = move.current
      if (event.key === 'ArrowLeft' && at > 0) go(at - 1)
      else if (event.key === 'ArrowRight' && at < count - 1) go(at + 1)
      else return
      event.preventDefault()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])

  if (!item) return null
  const label = mediaLabel(item)

  return (
    <Modal
      title={MEDIA_TEXTS.viewer}
      size="medium"
      onClose={onClose}
      actions={
        <>
          {/* aria-disabled, not disabled: a button that holds the focus must keep it at either end. */}
          <button
            type="button"
            className="btn btn-secondary"
            aria-disabled={!hasPrevious}
            onClick={() => hasPrevious && onIndex(index - 1)}
          >
            {MEDIA_TEXTS.previous}
          </button>
          <span className="media-position" aria-live="polite">
            {MEDIA_TEXTS.position(index + 1, items.length)}
          </span>
          <button
            type="button"
            className="btn btn-secondary"
            aria-disabled={!hasNext}
            onClick={() => hasNext && onIndex(index + 1)}
          >
            {MEDIA_TEXTS.next}
          </button>
          <button type="button" className="btn btn-primary" onClick={onClose}>
            {MEDIA_TEXTS.close}
          </button>
        </>
      }
    >
      <figure
        className="media-stage"
        onPointerDown={(event) => {
          start.current = { x: event.clientX, y: event.clientY }
        }}
        onPointerUp={(event) => {
          const from = start.current
          start.current = null
          if (!from) return
          const dx = event.clientX - from.x
          if (Math.abs(dx) < SWIPE_PX || Math.abs(dx) < Math.abs(event.clientY - from.y)) return
          if (dx < 0 && hasNext) onIndex(index + 1)
          if (dx > 0 && hasPrevious) onIndex(index - 1)
        }}
      >
        <ViewerMedia key={item.id} item={item} bubleId={bubleId} label={label} />
        <figcaption>{label}</figcaption>
      </figure>
    </Modal>
  )
}

function ViewerMedia({ item, bubleId, label }: { item: MediaItem; bubleId: string; label: string }) {
  const src = useSecureImage(item.url, bubleId)
  if (!src) return <span className="media-stage-placeholder" role="img" aria-label={label} />
  return item.media_type === 'video' ? (
    // biome-ignore lint/a11y/useMediaCaption: members' own clips come without captions.
    <video src={src} controls playsInline aria-label={label} />
  ) : (
    <img src={src} alt={label} draggable={false} />
  )
}
