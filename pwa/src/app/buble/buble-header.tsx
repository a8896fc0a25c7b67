import type { LocalBuble } from '../../data/bubles.ts'
import { BubleActions } from '../../features/bubles/buble-actions.tsx'
import { MuteToggle } from '../../features/bubles/mute-toggle.tsx'
import { ChatLauncher } from '../../features/chat/chat-launcher.tsx'
import { AvatarStack } from '../../ui/avatar-stack.tsx'
import { formatDay, plural } from '../../ui/format.ts'

const HEADER_AVATARS = 4

export function BubleHeader({ buble, onRemoving }: { buble: LocalBuble; onRemoving: (removing: boolean) => void }) {
  return (
    <header className="buble-head">
      <div className="buble-head-main">
        <h1 className="buble-name">{buble.name}</h1>
        <p className="buble-meta">
          <span>Created {formatDay(buble.created_at)}</span>
          <span>{plural(buble.member_count, 'member')}</span>
          {buble._pending && <span className="badge badge-warning">Not synced yet</span>}
        </p>
        <AvatarStack people={buble.members} total={buble.member_count} max={HEADER_AVATARS} size={36} />
      </div>
      <div className="buble-head-side">
        <ChatLauncher buble={buble} />
        {buble.slug && <MuteToggle bubleId={buble.id} />}
        <BubleActions buble={buble} onRemoving={onRemoving} />
      </div>
    </header>
  )
}
