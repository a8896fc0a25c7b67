import type { MemberRef } from '@buble/shared/bubles'
import { MUTED_HERE } from '@buble/shared/mutes'
import { mayOnContent } from '@buble/shared/permissions'
import { useId, useMemo, useState } from 'react'
import { type LocalBuble, useMembers } from '../../data/bubles.ts'
import { useDevice } from '../../data/data-context.tsx'
import { useOnline } from '../../data/sync-status.ts'
import { type LocalStory, useStories } from '../../data/wall.ts'
import { Alert } from '../../ui/alert.tsx'
import { Avatar } from '../../ui/avatar.tsx'
import { lazyPart } from '../../ui/lazy-part.ts'
import { memberActorFor } from '../../ui/member-actor.ts'
import { useMutedHere } from '../../ui/mention-members.tsx'
import { StoryDelete } from './story-delete.tsx'
import { STORY_TEXTS } from './story-texts.ts'
import { StoryUpload } from './story-upload.tsx'

const StoryViewer = lazyPart(() => import('./story-viewer.tsx'), 'StoryViewer', { fallback: null })

const countStories = (n: number) => `${n} ${n === 1 ? 'story' : 'stories'}`

interface AuthorStories {
  author: MemberRef
  stories: LocalStory[]
}

/** One ring per author: the user's own first, then whoever shared most recently; oldest story first within. */
export function byAuthor(stories: readonly LocalStory[], userId: string): AuthorStories[] {
  const groups = new Map<string, AuthorStories>()
  for (const story of stories) {
    const key = story.author?.id ?? ''
    const group = groups.get(key) ?? { author: story.author, stories: [] }
    group.stories.push(story)
    groups.set(key, group)
  }
  const newest = (group: AuthorStories) => group.stories.at(-1)?.created_at ?? ''
  return [...groups.values()].sort(
    (a, b) => Number(b.author.id === userId) - Number(a.author.id === userId) || newest(b).localeCompare(newest(a)),
  )
}

/** The overview's Stories tool: who has shared what in the last 24 hours, a viewer, and a way to share. */
export function StoriesWidget({ buble }: { buble: LocalBuble }) {
  const { userId } = useDevice()
  const stories = useStories(buble.id)
  const members = useMembers(buble.id)
  const actor = memberActorFor(buble, members, userId)
  // The story the user asked to delete from the viewer (which closes for the question).
  const [deleting, setDeleting] = useState<LocalStory | null>(null)
  const online = useOnline()
  const hintId = useId()
  const [error, setError] = useState<string | null>(null)
  // What the viewer steps through is fixed when it opens: a story expiring meanwhile does not move it.
  const [viewing, setViewing] = useState<{ stories: LocalStory[]; start: number } | null>(null)
  const groups = useMemo(() => byAuthor(stories ?? [], userId), [stories, userId])
  const mute = useMutedHere()
  const blocked = mute
    ? `${MUTED_HERE}.`
    : !online
      ? STORY_TEXTS.offline
      : buble._pending
        ? STORY_TEXTS.notSynced
        : null

  function open(group: AuthorStories) {
    const ordered = groups.flatMap((each) => each.stories)
    setViewing({ stories: ordered, start: ordered.indexOf(group.stories[0]!) })
  }

  return (
    <div className="stories">
      <ul className="story-rings" aria-label="Stories">
        <li>
          <StoryUpload bubleId={buble.id} blocked={blocked} hintId={hintId} onError={setError} />
        </li>
        {groups.map((group) => (
          <li key={group.author.id}>
            <button
              type="button"
              className="story-ring"
              aria-haspopup="dialog"
              aria-label={`Stories by ${group.author.name}, ${countStories(group.stories.length)}`}
              onClick={() => open(group)}
            >
              <span className="story-ring-avatar">
                <Avatar name={group.author.name} size={52} alt="" />
              </span>
              <span className="story-ring-name" aria-hidden="true">
                {group.author.id === userId ? 'You' : group.author.name.split(/\s+/)[0]}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {blocked && (
        <p className="field-hint" id={hintId}>
          {blocked}
        </p>
      )}
      {error && <Alert kind="error">{error}</Alert>}
      {stories?.length === 0 && (
        <p className="muted stories-empty">No stories right now. Share a photo or a short video for 24 hours.</p>
      )}
      {viewing && (
        <StoryViewer
          stories={viewing.stories}
          start={viewing.start}
          onClose={() => setViewing(null)}
          // The author, or a holder of delete_others_content (the API's rule, shared/permissions.ts).
          mayDelete={(story) =>
            mayOnContent(actor, 'content.delete', { kind: 'story', authorId: story.author?.id ?? '' })
          }
          mayReport={(story) => !!story.author && story.author.id !== actor.userId}
          onDelete={(story) => {
            setViewing(null)
            setDeleting(story)
          }}
        />
      )}
      {deleting && <StoryDelete story={deleting} online={online} onDone={() => setDeleting(null)} />}
    </div>
  )
}
