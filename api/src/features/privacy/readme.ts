/** README.txt of a data export: what each file in the archive holds. */

export function exportReadme(email: string, exportedAt: Date): string {
  return `Your Buble data
===============

Exported for ${email} on ${exportedAt.toISOString()} (UTC).

This archive holds everything you wrote or uploaded in Buble. Each .json file is a
JSON array with one entry per row, except profile.json, which is one object. Times are
ISO 8601 in UTC. Other members' posts, messages and votes are not included.

profile.json             Your account: name, e-mail, bio, avatar, role, when you joined,
                         whether push notifications are on, and a scheduled deletion.
memberships.json         The bubles you belong to: name, slug, your role, your permissions
                         and when you joined.
posts.json               Wall posts you wrote.
comments.json            Comments you wrote (post_id names the post).
reactions.json           Your reactions to posts (on "post") and to chat messages
                         (on "chat_message").
stories.json             Stories you shared that have not expired yet.
chat-messages.json       Chat messages you sent.
events.json              Events you created.
rsvps.json               Your answers to events (going, maybe, cant_go), with the event.
polls.json               Polls you created, with their options and vote counts.
votes.json               Your votes, with the poll question and the option you chose. Votes in
                         secret polls are not here: nobody's secret choice is kept anywhere.
push-subscriptions.json  The devices that get your notifications (push endpoints only).
sessions.json            The devices signed in to your account: device, browser, place if
                         known, when signed in and last used. No IP address is kept.
files/                   The files you uploaded: your avatar, images and story media.
                         A link like /api/uploads/secure/NAME in the other files is
                         files/NAME here.
`.replace(/\n/g, '\r\n')
}
