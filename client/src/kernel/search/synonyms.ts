/**
 * Query expansion: the words people use for a need against the words tool authors write.
 *
 * A hand-written table of software vocabulary: abbreviations (`PR`, `repo`, `db`) and the everyday
 * words for operations and objects that a general thesaurus does not know in their computing sense
 * (`folder` for `directory`, `fork` for a copy of a repository). A general thesaurus's synonyms of
 * every query word would not do: they are the everyday senses, not the computing ones, so it serves
 * only the words no tool has (thesaurus.ts).
 */
import { analyze } from './text';

/** Each line is a group of interchangeable words or phrases, separated by commas. */
const DOMAIN_GROUPS = `
repository, repo, codebase, project, starred, open source, oss
directory, folder, dir
create directory, mkdir
delete, remove, erase, destroy, purge, discard, forget, drop, wipe, rm, retract, scrap
create, make, new, add, scaffold, bootstrap, initialize
update, edit, modify, change, alter, patch, fix, correct, tweak, flip, adjust, tick, bump
schedule, hourly, daily, weekly, every day, every hour
replace, swap, substitute, find and replace
move, rename, relocate, mv, shift, tuck
read, open, view, show, display, print, cat, dump
list, enumerate, ls
search, find, lookup, locate, seek, grep
grep, search code, code search
fetch, retrieve, get, download, grab, pull, curl, wget, export
markdown, md
write, save, store, persist, stash
send, post, notify, announce
image, picture, photo, illustration, drawing, graphic, artwork, art, logo, poster, mockup, wallpaper
generate, produce, render, draw
webpage, web page, page, website, site, url, link
web, internet, online
web search, news, headlines, current events
pull request, pr, prs, propose merge
merge request, mr
issue, bug, ticket
database, db, sql, postgres, postgresql, pg, mysql, sqlite
sql, query
message, msg
channel, room
thread, conversation, discussion
user, member, person, people, account, profile
user, username, handle, developers, engineers
address, street, street address
profile, timezone, job title, bio, avatar
title, named, titled, called
self, whoami, bot user, identity, authenticated as
comment, remark, feedback, discussion
coordinates, latitude, longitude, lat, lng
route, directions, path, itinerary, which way
distance, far, travel time, closer, nearest
travel, drive, driving, walk, walking, cycling, bike, transit, commute, trip, journey, tube, subway, metro, train, bus
elevation, altitude, height, above sea level, peak, summit, mountain
commit history, commits, log
environment variables, env, environment
compress, zip, gzip
tab, tabs
close, quit, exit, end, terminate, shut
dialog, popup, alert, modal, prompt, confirm box, alert box
key, keyboard, keystroke
dropdown, select, option, choice, picker, selector, combobox, select box, choose, pick, menu
hover, mouse over, mouseover, cursor, tooltip
click, tap, button
type, input, text field, textbox, input box, enter text
fill, populate, fill in
console, devtools, console log, log output, script output
network requests, xhr, ajax, http calls, api calls, network log, network traffic, endpoints, backend calls, outgoing calls, outgoing requests, http status, status code
resize, viewport, window size, narrower, wider
back, previous page, return
color scheme, dark mode, light mode, theme
upload, attach, file input, file picker, file chooser
wait, pause, sleep, delay
monitor, watch, watcher, track, tracker
credits, balance, usage, quota
paper, article, publication, study, scholarly, academic, literature, arxiv, preprint
research, investigate, report, brief, briefing, dossier, sourced, with sources
documentation, docs, reference, manual, guide
library, package, framework, module
crawl, spider
scrape, extract
memory, knowledge, facts, remember, recall
entity, node, entry, entries
relation, relationship, link, edge, connect, connection, tie, subsidiary
schema, columns, fields, properties
bug tracker, issue tracker, issues database
observation, fact, note
think, reason, reasoning, plan, step by step
sum, add up, plus, total, added together
echo, repeat, parrot, mirror, say back
size, bytes, big, large, space
metadata, info, information, details, properties, attributes, stats
permissions, owner, chmod, metadata
modified, timestamp, date
permission, permitted, permit, allowed, access, authorized, cleared
permissions, owner, owns, ownership
pdf, document, docx, scanned, ocr, brochure, flyer, leaflet, whitepaper, invoice, receipt
block, checkbox, to-do, todo
allowed directories, roots, sandbox roots
tree, hierarchy, nested, recursive, skeleton, folder structure, directory structure
reaction, emoji, react, thumbs up, upvote
reply, respond, answer
review, approve, request changes, lgtm, sign off
merge, integrate, land
status checks, ci, build, pipeline, green, checks passing
diff, changes, changed
screenshot, capture
evaluate, run javascript, execute script
file, disk, filesystem
content, contents, inside, body, text
copy, fork, clone, duplicate
run, execute, invoke, trigger, kick off
navigate, go to, visit, browse, open url
history, historical, past, previous, recent
alert, notification, notify
definition, defined, declaration, symbol, function
sql, rows, table, tables, columns
information schema, pg catalog, sql
javascript, js, js expression
sql, metrics, mau, dau, active users, signups, churn, revenue, retention
block, paragraph, heading, bullet, checklist, callout
append, add to the end, at the end
template, blueprint, preset, boilerplate
local, nearby, near me, close by, around here
place, places, pharmacy, bookshop, bookstore, bakery, pub, gym, supermarket, atm, hospital, dentist, cafe, restaurant, shop, venue, business, hotel, museum, landmark
details, opening hours, rating, ratings, phone number
snapshot, accessibility tree, page structure, dom, element tree
`;

export interface ExpansionTerm {
  term: string;
  weight: number;
  source: 'domain';
  /** The query term (or two-term phrase) it expands. */
  from: string;
}

type SynonymMap = Map<string, Set<string>>;

/** Term-phrase groups: every stemmed word of a group member points at the other members' terms. */
function buildDomainMap(): SynonymMap {
  const map: SynonymMap = new Map();
  for (const line of DOMAIN_GROUPS.trim().split('\n')) {
    const members = line
      .split(',')
      .map((m) => analyze(m.trim()))
      .filter((terms) => terms.length);
    for (const member of members) {
      const key = member.join(' ');
      let set = map.get(key);
      if (!set) map.set(key, (set = new Set()));
      for (const other of members) if (other !== member) for (const t of other) set.add(t);
    }
  }
  return map;
}

let domainMap: SynonymMap | undefined;

export interface ExpandOptions {
  domainWeight?: number;
}

/**
 * Expansion terms for analysed query terms: synonyms of single terms and of two-term phrases. Terms already in the query are left out; each term keeps its highest weight.
 */
export function expandTerms(
  terms: readonly string[],
  options: ExpandOptions = {},
): ExpansionTerm[] {
  domainMap ??= buildDomainMap();
  const domainWeight = options.domainWeight ?? 0.7;
  const present = new Set(terms);
  const found = new Map<string, ExpansionTerm>();
  const offer = (term: string, weight: number, source: ExpansionTerm['source'], from: string) => {
    if (present.has(term)) return;
    const existing = found.get(term);
    if (!existing || existing.weight < weight) found.set(term, { term, weight, source, from });
  };
  const keys = [...terms, ...terms.slice(1).map((t, i) => `${terms[i]} ${t}`)];
  for (const key of keys)
    for (const t of domainMap.get(key) ?? []) offer(t, domainWeight, 'domain', key);
  return [...found.values()];
}
