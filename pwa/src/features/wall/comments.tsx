import { LIMITS } from '@buble/shared/constants'
import { type MemberActor, mayOnContent } from '@buble/shared/permissions'
import { CommentContent } from '@buble/shared/wall'
import { useEffect, useRef, useState } from 'react'
import { type LocalComment, useComments, type WallActions } from '../../data/wall.ts'
import { Avatar } from '../../ui/avatar.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { EditTextForm } from '../../ui/edit-text-form.tsx'
import { ItemActions } from '../../ui/item-actions.tsx'
import { LinkedText } from '../../ui/linked-text.tsx'
import { UnlessMuted } from '../../ui/muted-note.tsx'
import { RelativeTime } from '../../ui/relative-time.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { CommentComposer } from './comment-composer.tsx'
import { WALL_TEXTS } from './wall-texts.ts'

interface CommentsProps {
  postId: string
  actor: MemberActor
  now: number
  actions: WallActions
}

/** A post's comments, oldest first, and a field to add one. */
export function Comments({ postId, actor, now, actions }: CommentsProps) {
  const comments = useComments(postId)
  const [deleting, setDeleting] = useState<LocalComment | null>(null)

  return (
    <div className="comments">
      {comments === undefined ? (
        <Spinner label="Loading comments…" />
      ) : (
        comments.length > 0 && (
          <ul className="comment-list" aria-label="Comments">
            {comments.map((comment) => (
              <CommentItem
                key={comment.id}
                comment={comment}
                // As on posts: Edit for the author, Delete for the author or a holder of delete_others_content.
                mayEdit={mayOnContent(actor, 'content.edit', { kind: 'comment', authorId: comment.author.id })}
                mayDelete={mayOnContent(actor, 'content.delete', { kind: 'comment', authorId: comment.author.id })}
                now={now}
                actions={actions}
                onDelete={() => setDeleting(comment)}
                mayReport={comment.author.id !== actor.userId && !comment._pending}
              />
            ))}
          </ul>
        )
      )}
      <UnlessMuted>
        <CommentComposer postId={postId} actions={actions} />
      </UnlessMuted>
      {deleting && (
        <ConfirmDialog
          title="Delete comment?"
          confirmLabel="Delete comment"
          busyLabel="Deleting…"
          danger
          busy={false}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            // Gone from the device at once; a refusal brings it back and the sync status says so.
            actions.deleteComment(deleting.id).catch((err: unknown) => console.error('Failed to delete comment', err))
            setDeleting(null)
          }}
        >
          <p>The comment is removed for everyone in this Buble.</p>
        </ConfirmDialog>
      )}
    </div>
  )
}

interface CommentItemProps {
  comment: LocalComment
  mayEdit: boolean
  mayDelete: boolean
  now: number
  actions: WallActions
  onDelete: () => void
  /** Someone else's comment, on the server: its "Report". */
  mayReport: boolean
}

function CommentItem({ comment, mayEdit, mayDelete, now, actions, onDelete, mayReport }: CommentItemProps) {
  const [editing, setEditing] = useState(false)
  const editButton = useRef<HTMLButtonElement>(null)
  const wasEditing = useRef(false)
  const name = comment.author?.name ?? comment.author_name

  // Back from the edit form, focus returns to the button that opened it.
  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus()
    wasEditing.current = editing
  }, [editing])

  return (
    <li className="comment">
      <Avatar name={name} url={comment.author?.avatar_url ?? null} size={32} alt="" />
      <div className="comment-body">
        <p className="comment-head">
          <span className="comment-author clamp-1" title={name}>
            {name}
          </span>
          <RelativeTime iso={comment.created_at} now={now} className="muted" />
          {comment.isEdited && <span className="muted">(edited)</span>}
          {comment._pending && <span className="pending-mark">Sending…</span>}
        </p>
        {editing ? (
          <EditTextForm
            label="Edit comment"
            initial={comment.content}
            schema={CommentContent}
            maxLength={LIMITS.comment}
            failure={WALL_TEXTS.updateComment}
            onCancel={() => setEditing(false)}
            onSave={async (content) => {
              await actions.updateComment(comment.id, content)
              setEditing(false)
            }}
          />
        ) : (
          <LinkedText text={comment.content} className="comment-text" />
        )}
        {!editing && (
          <ItemActions
            what="comment"
            mayEdit={mayEdit}
            mayDelete={mayDelete}
            editRef={editButton}
            onEdit={() => setEditing(true)}
            onDelete={onDelete}
            report={mayReport ? { bubleId: comment.buble_id, targetType: 'comment', targetId: comment.id } : undefined}
          />
        )}
      </div>
    </li>
  )
}
