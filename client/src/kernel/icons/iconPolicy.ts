/**
 * Which server-provided icons the kernel shows (MCP 2025-11-25: `icons` on Implementation, Tool,
 * Resource, ResourceTemplate and Prompt; each `{ src, mimeType?, sizes?, theme? }`). Icons come from
 * servers, which are not trusted (SECURITY.md), so only two kinds of `src` are taken:
 * - a base64 `data:` URI of a PNG, JPEG, GIF or WebP image of at most ICON_MAX_BYTES;
 * - an `https:` URL whose host is not loopback, private, link-local or a metadata endpoint (the
 *   network_restricted judgement, MGP §4.5), fetched by the kernel (iconFetch.ts).
 * Everything else is refused: `http:`, `file:`, `javascript:`, other schemes, and SVG in any form (an
 * SVG is a document that can carry script and external references; a raster image cannot). The bytes
 * must be the image they claim to be (magic numbers), whatever the mime type says. Pure: no I/O.
 */
import { judgeHost } from '../net/hosts';

/** The most bytes of one icon, decoded: a tree row shows 16 px. */
export const ICON_MAX_BYTES = 64 * 1024;
/** The most icons of one list looked at: a server cannot make the kernel walk a huge array. */
export const ICON_LIST_MAX = 16;
/** The longest `src` looked at (a data URI of ICON_MAX_BYTES in base64, and its header). */
const SRC_MAX_CHARS = Math.ceil(ICON_MAX_BYTES / 3) * 4 + 128;

export type IconMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
export const ICON_MIME_TYPES: readonly IconMime[] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
];

/** One icon as a server listed it, its fields checked for type only. */
export interface ServerIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export type IconSource =
  { kind: 'data'; bytes: Buffer; mimeType: IconMime } | { kind: 'https'; url: URL };

export type IconVerdict = { ok: true; source: IconSource } | { ok: false; reason: string };

/** The icons of a listed item, shaped as the spec says; anything malformed is left out. */
export function iconsOf(value: unknown): ServerIcon[] {
  if (!Array.isArray(value)) return [];
  return value.slice(0, ICON_LIST_MAX).flatMap((raw): ServerIcon[] => {
    if (typeof raw !== 'object' || raw === null) return [];
    const { src, mimeType, sizes, theme } = raw as Record<string, unknown>;
    if (typeof src !== 'string') return [];
    return [
      {
        src,
        ...(typeof mimeType === 'string' ? { mimeType } : {}),
        ...(Array.isArray(sizes) ? { sizes: sizes.filter((s) => typeof s === 'string') } : {}),
        ...(theme === 'light' || theme === 'dark' ? { theme } : {}),
      },
    ];
  });
}

/** The image type the bytes are, read from their magic numbers; undefined for anything else. */
export function sniffImage(bytes: Uint8Array): IconMime | undefined {
  const ascii = (from: number, to: number) =>
    Buffer.from(bytes.subarray(from, to)).toString('latin1');
  if (bytes.length >= 8 && ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'image/jpeg';
  if (bytes.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a'))
    return 'image/gif';
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

function isIconMime(value: string): value is IconMime {
  return (ICON_MIME_TYPES as readonly string[]).includes(value);
}

/** The bytes of an image the kernel may show, or why not. */
export function judgeImageBytes(
  bytes: Uint8Array,
  declared?: string,
): { ok: true; mimeType: IconMime } | { ok: false; reason: string } {
  if (bytes.length > ICON_MAX_BYTES)
    return { ok: false, reason: `larger than ${ICON_MAX_BYTES} bytes` };
  const sniffed = sniffImage(bytes);
  if (!sniffed) return { ok: false, reason: 'not a PNG, JPEG, GIF or WebP image' };
  const claimed = declared?.split(';')[0].trim().toLowerCase();
  if (claimed && claimed !== sniffed)
    return { ok: false, reason: `says ${claimed} but is ${sniffed}` };
  return { ok: true, mimeType: sniffed };
}

function judgeDataUri(src: string): IconVerdict {
  const match = /^data:([^,;]*)((?:;[^,;]*)*),(.*)$/is.exec(src);
  if (!match) return { ok: false, reason: 'a malformed data: URI' };
  const mime = match[1].trim().toLowerCase();
  if (!isIconMime(mime)) return { ok: false, reason: `a data: URI of ${mime || 'no'} type` };
  const params = match[2].toLowerCase().split(';');
  if (!params.includes('base64')) return { ok: false, reason: 'a data: URI not in base64' };
  const text = match[3].replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text))
    return { ok: false, reason: 'a data: URI with invalid base64' };
  const bytes = Buffer.from(text, 'base64');
  const judged = judgeImageBytes(bytes, mime);
  return judged.ok
    ? { ok: true, source: { kind: 'data', bytes, mimeType: judged.mimeType } }
    : { ok: false, reason: `a data: URI ${judged.reason}` };
}

function judgeHttpsUrl(src: string): IconVerdict {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.username || url.password) return { ok: false, reason: 'a URL with credentials' };
  const verdict = judgeHost(url.hostname);
  if (!verdict) return { ok: false, reason: 'a URL without a valid host' };
  if (verdict.kind === 'restricted')
    return { ok: false, reason: `a URL to ${verdict.restriction.label}` };
  return { ok: true, source: { kind: 'https', url } };
}

/** Whether the kernel may show this icon, and where its bytes come from. */
export function judgeIcon(icon: ServerIcon): IconVerdict {
  const src = icon.src.trim();
  if (src.length > SRC_MAX_CHARS)
    return { ok: false, reason: `a src longer than ${SRC_MAX_CHARS} characters` };
  const declared = icon.mimeType?.split(';')[0].trim().toLowerCase();
  if (declared && !isIconMime(declared))
    return { ok: false, reason: `of type ${declared}, not PNG, JPEG, GIF or WebP` };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(src)?.[1].toLowerCase();
  if (scheme === 'data') return judgeDataUri(src);
  if (scheme === 'https') return judgeHttpsUrl(src);
  return {
    ok: false,
    reason: `${scheme ? `a ${scheme}: URI` : 'a relative URI'} (only data: and https: are shown)`,
  };
}

export interface ThemedIcons {
  /** For light themes: an icon marked `light`, else one without a theme, else any. */
  light: ServerIcon;
  /** For dark themes: an icon marked `dark`, else one without a theme, else any. */
  dark: ServerIcon;
}

/**
 * The icon for each theme among those the kernel may show. MCP 2025-11-25: `theme: "light"` is an icon
 * made for a light background. Undefined when none may be shown.
 */
export function pickIcons(icons: readonly ServerIcon[]): ThemedIcons | undefined {
  const allowed = icons.filter((icon) => judgeIcon(icon).ok);
  const best = (theme: 'light' | 'dark') =>
    allowed.find((i) => i.theme === theme) ??
    allowed.find((i) => i.theme === undefined) ??
    allowed[0];
  if (allowed.length === 0) return undefined;
  return { light: best('light'), dark: best('dark') };
}
