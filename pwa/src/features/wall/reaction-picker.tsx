import { REACTION_TYPES, type Reactions, type ReactionsSummary, type ReactionType } from '@buble/shared/wall'
import { REACTIONS } from './wall-texts.ts'

interface ReactionPickerProps {
  reactions: Reactions
  summary: ReactionsSummary
  userId: string
  onToggle: (type: ReactionType, on: boolean) => void
}

/** The six reactions as toggle buttons: each with its count, the user's own pressed. */
export function ReactionPicker({ reactions, summary, userId, onToggle }: ReactionPickerProps) {
  const mine = reactions[userId] ?? []
  return (
    <ul className="reactions" aria-label="Reactions">
      {REACTION_TYPES.map((type) => {
        const { emoji, label } = REACTIONS[type]
        const count = summary[type] ?? 0
        const pressed = mine.includes(type)
        return (
          <li key={type}>
            <button
              type="button"
              className={pressed ? 'reaction reaction-mine' : 'reaction'}
              aria-pressed={pressed}
              aria-label={count > 0 ? `${label}, ${count}` : label}
              title={label}
              onClick={() => onToggle(type, !pressed)}
            >
              <span aria-hidden="true">{emoji}</span>
              {count > 0 && (
                <span className="reaction-count" aria-hidden="true">
                  {count}
                </span>
              )}
            </button>
          </li>
        )
      })}
    </ul>
  )
}
