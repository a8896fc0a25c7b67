import { type MemberActor, mayOnContent } from '@buble/shared/permissions'
import { useState } from 'react'
import type { EventActions, LocalPoll } from '../../data/events.ts'
import { ItemHead } from '../../ui/item-head.tsx'
import { useConfirm } from '../../ui/use-confirm.tsx'
import { PollResults } from './poll-results.tsx'
import { POLL_TEXTS } from './poll-texts.ts'

interface PollCardProps {
  poll: LocalPoll
  actor: MemberActor
  memberCount: number
  actions: EventActions
  onEdit: () => void
}

/** One poll: its options to vote on, or once voted its results, with change and remove. */
export function PollCard({ poll, actor, memberCount, actions, onEdit }: PollCardProps) {
  const { ask, dialog } = useConfirm()
  const [changing, setChanging] = useState(false)
  const options = poll.options ?? []
  // Edit and Delete come together: their header shows both or neither.
  const target = { kind: 'poll', authorId: poll.creator_id } as const
  const picking = !poll.hasVoted || changing

  const vote = (optionId: string, text: string) =>
    ask({
      title: poll.hasVoted ? 'Change vote?' : 'Confirm vote',
      body: (
        <p>
          Vote “{text}” on {poll.question}
        </p>
      ),
      confirmLabel: poll.hasVoted ? POLL_TEXTS.changeVote : 'Vote',
      busyLabel: 'Voting…',
      run: async () => {
        await actions.vote(poll.id, optionId)
        setChanging(false)
      },
    })

  const unvote = () =>
    ask({
      title: 'Remove vote?',
      body: <p>Your vote on {poll.question} is taken back.</p>,
      confirmLabel: POLL_TEXTS.removeVote,
      busyLabel: 'Removing…',
      run: () => actions.unvote(poll.id),
    })

  const remove = () =>
    ask({
      title: 'Delete poll?',
      body: <p>{poll.question} and its votes are removed for everyone in this Buble.</p>,
      confirmLabel: 'Delete poll',
      busyLabel: 'Deleting…',
      danger: true,
      run: () => actions.deletePoll(poll.id),
    })

  return (
    <article className="card poll-card" aria-labelledby={`poll-${poll.id}`}>
      <ItemHead
        id={`poll-${poll.id}`}
        title={poll.question}
        creatorName={poll.creator?.name}
        pending={!!poll._pending}
        kind="poll"
        manage={
          mayOnContent(actor, 'content.edit', target) && mayOnContent(actor, 'content.delete', target)
            ? { onEdit, onDelete: remove }
            : undefined
        }
      />

      {options.length === 0 ? (
        <p className="muted">{POLL_TEXTS.noOptions}</p>
      ) : picking ? (
        <ul className="poll-options" aria-label={`Options of ${poll.question}`}>
          {options.map((option) => (
            <li key={option.id}>
              <button
                type="button"
                className="poll-option"
                aria-pressed={option.id === poll.userVote}
                aria-haspopup={option.id === poll.userVote ? undefined : 'dialog'}
                onClick={() => option.id !== poll.userVote && vote(option.id, option.option_text)}
              >
                {option.option_text}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <PollResults poll={poll} memberCount={memberCount} />
      )}

      {poll.hasVoted && options.length > 0 && (
        <div className="form-actions form-actions-start">
          <button type="button" className="btn btn-secondary btn-small" onClick={() => setChanging(!changing)}>
            {changing ? 'Show results' : POLL_TEXTS.changeVote}
          </button>
          <button type="button" className="btn btn-secondary btn-small" aria-haspopup="dialog" onClick={unvote}>
            {POLL_TEXTS.removeVote}
          </button>
        </div>
      )}
      {dialog}
    </article>
  )
}
