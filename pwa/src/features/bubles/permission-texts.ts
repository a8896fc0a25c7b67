import type { Permission } from '@buble/shared/permissions'

/** How each custom permission reads in the member modal: a name, and what it allows (CONTRACT §4). */
export const PERMISSION_TEXTS: Readonly<Record<Permission, { label: string; hint: string }>> = {
  manage_buble: { label: 'Manage Buble', hint: 'Rename the Buble' },
  delete_buble: { label: 'Delete Buble', hint: 'Delete the Buble for everyone' },
  manage_members: { label: 'Manage members', hint: "Change other members' permissions" },
  invite_members: { label: 'Invite members', hint: 'Generate invite codes' },
  remove_members: { label: 'Remove members', hint: 'Remove members from the Buble' },
  change_roles: { label: 'Change roles', hint: "Change other members' roles" },
  manage_events: { label: 'Manage events', hint: "Edit and delete others' events" },
  manage_polls: { label: 'Manage polls', hint: "Edit and delete others' polls" },
  create_events: { label: 'Create events', hint: 'Add events to the Buble' },
  create_polls: { label: 'Create polls', hint: 'Add polls to the Buble' },
  // Reports and muting do not exist yet (CONTRACT §4): until they do, the hint says what it grants today.
  moderate_content: {
    label: 'Moderate content',
    hint: 'Mute members, and see and act on reports',
  },
  delete_others_content: {
    label: "Delete others' content",
    hint: "Delete others' posts, comments, chat messages and stories",
  },
  pin_posts: { label: 'Pin posts', hint: 'Pin up to 3 posts to the top of the wall' },
}
