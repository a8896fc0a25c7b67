import { LIMITS } from '@buble/shared/constants'
import { can, type MemberActor, mayOnContent } from '@buble/shared/permissions'
import { PostContent, WALL_MESSAGES } from '@buble/shared/wall'
import { useEffect, useId, useRef, useState } from 'react'
import type { LocalPost, WallActions } from '../../data/wall.ts'
import { Avatar } from '../../ui/avatar.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { EditTextForm } from '../../ui/edit-text-form.tsx'
import { plural } from '../../ui/format.ts'
import { ItemActions } from '../../ui/item-actions.tsx'
import { LinkedText } from '../../ui/linked-text.tsx'
import { ReactionPicker } from '../../ui/reaction-picker.tsx'
import { RelativeTime } from '../../ui/relative-time.tsx'
import { useSecureImage } from '../../ui/use-secure-image.ts'
import { Comments } from './comments.tsx'
import { LinkPreviewCard } from './link-preview-card.tsx'
import { WALL_TEXTS } from './wall-texts.ts'

interface PostCardProps {
  post: LocalPost
  actor: MemberActor
  userId: string
  now: number
  actions: WallActions
  /** Whether the buble has its most pinned posts already: a pin is refused on the device, as the server would. */
  pinsFull?: boolean
}

const report = (what: string) => (err: unknown) => console.error(what, err)

/** One post: who and when, the text, its image and link, reactions, and its comments on demand. */
export function PostCard({ post, actor, userId, now, actions, pinsFull = false }: PostCardProps) {
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const [open, setOpen] = useState(false)
  const [pinRefused, setPinRefused] = useState(false)
  const commentsId = useId()
  const editButton = useRef<HTMLButtonElement>(null)
  const wasEditing = useRef(false)
  // Edit for the author (spec part 2 §6); Delete for the author or a holder of delete_others_content, as the API allows.
  const target = { kind: 'post', authorId: post.author_id } as const
  const mayEdit = mayOnContent(actor, 'content.edit', target)
  const mayDelete = mayOnContent(actor, 'content.delete', target)
  const name = post.author?.name ?? post.author_name
  const pinned = !!post.pinned_at
  const mayPin = can(actor, 'post.pin')
  const togglePin = () => {
    if (!pinned && pinsFull) return setPinRefused(true)
    setPinRefused(false)
    actions.pin(post.id, !pinned).catch(report(pinned ? 'Failed to unpin post' : 'Failed to pin post'))
  }

  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus()
    wasEditing.current = editing
  }, [editing])

  return (
    <article className="card post-card" aria-label={`Post by ${name}`}>
      <header className="post-head">
        <Avatar name={name} url={post.author?.avatar_url ?? null} size={40} alt="" />
        <div className="post-meta">
          <span className="post-author clamp-1" title={name}>
            {name}
          </span>
          <span className="post-when">
            <RelativeTime iso={post.created_at} now={now} />
            {post.is_edited && <span>(edited)</span>}
            {post._pending && <span className="pending-mark">Sending…</span>}
            {pinned && <span className="badge badge-accent">{WALL_TEXTS.pinned}</span>}
          </span>
        </div>
        {!editing && (
          <ItemActions
            className="item-actions post-actions"
            what="post"
            mayEdit={mayEdit}
            mayDelete={mayDelete}
            editRef={editButton}
            onEdit={() => setEditing(true)}
            onDelete={() => setDeleting(true)}
            report={
              post.author_id !== userId && !post._pending
                ? { bubleId: post.buble_id, targetType: 'post', targetId: post.id }
                : undefined
            }
          />
        )}
      </header>

      {editing ? (
        <EditTextForm
          label="Edit post"
          initial={post.content}
          schema={PostContent}
          maxLength={LIMITS.post}
          failure={WALL_TEXTS.updatePost}
          onCancel={() => setEditing(false)}
          onSave={async (content) => {
            await actions.updatePost(post.id, content)
            setEditing(false)
          }}
        />
      ) : (
        <LinkedText text={post.content} className="post-content" />
      )}
      {post.image_url && <PostImage url={post.image_url} bubleId={post.buble_id} author={name} />}
      {post.link_url && <LinkPreviewCard preview={post} />}

      <div className="post-foot">
        <ReactionPicker
          reactions={post.reactions ?? {}}
          summary={post.reactionsSummary ?? {}}
          userId={userId}
          onToggle={(type, on) => void actions.react(post.id, type, on).catch(report('Failed to save reaction'))}
        />
        <button
          type="button"
          className="link-button comments-toggle"
          aria-expanded={open}
          aria-controls={commentsId}
          onClick={() => setOpen(!open)}
        >
          {plural(post.commentsCount ?? 0, 'comment')}
        </button>
        {mayPin && (
          <button type="button" className="link-button pin-toggle" aria-pressed={pinned} onClick={togglePin}>
            {pinned ? WALL_TEXTS.unpin : WALL_TEXTS.pin}
          </button>
        )}
      </div>
      {pinRefused && (
        <p className="field-error" role="alert">
          {WALL_MESSAGES.tooManyPins}
        </p>
      )}
      <div id={commentsId} hidden={!open}>
        {open && <Comments postId={post.id} actor={actor} now={now} actions={actions} />}
      </div>

      {deleting && (
        <ConfirmDialog
          title="Delete post?"
          confirmLabel="Delete post"
          busyLabel="Deleting…"
          danger
          busy={false}
          onCancel={() => setDeleting(false)}
          onConfirm={() => {
            // Gone from the device at once; a refusal brings it back and the sync status says so.
            actions.deletePost(post.id).catch(report('Failed to delete post'))
            setDeleting(false)
          }}
        >
          <p>The post and its comments are removed for everyone in this Buble.</p>
        </ConfirmDialog>
      )}
    </article>
  )
}

/** A post's uploaded image, fetched with the session (uploads need the Bearer header). */
function PostImage({ url, bubleId, author }: { url: string; bubleId: string; author: string }) {
  const src = useSecureImage(url, bubleId)
  return (
    <div className="post-image">
      {src ? <img src={src} alt={`Shared by ${author}`} /> : <span className="post-image-placeholder" />}
    </div>
  )
}
