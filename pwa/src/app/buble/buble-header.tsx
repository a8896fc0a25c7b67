import type { MemberActor } from '@buble/shared/permissions'
import type { LocalBuble } from '../../data/bubles.ts'
import { BubleActions } from '../../features/bubles/buble-actions.tsx'
import { ChatLauncher } from '../../features/chat/chat-launcher.tsx'
import { SearchLauncher } from '../../features/search/search-launcher.tsx'
import { AvatarStack } from '../../ui/avatar-stack.tsx'
import { plural } from '../../ui/format.ts'

const HEADER_AVATARS = 4

/**
 * The buble page's compact title bar: the name (cut with an ellipsis, whole in its title), the member
 * avatars, the chat launcher and the overflow menu. It stays at the top with the tabs below it.
 */
export function BubleHeader({
  buble,
  actor,
  onRemoving,
}: {
  buble: LocalBuble
  actor: MemberActor
  onRemoving: (removing: boolean) => void
}) {
  return (
    <header className="buble-head">
      <div className="buble-head-main">
        <h1 className="buble-name clamp-1" title={buble.name}>
          {buble.name}
        </h1>
        <div className="buble-meta" title={plural(buble.member_count, 'member')}>
          <AvatarStack people={buble.members} total={buble.member_count} max={HEADER_AVATARS} size={24} />
          <span className="visually-hidden">{plural(buble.member_count, 'member')}</span>
          {buble._pending && <span className="badge badge-warning">Not synced yet</span>}
        </div>
      </div>
      <div className="buble-head-side">
        <SearchLauncher buble={buble} />
        <ChatLauncher buble={buble} />
        <BubleActions buble={buble} actor={actor} onRemoving={onRemoving} />
      </div>
    </header>
  )
}
