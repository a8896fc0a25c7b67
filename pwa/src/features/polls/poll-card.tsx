import { type MemberActor, mayOnContent } from '@buble/shared/permissions'
import { isPollClosed } from '@buble/shared/polls'
import { useState } from 'react'
import type { EventActions, LocalPoll } from '../../data/events.ts'
import { useNow } from '../../data/wall.ts'
import { formatMoment } from '../../ui/format.ts'
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

/**
 * One poll: its options to vote on (buttons, or checkboxes for several choices), or once voted or
 * closed its results, with change and remove while it is open. Its settings show as tags; hidden
 * results and a secret vote say what the member will see, and when (docs/decisions/0098).
 */
export function PollCard({ poll, actor, memberCount, actions, onEdit }: PollCardProps) {
  const { ask, dialog } = useConfirm()
  const [changing, setChanging] = useState(false)
  const [selected, setSelected] = useState<string[]>([])
  const now = useNow(30_000)
  const options = poll.options ?? []
  // Edit and Delete come together: their header shows both or neither.
  const target = { kind: 'poll', authorId: poll.creator_id } as const
  const closed = isPollClosed({ closes_at: poll.closes_at ?? null, closed: poll.closed ?? false }, now)
  const hidden = poll.totalVotes === null
  const secretVoted = !!poll.secret && poll.hasVoted
  const picking = !closed && !secretVoted && (!poll.hasVoted || changing)
  const mayChange = poll.hasVoted && !closed && !poll.secret && options.length > 0

  const vote = (optionIds: string[], text: string) =>
    ask({
      title: poll.hasVoted ? 'Change vote?' : 'Confirm vote',
      body: (
        <>
          <p>
            Vote “{text}” on {poll.question}
          </p>
          {poll.secret && <p>{POLL_TEXTS.secretFinal}</p>}
        </>
      ),
      confirmLabel: poll.hasVoted ? POLL_TEXTS.changeVote : POLL_TEXTS.vote,
      busyLabel: 'Voting…',
      run: async () => {
        await actions.vote(poll.id, optionIds)
        setChanging(false)
      },
    })

  const voteSelected = () => {
    const chosen = options.filter((option) => selected.includes(option.id))
    if (chosen.length > 0)
      vote(
        chosen.map((option) => option.id),
        chosen.map((option) => option.option_text).join('”, “'),
      )
  }

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
        report={
          poll.creator_id !== actor.userId && !poll._pending
            ? { bubleId: poll.buble_id, targetType: 'poll', targetId: poll.id }
            : undefined
        }
      />

      <ul className="poll-tags" aria-label={`About ${poll.question}`}>
        {poll.closes_at && (
          <li className={closed ? 'badge badge-accent' : 'badge'}>
            {closed ? POLL_TEXTS.closed : POLL_TEXTS.closes(formatMoment(poll.closes_at))}
          </li>
        )}
        {poll.multiple && <li className="badge">{POLL_TEXTS.several}</li>}
        {poll.secret && <li className="badge">{POLL_TEXTS.secret}</li>}
        {poll.hide_results && !closed && <li className="badge">{POLL_TEXTS.hideResults}</li>}
      </ul>

      {options.length === 0 ? (
        <p className="muted">{POLL_TEXTS.noOptions}</p>
      ) : picking && poll.multiple ? (
        <>
          <p className="muted">{POLL_TEXTS.chooseSeveral}</p>
          <ul className="poll-choices" aria-label={`Options of ${poll.question}`}>
            {options.map((option) => (
              <li key={option.id}>
                <label className="poll-choice">
                  <input
                    type="checkbox"
                    checked={selected.includes(option.id)}
                    onChange={(event) =>
                      setSelected(
                        event.target.checked ? [...selected, option.id] : selected.filter((id) => id !== option.id),
                      )
                    }
                  />
                  {option.option_text}
                </label>
              </li>
            ))}
          </ul>
          {poll.secret && <p className="muted">{POLL_TEXTS.secretFinal}</p>}
          <button
            type="button"
            className="btn btn-primary btn-small"
            aria-haspopup="dialog"
            disabled={selected.length === 0}
            onClick={voteSelected}
          >
            {POLL_TEXTS.vote}
          </button>
        </>
      ) : picking ? (
        <>
          <ul className="poll-options" aria-label={`Options of ${poll.question}`}>
            {options.map((option) => (
              <li key={option.id}>
                <button
                  type="button"
                  className="poll-option"
                  aria-pressed={option.id === poll.userVote}
                  aria-haspopup={option.id === poll.userVote ? undefined : 'dialog'}
                  onClick={() => option.id !== poll.userVote && vote([option.id], option.option_text)}
                >
                  {option.option_text}
                </button>
              </li>
            ))}
          </ul>
          {poll.secret && <p className="muted">{POLL_TEXTS.secretFinal}</p>}
        </>
      ) : (
        <>
          {secretVoted && <p>{POLL_TEXTS.votedSecret}</p>}
          {hidden ? (
            <>
              <p>{closed ? POLL_TEXTS.resultsSoon : POLL_TEXTS.resultsAtClose}</p>
              <p className="muted">{POLL_TEXTS.voters(poll.votersCount ?? 0)}</p>
            </>
          ) : (
            <PollResults poll={poll} memberCount={memberCount} closed={closed} />
          )}
        </>
      )}

      {mayChange && (
        <div className="form-actions form-actions-start">
          <button
            type="button"
            className="btn btn-secondary btn-small"
            onClick={() => {
              setSelected(poll.userVotes ?? [])
              setChanging(!changing)
            }}
          >
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
