/**
 * Small MP4 and WebM files built byte by byte, shaped like what phones and browsers write and
 * carrying location where they put it: MP4 `udta/©xyz`, Apple's `meta` keys, an XMP `uuid` box, a
 * timed-metadata track of GPS fixes; WebM Tags with a `LOCATION` SimpleTag, a Title, a track Name.
 */

import { randomBytes } from 'node:crypto'

/** The position every fixture carries, in ISO 6709 as phones write it. */
export const GPS = '+59.3293+018.0686/'
/** Texts that must not survive cleaning (GPS among them). */
export const PERSONAL = [GPS, 'Pixel of Ada', 'Pixel 9', 'GPSLatitude', 'Trip to the lake', 'LOCATION'] as const
/** The uuid XMP is stored under (Adobe XMP spec part 3). */
const XMP_UUID = Buffer.from('be7acfcb97a942e89c71999491e3afac', 'hex')

// ---------------------------------------------------------------------------------------------
// MP4

export const u32 = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n)
  return b
}
const u16 = (n: number) => {
  const b = Buffer.alloc(2)
  b.writeUInt16BE(n)
  return b
}
type Part = string | Buffer
const bytesOf = (parts: Part[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p)))

export const box = (type: string | Buffer, ...payload: Part[]) => {
  const body = bytesOf(payload)
  return Buffer.concat([u32(8 + body.length), typeof type === 'string' ? Buffer.from(type, 'latin1') : type, body])
}
/** A full box: version and flags first. */
export const fullBox = (type: string, version: number, ...payload: Part[]) =>
  box(type, Buffer.from([version, 0, 0, 0]), ...payload)

/** A table box: version and flags, an entry count, the entries as 32-bit numbers. */
const table = (type: string, rows: number[][]) => fullBox(type, 0, u32(rows.length), ...rows.flat().map(u32))

interface TrackSpec {
  id: number
  handler: string
  /** The sample entry inside stsd, kept as sent. */
  sampleEntry: Buffer
  /** The samples of each chunk. */
  chunks: Buffer[][]
  /** Extra boxes inside the trak (a udta, say). */
  extra?: Buffer[]
}

const trak = (spec: TrackSpec, chunkOffsets: number[]) => {
  const samples = spec.chunks.flat()
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, u32(1), spec.sampleEntry),
    table('stts', [[samples.length, 512]]),
    table(
      'stsc',
      spec.chunks.map((chunk, i) => [i + 1, chunk.length, 1]),
    ),
    fullBox('stsz', 0, u32(0), u32(samples.length), ...samples.map((s) => u32(s.length))),
    table(
      'stco',
      chunkOffsets.map((offset) => [offset]),
    ),
  )
  const mediaHeader = spec.handler === 'vide' ? fullBox('vmhd', 0, Buffer.alloc(8)) : fullBox('nmhd', 0)
  return box(
    'trak',
    fullBox('tkhd', 0, u32(0), u32(0), u32(spec.id), Buffer.alloc(72)),
    box('edts', fullBox('elst', 0, u32(1), u32(1000), u32(0), u32(0x10000))),
    box(
      'mdia',
      fullBox('mdhd', 0, Buffer.alloc(20)),
      fullBox('hdlr', 0, u32(0), spec.handler, Buffer.alloc(12), 'Core Media\0'),
      box('minf', mediaHeader, box('dinf', fullBox('dref', 0, u32(1), fullBox('url ', 0))), stbl),
    ),
    ...(spec.extra ?? []),
  )
}

const avc1 = () =>
  box('avc1', Buffer.alloc(78), box('avcC', Buffer.from([1, 0x64, 0, 0x1f, 0xff, 0xe1]), randomBytes(20)))

/**
 * A phone's MP4: a video track and a timed-metadata track of GPS fixes, their chunks interleaved
 * in one mdat; `udta/©xyz` and a track `udta/name`; Apple's `meta` with a location key; an XMP
 * `uuid` box with GPS; a `free` box with leftovers. Answers the file, its mdat, and where each
 * video chunk lies.
 */
export function phoneMp4() {
  const video: TrackSpec = {
    id: 1,
    handler: 'vide',
    sampleEntry: avc1(),
    chunks: [[randomBytes(1000), randomBytes(800)], [randomBytes(700)]],
    extra: [box('udta', box('name', 'Pixel of Ada'))],
  }
  const fixes: TrackSpec = {
    id: 2,
    handler: 'meta',
    sampleEntry: box('mett', Buffer.alloc(8), 'application/x-gps\0'),
    chunks: [[Buffer.from(`fix 1 ${GPS}`)], [Buffer.from(`fix 2 ${GPS}`), Buffer.from(`fix 3 ${GPS}`)]],
  }
  const ftyp = box('ftyp', 'isom', u32(0x200), 'isomiso2avc1mp41')
  const xmp = box(
    'uuid',
    XMP_UUID,
    `<x:xmpmeta><rdf:Description exif:GPSLatitude="59,19.758N" exif:GPSLongitude="18,4.116E" xmp:Location="${GPS}"/></x:xmpmeta>`,
  )
  const leftovers = box('free', `old header: Pixel 9 ${GPS}`)
  const moovOf = (offsets: { video: number[]; fixes: number[] }) =>
    box(
      'moov',
      fullBox('mvhd', 0, Buffer.alloc(96)),
      trak(video, offsets.video),
      trak(fixes, offsets.fixes),
      box('udta', box(Buffer.from([0xa9, 0x78, 0x79, 0x7a]), u16(GPS.length), u16(0x15c7), GPS)),
      fullBox(
        'meta',
        0,
        fullBox('hdlr', 0, u32(0), 'mdta', Buffer.alloc(13)),
        fullBox(
          'keys',
          0,
          u32(2),
          box('mdta', 'com.apple.quicktime.location.ISO6709'),
          box('mdta', 'com.apple.quicktime.model'),
        ),
        box('ilst', box(u32(1), box('data', u32(1), u32(0), GPS)), box(u32(2), box('data', u32(1), u32(0), 'Pixel 9'))),
      ),
    )
  // Chunks interleaved as a muxer writes them: video 1, fixes 1, video 2, fixes 2.
  const order = [video.chunks[0]!, fixes.chunks[0]!, video.chunks[1]!, fixes.chunks[1]!]
  const payload = Buffer.concat(order.flat())
  const placeholder = moovOf({ video: [0, 0], fixes: [0, 0] })
  const mdatStart = ftyp.length + xmp.length + placeholder.length + leftovers.length + 8
  const starts: number[] = []
  let at = mdatStart
  for (const chunk of order) {
    starts.push(at)
    at += Buffer.concat(chunk).length
  }
  const moov = moovOf({ video: [starts[0]!, starts[2]!], fixes: [starts[1]!, starts[3]!] })
  const mdat = box('mdat', payload)
  const file = Buffer.concat([ftyp, xmp, moov, leftovers, mdat])
  const videoChunks = [
    { start: starts[0]!, bytes: Buffer.concat(order[0]!) },
    { start: starts[2]!, bytes: Buffer.concat(order[2]!) },
  ]
  const fixChunks = [
    { start: starts[1]!, bytes: Buffer.concat(order[1]!) },
    { start: starts[3]!, bytes: Buffer.concat(order[3]!) },
  ]
  return { file, mdat, videoChunks, fixChunks }
}

/** A fragmented MP4 as MediaRecorder writes it: an empty moov with mvex, then moof + mdat, here with an XMP uuid in the traf. */
export function fragmentedMp4({ fragmentTrack = 1 } = {}) {
  const video: TrackSpec = { id: 1, handler: 'vide', sampleEntry: avc1(), chunks: [] }
  const samples = [randomBytes(600), randomBytes(400)]
  const moofOf = (dataOffset: number) =>
    box(
      'moof',
      fullBox('mfhd', 0, u32(1)),
      box(
        'traf',
        // default-base-is-moof; the trun gives a data offset and each sample's size.
        box('tfhd', Buffer.from([0, 0x02, 0, 0]), u32(fragmentTrack)),
        fullBox('tfdt', 0, u32(0)),
        box(
          'trun',
          Buffer.from([0, 0, 0x02, 0x01]),
          u32(samples.length),
          u32(dataOffset),
          ...samples.map((s) => u32(s.length)),
        ),
        box('uuid', XMP_UUID, `<x:xmpmeta exif:GPSLatitude="59,19.758N" xmp:Location="${GPS}"/>`),
      ),
    )
  const moof = moofOf(moofOf(0).length + 8)
  const mdat = box('mdat', ...samples)
  const file = Buffer.concat([
    box('ftyp', 'iso5', u32(0x200), 'iso5iso6mp41'),
    box(
      'moov',
      fullBox('mvhd', 0, Buffer.alloc(96)),
      trak(video, []),
      box('mvex', fullBox('trex', 0, u32(1), Buffer.alloc(16))),
    ),
    moof,
    mdat,
  ])
  return { file, mdat }
}

/** The top-level boxes of an MP4 (or those inside [start, end)): type, start and size. */
export function mp4Layout(file: Buffer, start = 0, end = file.length) {
  const boxes: { type: string; start: number; size: number }[] = []
  for (let at = start; at < end; ) {
    const size = file.readUInt32BE(at)
    boxes.push({ type: file.toString('latin1', at + 4, at + 8), start: at, size })
    if (size < 8) throw new Error(`bad box at ${at}`)
    at += size
  }
  return boxes
}

// ---------------------------------------------------------------------------------------------
// WebM

/** An EBML element: the ID as written (marker bits included), a minimal size vint, the payload. */
export function ebml(id: number, ...payload: (Part | number)[]): Buffer {
  const body = Buffer.concat(
    payload.map((p) => (typeof p === 'number' ? uint(p) : typeof p === 'string' ? Buffer.from(p, 'utf8') : p)),
  )
  return Buffer.concat([idBytes(id), sizeVint(body.length), body])
}
/** An element of unknown size (all ones), as MediaRecorder writes the Segment and its Clusters. */
export const unknownSize = (id: number, ...payload: Buffer[]) =>
  Buffer.concat([idBytes(id), Buffer.from('01ffffffffffffff', 'hex'), ...payload])

const idBytes = (id: number) =>
  Buffer.from(id.toString(16).padStart(id > 0xffffff ? 8 : id > 0xffff ? 6 : id > 0xff ? 4 : 2, '0'), 'hex')
const uint = (n: number) =>
  n === 0
    ? Buffer.from([0])
    : Buffer.from(n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, '0'), 'hex')
/** A fixed four-byte unsigned integer (a SeekPosition written before the positions are known). */
const uint4 = (n: number) => u32(n)
function sizeVint(n: number): Buffer {
  for (let length = 1; length <= 8; length++) {
    if (n <= 2 ** (7 * length) - 2) {
      const out = Buffer.alloc(length)
      let rest = n
      for (let i = length - 1; i >= 0; i--) {
        out[i] = rest % 256
        rest = Math.floor(rest / 256)
      }
      out[0] = out[0]! | (0x80 >> (length - 1))
      return out
    }
  }
  throw new Error('too large')
}

export const WEBM_IDS = {
  ebml: 0x1a45dfa3,
  segment: 0x18538067,
  seekHead: 0x114d9b74,
  seek: 0x4dbb,
  seekId: 0x53ab,
  seekPosition: 0x53ac,
  info: 0x1549a966,
  tracks: 0x1654ae6b,
  cluster: 0x1f43b675,
  cues: 0x1c53bb6b,
  tags: 0x1254c367,
  void: 0xec,
} as const

const webmHeader = () =>
  ebml(
    WEBM_IDS.ebml,
    ebml(0x4286, 1),
    ebml(0x42f7, 1),
    ebml(0x42f2, 4),
    ebml(0x42f3, 8),
    ebml(0x4282, 'webm'),
    ebml(0x4287, 4),
    ebml(0x4285, 2),
  )

const info = (withTitle: boolean) =>
  ebml(
    WEBM_IDS.info,
    ebml(0x2ad7b1, 1_000_000),
    ebml(0x4d80, 'Lavf61.1.100'),
    ebml(0x5741, 'Lavf61.1.100'),
    ...(withTitle ? [ebml(0x7ba9, 'Trip to the lake')] : []),
    ebml(0x4489, Buffer.from('40a7700000000000', 'hex')),
  )
const tracks = (name?: string) =>
  ebml(
    WEBM_IDS.tracks,
    ebml(
      0xae,
      ebml(0xd7, 1),
      ebml(0x73c5, 0x1234),
      ebml(0x83, 1),
      ebml(0x86, 'V_VP9'),
      ...(name ? [ebml(0x536e, name)] : []),
      ebml(0xe0, ebml(0xb0, 320), ebml(0xba, 240)),
    ),
  )
const simpleBlock = (size: number) => ebml(0xa3, Buffer.from([0x81, 0, 0, 0x80]), randomBytes(size))
/** Tags as ffmpeg and phones write them: a global Tag with LOCATION, and a track's ENCODER. */
const locationTags = () =>
  ebml(
    WEBM_IDS.tags,
    ebml(0x7373, ebml(0x63c0), ebml(0x67c8, ebml(0x45a3, 'LOCATION'), ebml(0x4487, GPS))),
    ebml(0x7373, ebml(0x63c0, ebml(0x63c5, 0x1234)), ebml(0x67c8, ebml(0x45a3, 'ENCODER'), ebml(0x4487, 'Pixel 9'))),
  )

/**
 * A seekable WebM as ffmpeg writes it: a Segment of known size with a SeekHead (Info, Tracks,
 * Tags, Cues), Info with a Title, a track with a Name, a Cluster, Cues, then Tags with LOCATION.
 * Answers the file and the parts that must go (to be voided) or stay (byte for byte).
 */
export function seekableWebm() {
  const infoEl = info(true)
  const tracksEl = tracks('Pixel of Ada')
  const cluster = ebml(WEBM_IDS.cluster, ebml(0xe7, 0), simpleBlock(1500), simpleBlock(900))
  const cuesOf = (clusterPosition: number) =>
    ebml(WEBM_IDS.cues, ebml(0xbb, ebml(0xb3, 0), ebml(0xb7, ebml(0xf7, 1), ebml(0xf1, uint4(clusterPosition)))))
  const tags = locationTags()
  const seek = (id: number, position: number) =>
    ebml(WEBM_IDS.seek, ebml(WEBM_IDS.seekId, idBytes(id)), ebml(WEBM_IDS.seekPosition, uint4(position)))
  const seekHeadOf = (p: Record<'info' | 'tracks' | 'tags' | 'cues', number>) =>
    ebml(
      WEBM_IDS.seekHead,
      seek(WEBM_IDS.info, p.info),
      seek(WEBM_IDS.tracks, p.tracks),
      seek(WEBM_IDS.tags, p.tags),
      seek(WEBM_IDS.cues, p.cues),
    )
  // Positions are relative to the Segment's data; the SeekHead's size does not depend on them.
  const seekHeadSize = seekHeadOf({ info: 0, tracks: 0, tags: 0, cues: 0 }).length
  const positions = {
    info: seekHeadSize,
    tracks: seekHeadSize + infoEl.length,
    cluster: seekHeadSize + infoEl.length + tracksEl.length,
  }
  const cues = cuesOf(positions.cluster)
  const cuesAt = positions.cluster + cluster.length
  const tagsAt = cuesAt + cues.length
  const seekHead = seekHeadOf({ info: positions.info, tracks: positions.tracks, tags: tagsAt, cues: cuesAt })
  const file = Buffer.concat([webmHeader(), ebml(WEBM_IDS.segment, seekHead, infoEl, tracksEl, cluster, cues, tags)])
  const range = (part: Buffer) => {
    const start = file.indexOf(part)
    if (start < 0 || file.indexOf(part, start + 1) >= 0) throw new Error('not found once')
    return { start, end: start + part.length }
  }
  return {
    file,
    /** Where the Segment's data starts: SeekPosition and CueClusterPosition count from here. */
    segmentData: file.indexOf(seekHead),
    positions: { ...positions, cues: cuesAt, tags: tagsAt },
    voided: {
      tags: range(tags),
      title: range(ebml(0x7ba9, 'Trip to the lake')),
      name: range(ebml(0x536e, 'Pixel of Ada')),
      tagsSeek: range(seek(WEBM_IDS.tags, tagsAt)),
    },
    kept: { cluster: range(cluster), cues: range(cues) },
  }
}

/** A WebM as a browser's MediaRecorder writes it (Segment and Clusters of unknown size), then Tags with LOCATION. */
export function recordedWebm({ withTags = true } = {}) {
  const before = Buffer.concat([
    webmHeader(),
    Buffer.from('18538067', 'hex'),
    Buffer.from('01ffffffffffffff', 'hex'),
    info(false),
    tracks(),
    unknownSize(WEBM_IDS.cluster, ebml(0xe7, 0), simpleBlock(1200), simpleBlock(300)),
    unknownSize(WEBM_IDS.cluster, ebml(0xe7, 66), simpleBlock(800)),
  ])
  const tags = withTags ? locationTags() : Buffer.alloc(0)
  return { file: Buffer.concat([before, tags]), tags: { start: before.length, end: before.length + tags.length } }
}

/** Reads the Void element at `at`: answers where it ends (ID 0xEC, a size vint, zeros). */
export function voidEnd(file: Buffer, at: number): number {
  if (file[at] !== WEBM_IDS.void) throw new Error(`no Void at ${at}`)
  const first = file[at + 1]!
  const length = Math.clz32(first) - 23
  let size = first & (0xff >> length)
  for (let i = 1; i < length; i++) size = size * 256 + file[at + 1 + i]!
  const body = at + 1 + length
  if (!file.subarray(body, body + size).equals(Buffer.alloc(size))) throw new Error('a Void that is not zeroed')
  return body + size
}
