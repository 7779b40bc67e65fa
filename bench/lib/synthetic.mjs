// Scales the real corpus (test/fixtures/discovery/corpus.json) up to any number of tools, deterministically.
//
// Each real server is replicated under plausible deployment names (`github-enterprise`, `slack-eu`, …);
// each replica's tools keep their schemas, and get paraphrased names and descriptions: verb swaps
// (get → fetch, delete → remove …), a deployment note in a few templates, occasional versioned names.
// The real servers come first, unchanged, so the first 178 tools are the real ones.

const REPLICAS = [
  'enterprise',
  'eu',
  'us',
  'staging',
  'internal',
  'sandbox',
  'team',
  'legacy',
  'mirror',
  'partner',
  'archive',
  'lab',
];
const VERB_SWAPS = {
  get: ['fetch', 'retrieve', 'read'],
  list: ['enumerate', 'show', 'browse'],
  create: ['add', 'new', 'make'],
  delete: ['remove', 'drop', 'erase'],
  update: ['edit', 'modify', 'patch'],
  search: ['find', 'query', 'lookup'],
  read: ['load', 'open', 'get'],
  write: ['save', 'store', 'put'],
  send: ['post', 'deliver'],
  post: ['send', 'publish'],
};
const DESCRIPTION_SWAPS = [
  [/\bGet\b/g, ['Fetch', 'Retrieve', 'Obtain']],
  [/\bCreate\b/g, ['Add', 'Make', 'Set up']],
  [/\bDelete\b/g, ['Remove', 'Erase']],
  [/\bList\b/g, ['Enumerate', 'Show', 'Return']],
  [/\bSearch\b/g, ['Look up', 'Find', 'Query']],
  [/\bUpdate\b/g, ['Modify', 'Change', 'Edit']],
  [/\bRead\b/g, ['Load', 'Open']],
  [/\bfile\b/g, ['file', 'document']],
  [/\brepository\b/g, ['repository', 'repo', 'project']],
];
const TEMPLATES = [
  (d) => d,
  (d, tag) => `${d} (${tag} deployment)`,
  (d, tag) => `On the ${tag} instance: ${d}`,
  (d, tag) => `${d} Scoped to the ${tag} workspace.`,
  (d, tag) => `[${tag}] ${d}`,
];

export function seededRandom(seed) {
  let state = seed >>> 0; // mulberry32
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function paraphraseName(name, random, pick) {
  const sep = name.includes('-') && !name.includes('_') ? '-' : '_';
  const parts = name.split(/[_-]/);
  const at = parts.findIndex((p) => VERB_SWAPS[p.toLowerCase()]);
  if (at >= 0 && random() < 0.5) parts[at] = pick(VERB_SWAPS[parts[at].toLowerCase()]);
  let out = parts.join(sep);
  if (random() < 0.15) out += `${sep}v2`;
  return out;
}

function paraphraseDescription(description, tag, random, pick) {
  let d = description;
  for (const [pattern, choices] of DESCRIPTION_SWAPS)
    if (random() < 0.5) d = d.replace(pattern, () => pick(choices));
  return pick(TEMPLATES)(d, tag);
}

/** The real servers, then replicas, until `total` tools: [{ id, tools }]. */
export function scaleCorpus(servers, total, seed = 20261122) {
  const random = seededRandom(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const out = servers.map((s) => ({ id: s.id, tools: s.tools }));
  let count = out.reduce((n, s) => n + s.tools.length, 0);
  for (let round = 0; count < total; round++) {
    for (const server of servers) {
      if (count >= total) break;
      const tag = REPLICAS[round % REPLICAS.length];
      const id = `${server.id}-${tag}${round >= REPLICAS.length ? Math.floor(round / REPLICAS.length) + 1 : ''}`;
      const names = new Set();
      const tools = [];
      for (const tool of server.tools) {
        if (count >= total) break;
        let name = paraphraseName(tool.name, random, pick);
        if (names.has(name)) name = tool.name;
        names.add(name);
        tools.push({
          ...tool,
          name,
          description: paraphraseDescription(tool.description, tag, random, pick),
        });
        count++;
      }
      out.push({ id, tools });
    }
  }
  return out;
}
