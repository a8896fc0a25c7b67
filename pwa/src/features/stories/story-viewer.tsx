import { relativeTime } from '@buble/shared/time'
import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import type { LocalStory } from '../../data/wall.ts'
import { Avatar } from '../../ui/avatar.tsx'
import { ReportToggle, useReportFlow } from '../../ui/report-button.tsx'
import { STORY_TEXTS } from './story-texts.ts'
import { useSecureMedia } from './use-secure-media.ts'

const FOCUSABLE = 'button:not([disabled]), [tabindex]:not([tabindex="-1"])'
const TICK_MS = 100

interface StoryViewerProps {
  /** The stories to step through, in order. */
  stories: readonly LocalStory[]
  start: number
  onClose: () => void
  /** Whether the user may delete this story (its author, or a holder of delete_others_content). */
  mayDelete?: (story: LocalStory) => boolean
  onDelete?: (story: LocalStory) => void
  /** Whether the user may report this story (someone else's). */
  mayReport?: (story: LocalStory) => boolean
}

/**
 * Stories full screen, one after another: an image for its duration_seconds, a video to its end,
 * then the next; after the last, the viewer closes. Arrow keys or the left and right of the
 * picture step back and on; Escape closes.
 */
export function StoryViewer({ stories, start, onClose, mayDelete, onDelete, mayReport }: StoryViewerProps) {
  const [index, setIndex] = useState(start)
  const [progress, setProgress] = useState(0)
  const [muted, setMuted] = useState(true)
  const dialog = useRef<HTMLDivElement>(null)
  const story = stories[Math.min(index, stories.length - 1)]!
  const media = useSecureMedia(story.media_url, story.buble_id)
  const name = story.author?.name ?? 'Someone'
  const reporting = useReportFlow({ bubleId: story.buble_id, targetType: 'story', targetId: story.id })
  // The story waits while it is being reported.
  const paused = reporting.dialog !== null

  const next = () => (index + 1 < stories.length ? setIndex(index + 1) : onClose())
  const previous = () => setIndex(Math.max(0, index - 1))
  const nextRef = useRef(next)
  nextRef.current = next

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    dialog.current?.focus()
    return () => before?.focus?.()
  }, [])

  // An image shows for its duration from when it is there (or has failed to come), then the next.
  const ready = media.src !== null || media.failed
  useEffect(() => {
    setProgress(0)
    if (story.media_type !== 'image' || !ready || paused) return
    const startedAt = Date.now()
    const total = Math.max(1, story.duration_seconds) * 1000
    const timer = setInterval(() => {
      const done = (Date.now() - startedAt) / total
      if (done < 1) return setProgress(done)
      clearInterval(timer)
      nextRef.current()
    }, TICK_MS)
    return () => clearInterval(timer)
  }, [story, ready, paused])

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.stopPropagation()
      return onClose()
    }
    if (event.key === 'ArrowRight') return next()
    if (event.key === 'ArrowLeft') return previous()
    if (event.key !== 'Tab' || !dialog.current) return
    const items = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)]
    const first = items[0]
    const last = items[items.length - 1]
    if (!first || !last) return event.preventDefault()
    if (event.shiftKey && (document.activeElement === first || document.activeElement === dialog.current)) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return createPortal(
    <>
      <div
        ref={dialog}
        className="story-viewer"
        role="dialog"
        aria-modal="true"
        aria-label={`Story by ${name}`}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="story-progress" aria-hidden="true">
          {stories.map((item, i) => (
            <span key={item.id} className="story-segment">
              <span
                className="story-segment-fill"
                style={{ width: `${i < index ? 100 : i === index ? Math.round(progress * 100) : 0}%` }}
              />
            </span>
          ))}
        </div>
        <div className="story-top">
          <Avatar name={name} size={36} alt="" />
          <span className="story-author clamp-1" title={name}>
            {name}
          </span>
          <time className="story-time" dateTime={story.created_at}>
            {relativeTime(story.created_at, Date.now())}
          </time>
          <span className="visually-hidden" aria-live="polite">{`Story ${index + 1} of ${stories.length}`}</span>
          {story.media_type === 'video' && (
            <button type="button" className="story-button" aria-pressed={!muted} onClick={() => setMuted(!muted)}>
              {muted ? 'Sound on' : 'Sound off'}
            </button>
          )}
          {onDelete && mayDelete?.(story) && (
            <button type="button" className="story-button" aria-haspopup="dialog" onClick={() => onDelete(story)}>
              Delete <span className="visually-hidden">story</span>
            </button>
          )}
          {mayReport?.(story) && (
            <ReportToggle reported={reporting.reported} what="story" onOpen={reporting.open} className="story-button" />
          )}
          <button type="button" className="story-button story-close" aria-label="Close" onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div className="story-stage">
          {media.failed ? (
            <p className="story-error" role="alert">
              {STORY_TEXTS.loadFailed}
            </p>
          ) : media.src === null ? null : story.media_type === 'image' ? (
            <img className="story-media" src={media.src} alt={`Story by ${name}`} />
          ) : (
            <video
              key={story.id}
              className="story-media"
              src={media.src}
              autoPlay
              playsInline
              muted={muted}
              aria-label={`Video story by ${name}`}
              onTimeUpdate={(event) => {
                const video = event.currentTarget
                if (video.duration > 0) setProgress(video.currentTime / video.duration)
              }}
              onEnded={() => nextRef.current()}
            />
          )}
          <button
            type="button"
            className="story-tap story-tap-previous"
            aria-label="Previous story"
            disabled={index === 0}
            onClick={previous}
          />
          <button type="button" className="story-tap story-tap-next" aria-label="Next story" onClick={next} />
        </div>
        {reporting.confirmation}
      </div>
      {/* Outside the viewer, so its keys (Escape, arrows, Tab) stay the dialog's own. */}
      {reporting.dialog}
    </>,
    document.body,
  )
}
