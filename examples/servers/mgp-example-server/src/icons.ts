/**
 * This server's icons (MCP 2025-11-25 `icons` on serverInfo, tools, resources and prompts): small PNGs
 * as base64 `data:` URIs, so a client needs no network to show them. The server's own icon comes in a
 * variant for light and one for dark themes; the tools', resource's and prompt's suit both.
 */

/** A 16 px hub (a ring around a dot), dark blue: made for a light background. */
const SERVER_LIGHT =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAPUlEQVR42mOQj1/BQAnGJvifAMZrwH8iMVYD8NqESx6bJCF/o6ilugHEemk4GzBwsUBxQqJKUqZKZiIZAwBRE5GkdbwBJgAAAABJRU5ErkJggg==';
/** The same hub, light blue: made for a dark background. */
const SERVER_DARK =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAPUlEQVR42mPo2vKDgRKMTfA/AYzXgP9EYqwG4LUJlzw2SUL+RlFLdQOI9dJwNmDgYoHihESVpEyVzEQyBgCUeqGz92y43AAAAABJRU5ErkJggg==';
/** A 16 px orange diamond. */
const ITEM =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAASUlEQVR42mO42aTNQAkmpOA/FJNlwH80TJIB/3Fgogz4TwDjNeA/kRirAf9JxCgG/CcTU88Air1AlUCkSjRSJSFRJSlTJTMRhQHV7fWg7CmeZQAAAABJRU5ErkJggg==';

export const SERVER_ICONS = [
  { src: SERVER_LIGHT, mimeType: 'image/png', sizes: ['16x16'], theme: 'light' as const },
  { src: SERVER_DARK, mimeType: 'image/png', sizes: ['16x16'], theme: 'dark' as const },
];

export const ITEM_ICONS = [{ src: ITEM, mimeType: 'image/png', sizes: ['16x16'] }];
