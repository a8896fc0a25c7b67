/**
 * Metadata out of uploaded videos without re-encoding them (there is no ffmpeg here) and without
 * moving a byte, so every offset inside the file (MP4 chunk offsets, WebM SeekHead and Cues) stays
 * right. Both walkers change the bytes in place and answer false when the structure does not add
 * up; such a file is refused rather than stored with whatever it carries.
 *
 * MP4 (ISO/IEC 14496-12): an allow-list of the boxes a player reads (the ones ffmpeg's mov demuxer
 * and browsers parse for playback). Every other box, at any depth, becomes a zeroed `free` box of
 * the same size: `udta` (a phone's `©xyz` GPS, the title), `meta` (Apple's location keys, make and
 * model), `uuid` (XMP, which can carry GPS), `free`/`skip` leftovers and anything unknown. A track
 * that is neither video nor sound (a GoPro or iPhone timed-metadata track of GPS fixes, a timecode,
 * a subtitle) is blanked whole and its samples in `mdat` are zeroed too.
 *
 * WebM (Matroska, RFC 9559): of the Segment's children only SeekHead, Info, Tracks, Cluster and
 * Cues are kept; Tags (where `LOCATION` lives), Chapters, Attachments and anything unknown become a
 * Void element of the same size, as do Info's Title, each track's Name and the SeekHead entries
 * that pointed at what was removed.
 */

// ---------------------------------------------------------------------------------------------
// MP4

/** Each container walked into, with the children kept in it; every other child is blanked. */
const MP4_KEEP: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  Object.entries({
    // The file itself.
    '': ['ftyp', 'styp', 'moov', 'moof', 'mdat', 'sidx', 'ssix', 'mfra'],
    moov: ['mvhd', 'trak', 'mvex', 'iods', 'pssh'],
    trak: ['tkhd', 'tref', 'edts', 'mdia'],
    edts: ['elst'],
    mdia: ['mdhd', 'hdlr', 'minf'],
    minf: ['vmhd', 'smhd', 'hmhd', 'nmhd', 'sthd', 'dinf', 'stbl'],
    dinf: ['dref'],
    // `stsd` (the codec configuration, sample entries and their children) is kept whole.
    stbl: [
      'stsd',
      'stts',
      'ctts',
      'cslg',
      'stsc',
      'stsz',
      'stz2',
      'stco',
      'co64',
      'stss',
      'stsh',
      'stdp',
      'sdtp',
      'padb',
      'sbgp',
      'sgpd',
      'subs',
      'saiz',
      'saio',
    ],
    mvex: ['mehd', 'trex', 'leva', 'trep'],
    moof: ['mfhd', 'traf', 'pssh'],
    traf: ['tfhd', 'tfdt', 'trun', 'sbgp', 'sgpd', 'subs', 'saiz', 'saio', 'senc'],
    mfra: ['tfra', 'mfro'],
  }).map(([parent, kept]) => [parent, new Set(kept)]),
)
/** Handler types of the tracks a story plays; any other track goes, samples and all. */
const PLAYED_HANDLERS = new Set(['vide', 'soun'])
const FREE = [0x66, 0x72, 0x65, 0x65] // 'free'

class Unreadable extends Error {}
const unreadable = (why: string): never => {
  throw new Unreadable(why)
}

interface Box {
  type: string
  start: number
  /** Where the payload starts (after the 8- or 16-byte header). */
  body: number
  end: number
}

/** The boxes that exactly fill [start, end); anything that overruns or falls short is unreadable. */
function mp4Boxes(bytes: Uint8Array, view: DataView, start: number, end: number): Box[] {
  const boxes: Box[] = []
  for (let at = start; at < end; ) {
    if (at + 8 > end) unreadable('a box header is cut off')
    let size = view.getUint32(at)
    let header = 8
    if (size === 1) {
      if (at + 16 > end) unreadable('a large box header is cut off')
      const large = view.getBigUint64(at + 8)
      size = large > BigInt(end - at) ? Number.POSITIVE_INFINITY : Number(large)
      header = 16
    } else if (size === 0) size = end - at // the last box runs to the end
    if (size < header || at + size > end) unreadable('a box overruns its container')
    boxes.push({
      type: String.fromCharCode(...bytes.subarray(at + 4, at + 8)),
      start: at,
      body: at + header,
      end: at + size,
    })
    at += size
  }
  return boxes
}

const child = (boxes: readonly Box[], type: string) => boxes.find((box) => box.type === type)

/**
 * Blanks, in place, every MP4 box that playback does not need (see above). Answers false, having
 * maybe blanked part of it, when the box structure does not add up.
 */
export function blankMp4Metadata(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const boxesIn = (start: number, end: number) => mp4Boxes(bytes, view, start, end)
  const blank = (box: Box) => {
    bytes.set(FREE, box.start + 4)
    bytes.fill(0, box.body, box.end)
  }
  /** Zeroes [from, from + length) if it lies inside one `mdat`'s payload; anything else is unreadable. */
  const zeroMediaData = (from: number, length: number) => {
    if (length === 0) return
    // The last mdat starting at or before `from` (they are in file order): a binary search, since a
    // crafted file may hold millions of tiny ones.
    let low = 0
    let high = mdats.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (mdats[middle]!.body <= from) low = middle
      else high = middle - 1
    }
    const mdat = mdats[low]
    if (!mdat || from < mdat.body || from + length > mdat.end) unreadable('a sample lies outside the media data')
    bytes.fill(0, from, from + length)
  }
  /** Video and sound tracks, by track_ID: the only ones a fragment may carry samples for. */
  const playedTracks = new Set<number>()

  function clean(container: string, start: number, end: number): void {
    const kept = MP4_KEEP[container]!
    for (const box of boxesIn(start, end)) {
      if (!kept.has(box.type)) blank(box)
      else if (box.type === 'trak') cleanTrack(box)
      else if (box.type === 'traf') {
        if (!playedTracks.has(fragmentTrackId(box))) unreadable('a fragment of a track that is not played')
        clean('traf', box.body, box.end)
      } else if (box.type in MP4_KEEP) clean(box.type, box.body, box.end)
    }
  }

  function cleanTrack(trak: Box): void {
    const children = boxesIn(trak.body, trak.end)
    const tkhd = child(children, 'tkhd') ?? unreadable('a track without a header')
    const mdia = child(children, 'mdia') ?? unreadable('a track without media')
    const mediaBoxes = boxesIn(mdia.body, mdia.end)
    const hdlr = child(mediaBoxes, 'hdlr') ?? unreadable('a track without a handler')
    if (hdlr.body + 12 > hdlr.end) unreadable('a handler box is too short')
    const handler = String.fromCharCode(...bytes.subarray(hdlr.body + 8, hdlr.body + 12))
    if (PLAYED_HANDLERS.has(handler)) {
      playedTracks.add(trackId(tkhd))
      clean('trak', trak.body, trak.end)
      return
    }
    const minf = child(mediaBoxes, 'minf') ?? unreadable('a track without media information')
    const stbl = child(boxesIn(minf.body, minf.end), 'stbl') ?? unreadable('a track without a sample table')
    zeroSamples(boxesIn(stbl.body, stbl.end))
    blank(trak)
  }

  /** tkhd: version and flags, then two times of 4 bytes (version 0) or 8 (version 1), then the track_ID. */
  function trackId(tkhd: Box): number {
    const at = tkhd.body + (bytes[tkhd.body] === 1 ? 20 : 12)
    if (at + 4 > tkhd.end) unreadable('a track header is too short')
    return view.getUint32(at)
  }

  /** tfhd: version and flags, then the track_ID. */
  function fragmentTrackId(traf: Box): number {
    const tfhd = child(boxesIn(traf.body, traf.end), 'tfhd') ?? unreadable('a fragment without a header')
    if (tfhd.body + 8 > tfhd.end) unreadable('a fragment header is too short')
    return view.getUint32(tfhd.body + 4)
  }

  /** Counted entries of a full box: version and flags, the count at `countAt`, entries from `countAt + 4`. */
  function entries(box: Box, entrySize: number, countAt = 4): { count: number; first: number } {
    if (box.body + countAt + 4 > box.end) unreadable(`${box.type} is too short`)
    const count = view.getUint32(box.body + countAt)
    const first = box.body + countAt + 4
    if (first + count * entrySize > box.end) unreadable(`${box.type} holds fewer entries than it counts`)
    return { count, first }
  }

  /** Zeroes every sample of a track in the media data: chunks from stco/co64, samples per chunk from stsc, sizes from stsz/stz2. */
  function zeroSamples(table: readonly Box[]): void {
    const co64 = child(table, 'co64')
    const offsets = co64 ?? child(table, 'stco') ?? unreadable('a sample table without chunk offsets')
    const chunks = entries(offsets, co64 ? 8 : 4)
    const chunkOffset = (i: number) =>
      co64 ? Number(view.getBigUint64(chunks.first + i * 8)) : view.getUint32(chunks.first + i * 4)
    const stsc = child(table, 'stsc') ?? unreadable('a sample table without sample-to-chunk')
    const runs = entries(stsc, 12)
    const sizes = sampleSizes(table)

    let sample = 0
    for (let run = 0; run < runs.count; run++) {
      const firstChunk = view.getUint32(runs.first + run * 12) - 1
      const perChunk = view.getUint32(runs.first + run * 12 + 4)
      const nextFirst = run + 1 < runs.count ? view.getUint32(runs.first + (run + 1) * 12) - 1 : chunks.count
      const gap = run === 0 ? firstChunk !== 0 : firstChunk < 0
      if (gap || nextFirst < firstChunk || nextFirst > chunks.count) unreadable('stsc does not add up')
      for (let chunk = firstChunk; chunk < nextFirst; chunk++) {
        zeroMediaData(chunkOffset(chunk), sizes.sum(sample, perChunk))
        sample += perChunk
      }
    }
    // Samples that no chunk places would be left behind in the media data.
    if (sample !== sizes.count) unreadable('fewer samples in chunks than sizes')
  }

  /** The bytes of `samples` samples from index `from`, in time proportional to the table, never to a count it claims. */
  function sampleSizes(table: readonly Box[]): { count: number; sum: (from: number, samples: number) => number } {
    const { count, of } = sizeTable(table)
    return {
      count,
      sum(from, samples) {
        if (from + samples > count) unreadable('more samples in chunks than sizes')
        if (typeof of === 'number') return samples * of
        let total = 0
        for (let i = from; i < from + samples; i++) total += of(i)
        return total
      },
    }
  }

  /** stsz: one size for all (a number) or a table; stz2: a table packed in 4, 8 or 16 bits. */
  function sizeTable(table: readonly Box[]): { count: number; of: number | ((index: number) => number) } {
    const stsz = child(table, 'stsz')
    if (stsz) {
      if (stsz.body + 12 > stsz.end) unreadable('stsz is too short')
      const fixed = view.getUint32(stsz.body + 4)
      const { count, first } = entries(stsz, fixed === 0 ? 4 : 0, 8)
      return { count, of: fixed !== 0 ? fixed : (index) => view.getUint32(first + index * 4) }
    }
    const stz2 = child(table, 'stz2') ?? unreadable('a sample table without sample sizes')
    if (stz2.body + 12 > stz2.end) unreadable('stz2 is too short')
    const bits = bytes[stz2.body + 7]!
    if (bits !== 4 && bits !== 8 && bits !== 16) unreadable('stz2 has an unknown field size')
    const { count, first } = entries(stz2, 0, 8)
    if (first + Math.ceil((count * bits) / 8) > stz2.end) unreadable('stz2 holds fewer sizes than it counts')
    return {
      count,
      of(index) {
        if (bits === 16) return view.getUint16(first + index * 2)
        if (bits === 8) return bytes[first + index]!
        const byte = bytes[first + (index >> 1)]!
        return index % 2 === 0 ? byte >> 4 : byte & 0x0f
      },
    }
  }

  let mdats: Box[] = []
  try {
    const top = boxesIn(0, bytes.length)
    mdats = top.filter((box) => box.type === 'mdat')
    clean('', 0, bytes.length)
    return true
  } catch (err) {
    if (err instanceof Unreadable) return false
    throw err
  }
}

// ---------------------------------------------------------------------------------------------
// WebM

const EBML_HEADER = 0x1a45dfa3
const SEGMENT = 0x18538067
const SEEK_HEAD = 0x114d9b74
const SEEK = 0x4dbb
const SEEK_ID = 0x53ab
const INFO = 0x1549a966
const TITLE = 0x7ba9
const TRACKS = 0x1654ae6b
const TRACK_ENTRY = 0xae
const TRACK_NAME = 0x536e
const CLUSTER = 0x1f43b675
const CUES = 0x1c53bb6b
const VOID = 0xec
const CRC32 = 0xbf
/** The Segment's children a player needs; Tags, Chapters, Attachments and the unknown go. */
const SEGMENT_KEEP = new Set([SEEK_HEAD, INFO, TRACKS, CLUSTER, CUES])
/** What a Cluster may hold: the first element that is none of these ends a Cluster of unknown size. */
const CLUSTER_CHILDREN = new Set([0xe7, 0x5854, 0xa7, 0xab, 0xa3, 0xa0, 0xaf, VOID, CRC32])

interface Element {
  id: number
  start: number
  /** Where the data starts, after the ID and the size. */
  body: number
  /** Undefined while the size is unknown (all ones), as MediaRecorder writes the Segment and its Clusters. */
  end: number | undefined
}

/** The element at `at`: its ID (1 to 4 bytes, marker kept) and its size (a 1 to 8 byte vint). */
function readElement(bytes: Uint8Array, at: number, limit: number): Element {
  const first = bytes[at]
  if (first === undefined || at >= limit) return unreadable('an element is cut off')
  const idLength = Math.clz32(first) - 23
  if (idLength < 1 || idLength > 4 || at + idLength >= limit) unreadable('an element ID is invalid or cut off')
  let id = 0
  for (let i = 0; i < idLength; i++) id = id * 256 + bytes[at + i]!
  const sizeAt = at + idLength
  const sizeFirst = bytes[sizeAt]!
  const sizeLength = Math.clz32(sizeFirst) - 23
  if (sizeLength < 1 || sizeLength > 8 || sizeAt + sizeLength > limit)
    unreadable('an element size is invalid or cut off')
  let size = sizeFirst & (0xff >> sizeLength)
  let allOnes = size === 0xff >> sizeLength
  for (let i = 1; i < sizeLength; i++) {
    const byte = bytes[sizeAt + i]!
    size = size * 256 + byte
    allOnes &&= byte === 0xff
  }
  const body = sizeAt + sizeLength
  if (allOnes) return { id, start: at, body, end: undefined }
  if (body + size > limit) unreadable('an element overruns its parent')
  return { id, start: at, body, end: body + size }
}

/** The children that exactly fill [start, end), each of a known size. */
function ebmlChildren(bytes: Uint8Array, start: number, end: number): (Element & { end: number })[] {
  const children: (Element & { end: number })[] = []
  for (let at = start; at < end; ) {
    const element = readElement(bytes, at, end)
    if (element.end === undefined) unreadable('an element of unknown size where none is allowed')
    children.push(element as Element & { end: number })
    at = element.end!
  }
  return children
}

/** Overwrites [start, end) with one Void element: its ID, a size vint as long as needed, zeros. */
function writeVoid(bytes: Uint8Array, start: number, end: number): void {
  const total = end - start
  for (let length = 1; length <= 8; length++) {
    const size = total - 1 - length
    if (size < 0 || size > 2 ** (7 * length) - 2) continue
    bytes[start] = VOID
    let rest = size
    for (let i = length - 1; i >= 0; i--) {
      bytes[start + 1 + i] = rest % 256
      rest = Math.floor(rest / 256)
    }
    bytes[start + 1] = bytes[start + 1]! | (0x80 >> (length - 1))
    bytes.fill(0, start + 1 + length, end)
    return
  }
  unreadable('an element too short to be voided') // an element is at least 2 bytes, so never here
}

/**
 * Voids, in place, the WebM elements that playback does not need (see above). Answers false,
 * having maybe voided part of it, when the element structure does not add up.
 */
export function blankWebmMetadata(bytes: Uint8Array): boolean {
  const voidElement = (element: { start: number; end: number }) => writeVoid(bytes, element.start, element.end)

  /** Voids the children of [start, end) that `drop` names; a CRC-32 there would no longer match, so it goes too. */
  function voidChildren(start: number, end: number, drop: (child: Element & { end: number }) => boolean): void {
    const children = ebmlChildren(bytes, start, end)
    const dropped = children.filter(drop)
    if (dropped.length === 0) return
    for (const element of [...dropped, ...children.filter((c) => c.id === CRC32)]) voidElement(element)
  }

  const seekTarget = (seek: Element & { end: number }) => {
    const id = ebmlChildren(bytes, seek.body, seek.end).find((c) => c.id === SEEK_ID)
    if (!id || id.end - id.body > 4) return undefined
    let value = 0
    for (let i = id.body; i < id.end; i++) value = value * 256 + bytes[i]!
    return value
  }

  /** A Cluster of unknown size ends where an element that cannot be its child begins. */
  function clusterEnd(cluster: Element, limit: number): number {
    let at = cluster.body
    while (at < limit) {
      const element = readElement(bytes, at, limit)
      if (!CLUSTER_CHILDREN.has(element.id)) break
      if (element.end === undefined) unreadable('a cluster child of unknown size')
      at = element.end!
    }
    return at
  }

  function cleanSegment(segment: Element, limit: number): number {
    const end = segment.end ?? limit
    for (let at = segment.body; at < end; ) {
      const element = readElement(bytes, at, end)
      let elementEnd = element.end
      if (elementEnd === undefined) {
        if (element.id !== CLUSTER) unreadable('an element of unknown size that is no cluster')
        elementEnd = clusterEnd(element, end)
      }
      const known = { ...element, end: elementEnd }
      if (!SEGMENT_KEEP.has(element.id)) voidElement(known)
      else if (element.id === INFO) voidChildren(known.body, known.end, (c) => c.id === TITLE)
      else if (element.id === TRACKS) {
        for (const entry of ebmlChildren(bytes, known.body, known.end))
          if (entry.id === TRACK_ENTRY) voidChildren(entry.body, entry.end, (c) => c.id === TRACK_NAME)
      } else if (element.id === SEEK_HEAD) {
        voidChildren(known.body, known.end, (c) => c.id === SEEK && !SEGMENT_KEEP.has(seekTarget(c) ?? 0))
      }
      at = elementEnd
    }
    return end
  }

  try {
    const header = readElement(bytes, 0, bytes.length)
    if (header.id !== EBML_HEADER || header.end === undefined) unreadable('no EBML header')
    let segments = 0
    for (let at = header.end!; at < bytes.length; ) {
      const element = readElement(bytes, at, bytes.length)
      if (element.id === SEGMENT) {
        segments++
        at = cleanSegment(element, bytes.length)
      } else if (element.id === VOID && element.end !== undefined) at = element.end
      else unreadable('something other than a segment at the top level')
    }
    return segments > 0
  } catch (err) {
    if (err instanceof Unreadable) return false
    throw err
  }
}
