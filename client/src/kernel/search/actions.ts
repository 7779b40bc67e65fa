/**
 * What a request asks to do and what a tool does, as one of three actions: read, write or delete.
 *
 * A tool's action is the verb its name leads with (`create_issue`, `slack_get_users`,
 * `firecrawl_monitor_delete`). A request's is its leading verb (`show the commits`, `add a column`),
 * a question (`which files…`, `when was…`) reads, and a delete verb anywhere asks to delete. Words
 * match tools by their objects as much as by their verbs, so `what issues are open` scores
 * `create_issue` as well as `list_issues`: a tool whose action the request does not ask for ranks
 * lower (see `ACTION_MISMATCH` in ranking.ts). Without a clear action (`count the rows`), nothing changes.
 */
import { boundedQuery, normalizeQuery } from './queryText';
import { splitWords, stem } from './text';

/** What a tool does, or a request asks to do. */
export type Action = 'read' | 'write' | 'delete';

/** Leading verbs of a tool name that make it a read, a write or a delete. */
export const READ_VERBS =
  'get read list search find fetch retrieve query view show open resolve check inspect describe lookup browse map echo';
export const WRITE_VERBS =
  'create update write edit move rename push post patch set add merge fork upload send append insert replace reply submit toggle generate run execute trigger start stop close type press fill drop drag select';
export const DELETE_VERBS = 'delete remove destroy drop erase purge clear archive';

const stems = (words: string) => new Set(words.split(' ').map(stem));
const NAME_DELETE = stems(DELETE_VERBS);
const NAME_WRITE = stems(WRITE_VERBS);
const NAME_READ = stems(READ_VERBS);

/** Verbs of requests, in their everyday range (wider than tool names'). `open` is left out: a PR is opened, a file read. */
const ASKS_DELETE = stems(
  'delete remove erase destroy purge discard forget drop wipe clear archive unlink scrap',
);
const ASKS_WRITE = stems(
  'create make new add update edit modify change alter patch move rename relocate write save store persist send post notify announce ' +
    'reply respond merge fork upload attach push commit set put insert append replace submit toggle generate produce render draw run ' +
    'execute invoke trigger start stop close type press fill drag select enable disable approve label record note remember copy clone cut',
);
const ASKS_READ = stems(
  'show list display view read print see get fetch retrieve find search lookup browse query describe inspect',
);

/** Words that open a question. */
const QUESTION = new Set(
  'what whats which who whose when where why how is are was were did has have'.split(' '),
);

/** Words before a request's verb that are not it: politeness, modal verbs, pronouns, light verbs. */
const LEAD = new Set(
  (
    'please can could would will you we i let lets us me my just now then also kindly want need like help try go and so ok okay hey hi ' +
    'give tell quickly first is are do does'
  ).split(' '),
);

/** Words that start a second clause of a request. */
const CLAUSE = new Set(['and', 'then']);

/** `how do I merge…`, `how to add…`, `is there a way to see…`: the question asks how to do it, and the verb says what. */
const HOW_TO =
  /^how (?:do|can|could|should|would) (?:i|we|you) (\w+)|^how to (\w+)|^is there a way to (\w+)/;

function actionOf(word: string): Action | undefined {
  const s = stem(word);
  return ASKS_DELETE.has(s)
    ? 'delete'
    : ASKS_WRITE.has(s)
      ? 'write'
      : ASKS_READ.has(s)
        ? 'read'
        : undefined;
}

/** The action a request asks for, or undefined when it does not say (`normalized`: the query's `normalizeQuery`). */
export function requestAction(
  query: string,
  normalized: string = normalizeQuery(query),
): Action | undefined {
  const first = splitWords(boundedQuery(query))[0];
  const question = first !== undefined && QUESTION.has(first);
  const words = splitWords(normalized);
  // A delete verb anywhere, except a participle in a question (`which files were removed`).
  if (words.some((w) => ASKS_DELETE.has(stem(w)) && !(question && w.endsWith('ed'))))
    return 'delete';
  if (question) {
    const how = HOW_TO.exec(words.join(' '));
    const verb = how && (how[1] ?? how[2] ?? how[3]);
    return (verb && actionOf(verb)) || 'read';
  }
  const lead = words.find((w) => !LEAD.has(w));
  const action = lead === undefined ? undefined : actionOf(lead);
  // `find the typo and fix it`: a second clause with another verb asks for both.
  for (let i = 0; action && i + 1 < words.length; i++) {
    if (CLAUSE.has(words[i]) && actionOf(words[i + 1]) && actionOf(words[i + 1]) !== action)
      return undefined;
  }
  return action;
}

/** The action of a tool, from the verb its name leads with (its first three words), or undefined. */
export function toolAction(nameWords: readonly string[]): Action | undefined {
  for (const word of nameWords.slice(0, 3)) {
    const s = stem(word);
    if (NAME_DELETE.has(s)) return 'delete';
    if (NAME_WRITE.has(s)) return 'write';
    if (NAME_READ.has(s)) return 'read';
  }
  return undefined;
}

/**
 * Whether a tool's action is one the request does not ask for: a write or delete tool for a read, a
 * read tool for a write or delete, a delete tool for anything but a delete.
 */
export function actionsDiffer(asked: Action | undefined, tool: Action | undefined): boolean {
  if (asked === undefined || tool === undefined) return false;
  if (tool === 'delete') return asked !== 'delete';
  if (asked === 'read') return tool !== 'read';
  return tool === 'read';
}
