/**
 * Chat shorthand, read first (before `w/` looks like a folder): the word each stands for. Only
 * abbreviations with one reading in a request to a tool host (`pg` stays Postgres unless a page is
 * meant: `landing pg`).
 */
export const CHAT_SHORTHAND: ReadonlyArray<[RegExp, string]> = [
  [/(?<![\w/])w\/o(?![\w/])/gi, ' without '],
  [/(?<![\w/])w\/(?![\w/])/gi, ' with '],
  [/(?<=[a-z])\s+\+\s+(?=[a-z])/gi, ' and '],
  [/\s+->\s+/g, ' to '],
  // A title's abbreviation (`Mrs. Alvarez`) ends no sentence.
  [/\b(Mrs|Mr|Ms|Dr|Prof|St|Mt|Jr|Sr)\.(?=\s+[A-Z])/g, '$1'],
  [/\b(landing|home|web|this|the|that|next|previous|prev|settings|login|pricing)\s+pg\b|\b(on|to|of|in|from)\s+pg(?=\s+[0-9a-f-]{4,}\b)/gi, ' $1$2 page '],
  ...Object.entries({
    abt: 'about', thru: 'through', pls: 'please', plz: 'please', rn: 'right now', ppl: 'people', prob: 'probably', bc: 'because',
    img: 'image', imgs: 'images', pic: 'picture', pics: 'pictures', illo: 'illustration', gen: 'generate', coords: 'coordinates',
    perms: 'permissions', cfg: 'config', acct: 'account', addr: 'address', btn: 'button', msgs: 'messages', tmrw: 'tomorrow',
    yr: 'year', wk: 'week', mins: 'minutes', u: 'you', ur: 'your', r: 'are', pkg: 'package', fn: 'function',
    gh: 'github', devs: 'developers', obs: 'observation', prop: 'property', props: 'properties', reqs: 'requests', dont: "don't", cant: "can't",
  }).map(([short, word]): [RegExp, string] => [new RegExp(`(?<![\\w'/.-])${short}(?![\\w'/-])`, 'gi'), ` ${word} `]),
];
