import { REACTION_TYPES, type Reactions, type ReactionsSummary, type ReactionType } from '@buble/shared/wall'

/** Each reaction as the picker shows it: an emoji, and the word a screen reader says (the chat's chips too). */
export const REACTIONS: Readonly<Record<ReactionType, { emoji: string; label: string }>> = {
  like: { emoji: '👍', label: 'Like' },
  love: { emoji: '❤️', label: 'Love' },
  laugh: { emoji: '😂', label: 'Laugh' },
  wow: { emoji: '😮', label: 'Wow' },
  sad: { emoji: '😢', label: 'Sad' },
  angry: { emoji: '😠', label: 'Angry' },
}

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
