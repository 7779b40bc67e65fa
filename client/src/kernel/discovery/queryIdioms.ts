/**
 * Phrases whose words mean little apart: phrasal verbs whose particle is a stop word (`look up`),
 * and idioms (`hit Enter`, `google the…`, `let #ops know`). Each becomes the word or two it means,
 * before the words are analysed. Chat shorthand is in queryShorthand.ts, requests to an assistant's
 * memory in queryMemory.ts.
 */
import { inClauseWith, type Rewrite } from './rewrite';

/**
 * A phrase's words as a pattern; a phrasal verb may have its object between (`track it down`, `look
 * them up`), and one of up, down, out and off a noun of a word or two too (`shut that page down`, `bring the actual render up`).
 */
function phrasePattern(phrase: string): string {
  const words = phrase.split(' ');
  const particle = words.length === 2 ? words[1] : '';
  const pronoun = '\\s+(?:it|them|this|that|these|those)';
  const object = NOUN_PARTICLES.has(particle)
    ? `(?:${pronoun}|\\s+(?:the|this|that|these|those|my|our|your)\\s+(?:[\\w-]+\\s+)?[\\w-]+)?`
    : PARTICLES.has(particle)
      ? `(?:${pronoun})?`
      : '';
  return (
    words[0] +
    object +
    words
      .slice(1)
      .map((w) => `\\s+${w}`)
      .join('')
  );
}

const PARTICLES = new Set(['up', 'down', 'out', 'in', 'on', 'off', 'back']);
const NOUN_PARTICLES = new Set(['up', 'down', 'out', 'off']);

/** Phrasal verbs whose particle is a stop word, and idioms whose words mean nothing apart: the one word or two each means. */
export const PHRASAL_VERBS: ReadonlyArray<[RegExp, string]> = Object.entries({
  'look up': 'lookup',
  'look for': 'search',
  'look into': 'investigate',
  'dig into': 'investigate',
  'look at': 'view',
  'find out': 'find',
  'set up': 'create',
  'turn on': 'enable',
  'switch on': 'enable',
  'turn off': 'disable',
  'switch off': 'disable',
  'shut down': 'close',
  'log in': 'login',
  'sign in': 'login',
  'log out': 'logout',
  'sign out': 'logout',
  'clean up': 'cleanup',
  'back up': 'backup',
  'fill in': 'fill',
  'fill out': 'fill',
  'go back': 'back',
  'go to': 'navigate',
  'take down': 'remove',
  'get rid of': 'remove',
  'write down': 'note',
  'put in': 'insert',
  'take up': 'occupy',
  'how long': 'duration',
  'how far': 'distance',
  'how many': 'count',
  'how large': 'size',
  'how big': 'size',
  'how old': 'modified timestamp',
  'let me see': 'show',
  'pull up': 'open',
  'bring up': 'open',
  'pull in': 'read',
  'print out': 'print',
  'side by side': 'multiple',
  'tack on': 'add',
  'tack onto': 'add to',
  'jot down': 'note',
  'chime in': 'comment',
  'weigh in': 'comment',
  'write-up': 'report',
  writeup: 'report',
  'pop-up': 'popup',
  'pop up': 'popup',
  'signed up': 'signups',
  'sign up': 'signup',
  'page before': 'previous page',
  'where i was before': 'previous page',
  'pull together': 'gather',
  'fire off': 'run',
  'spin up': 'create',
  "i'm after": 'search',
  'i am after': 'search',
  'hunt down': 'search',
  'track down': 'search',
  'keep an eye on': 'watch',
  'key in': 'type',
  'goes by': 'username',
  a11y: 'accessibility',
  i18n: 'internationalization',
  k8s: 'kubernetes',
  'who am i': 'whoami',
  'blog post': 'article',
  'where is': 'locate',
  'where are': 'locate',
  "where's": 'locate',
  'how high': 'elevation',
  'how tall': 'elevation',
  'above sea level': 'elevation',
  'meters up': 'elevation',
  'feet up': 'elevation',
}).map(([phrase, word]) => [new RegExp(`\\b${phrasePattern(phrase)}\\b`, 'gi'), ` ${word} `]);

/** What happened (`moved`, `broke`, `got decommissioned`): in the background of a request, an event, not what to do. */
const PAST_EVENT =
  /\b(?:(?:was|were|got|has been|have been)\s+)?(?:\w+ed|broke|went|said|told|made|wrote|sent|took|gave|came|ran|left|began|became|fell|grew|hit|put|set|shut|split|quit)\b/gi;

/** Idioms that name a need by a pattern of words: a key to press, a web search, a watch for changes, a name given. */
export const IDIOMS: readonly Rewrite[] = [
  [
    /\b(?:hit|press|tap|push)\s+(?:the\s+)?(?:enter|return|escape|esc|tab|space(?:bar)?|backspace|delete|del|home|end|page\s?up|page\s?down|(?:up|down|left|right)(?:\s+arrow)?|arrow\s+(?:up|down|left|right)|f\d{1,2})\b(?:\s+key)?/gi,
    ' press key ',
  ],
  [/\b(?:ctrl|control|cmd|command|alt|option|shift|meta)\s*\+\s*\w+/gi, ' key combination '],
  // `google the release date`: the verb, not the maps.
  [
    /\b(?:google|bing)\s+(?=(?:the|for|it|how|what|who|when|where|why|a|an|this|that|whether|if)\b)|\b(?:google|bing) it\b/gi,
    ' web search ',
  ],
  [
    /\b(?:alert|notify|tell|ping|email|message)\s+me\s+(?:when|if|whenever|once)\b|\blet me know (?:when|if|whenever)\b|\b(?:be|get)\s+(?:alerted|notified|pinged|told|emailed)\s+(?:when|whenever|if|once)\b/gi,
    ' create monitor changes ',
  ],
  // A name given (`the page called Roadmap`, `a table named users`) is a value: what is left is that it has one.
  [
    /\b(?:called|named|titled)\s+(?!(?:file|directory|url|website|email)\b)(?:"[^"]*"|'[^']*'|[\w./-]+)/gi,
    ' named ',
  ],
  // `when was yarn.lock created`: a question of a date, not a request to create.
  [
    /\bwhen\s+(?:was|were|did)\b([^?.!]*?)\b(?:created|modified|changed|updated|edited|written|made|touched)\b/gi,
    ' when $1 timestamp ',
  ],
  // `what does the top of CONTRIBUTING.md say`: to read it.
  [/\bwhat\s+does\b([^?]*?)\bsay\b|\bwhat\b([^?.;]*?)\bsays\b/gi, ' read $1$2 '],
  // `is local.yml newer than prod.yml`: a question of dates.
  [/\b(?:newer|older|more recent)\s+than\b/gi, ' modified timestamp '],
  // `how do I get from Heathrow to Soho`: directions.
  [/\bhow\s+(?:do|can|should|would)\s+(?:i|we)\s+get\s+(?:from|to)\b/gi, ' directions '],
  // `hit the back button`: the browser's history, not a click on the page.
  [
    /\b(?:press|hit|tap|push|click)\s+(?:on\s+)?(?:the\s+)?(?:browser'?s?\s+)?back\s+(?:button|arrow)\b/gi,
    ' navigate back ',
  ],
  // `press the Continue control on the form`: a click, not a key.
  [
    /\b(?:press|hit|tap|push)\s+(?:on\s+)?(?:the\s+)?(?:"[^"]*"|'[^']*'|[\w-]+)\s+(?:button|control|link|icon)\b/gi,
    ' click ',
  ],
  // `put my name in the username box`: typing into a field.
  [
    /\b(?:put|enter|write|insert|fill|key|type|pop|paste|stick|plug|drop)\b[^.;]*?\b(?:in|into)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:box|field|input|textbox|textarea)\b/gi,
    ' type text field ',
  ],
  // `put these notes into a new file`: to write one.
  [/\b(?:into|in|to)\s+(?:a\s+)?(?:new\s+)?file\b/gi, ' write file '],
  // `what the page looks like`: to see it.
  [
    /\bwhat\s+(?:the\s+|this\s+|my\s+|our\s+)?(?:page|site|website|screen|app|ui|dashboard|browser)\s+(?:currently\s+|now\s+)?looks?\s+like\b(?!\s+(?:in|with|under|using)\s+(?:dark|light|print|high[- ]contrast|reduced[- ]motion)\b)/gi,
    ' screenshot view ',
  ],
  // `the last-modified time`, `when someone last changed it`: a date, not a change to make.
  [
    /\blast[- ](?:modified|changed|updated|edited|touched)\b|\blast\s+(?:change|modify|update|edit|touch)\b|\bfirst\s+(?:created|made|written|added)\b/gi,
    ' modified timestamp ',
  ],
  // `any file named .env.example anywhere under the project`: a search of the files there.
  [
    /\b(?:anywhere|somewhere)\s+(?:under|in|inside|within|below|beneath)\s+(?:the\s+|this\s+|my\s+|our\s+)?(?:project|repo|repository|codebase|monorepo|folder|directory|dir|tree|workspace|disk|drive)\b/gi,
    ' search files in directory ',
  ],
  // `bring it up to date with main`: to update it.
  [/\b(?:bring|get|keep)\s+(?:[\w']+\s+){0,3}?up\s+to\s+date\b/gi, ' update latest '],
  // `give the folder a new name`: to rename it.
  [/\b(?:a|its|their|the)\s+(?:new|different)\s+name\b/gi, ' rename '],
  // `the failed fetch`, `that XHR`: a request the page made, not a verb.
  [
    /\b(?:the|a|that|this|each|every|failed|failing|slow|pending)\s+(?:failed\s+|failing\s+|slow\s+|pending\s+)?(?:fetch|xhr|ajax)(?:\s+(?:call|request))?\b(?!\s+(?:the|a|an|my|our|it|this|that|all|every)\b)/gi,
    ' network request ',
  ],
  // `a weekly check on the changelog`: a recurring monitor to set up.
  [
    /\b(?:hourly|daily|weekly|monthly|nightly|recurring|periodic|regular)\s+(?:check|scrape|crawl|look|watch|poll)s?\b/gi,
    ' create recurring monitor ',
  ],
  // `is "Order #123" anywhere on the page`: a search.
  [/\banywhere(?:\s+(?:on|in)\b)?/gi, ' find in '],
  // `where the seed script lives`: to locate it.
  [/\bwhere\b[^?.;]*?\blives?\b|\blost track of\b/gi, ' locate '],
  // `create .eslintrc.json` (a file literal by now): a new file to write.
  [
    /\b(?:create|make|add)\s+(?:a\s+)?(?:new\s+)?file\b(?!\s+[\w\s-]*\binto\b)|\b(?:drop|put|stick|place|save)\s+(?:a\s+)?(?:new\s+)?file\b(?![^.;]*\b(?:onto|dropzone|drop\s+zone|upload|element|area|field|input|page)\b)/gi,
    ' write new file ',
  ],
  // `mark the task as blocked`: a property to set.
  [
    /\bmark\b[^.;]*?\bas\b(?!\s+(?:bad|good|partial|wrong|useless|helpful|irrelevant|junk|spam|incorrect|poor|unhelpful)\b)/gi,
    ' update set property ',
  ],
  // `pending merge`, `awaiting review`: open pull requests.
  [
    /\b(?:pending|awaiting|waiting on|waiting for)\s+(?:merge|review)\b|\b(?:waiting|wait)\s+(?:on|for)\s+(?:someone|somebody|anyone|anybody|a reviewer|review)\s+to\s+(?:look at|review|check|approve)\b/gi,
    ' open pull requests review ',
  ],
  // `what's inside it`: its contents (a folder's are listed, not read).
  [/\bwhat(?:'s| is)\s+inside\b(?![^?.;]*\b(?:folder|directory|dir)\b)/gi, ' read contents '],
  // `three migration scripts`: several files.
  [
    /\b(?:two|three|four|five|several|multiple)\s+(?:of\s+the\s+)?(?:[\w-]+\s+)?(?:files|scripts|configs|documents|docs|fixtures|migrations)\b/gi,
    ' multiple files ',
  ],
  // `Kenji no longer mentors Aiko`, `she is not his mentor anymore`: a fact or a relation to remove.
  [
    /\bno longer\b(?!\s+(?:need|want|use|require)\b)|\bnot\b(?=[^.;]*\b(?:anymore|any more|any longer)\b)/gi,
    ' remove relation fact ',
  ],
  [/\b(?:anymore|any more|any longer)\b/gi, ' '],
  // `what's new in quantum computing`: the news.
  [/\bwhat(?:'s| is)\s+new\s+(?:in|with|about|on)\b/gi, ' news about '],
  // `in response to the outage post`: the replies to it.
  [/\bin\s+(?:response|reply)\s+to\b/gi, ' replies to '],
  // `an image of the error state`: a screenshot.
  [
    /\b(?:image|picture|capture|photo)\s+of\s+(?:(?:how|what)\s+)?(?:the\s+)?(?:page|screen|error|state|ui|current|site|homepage|website|app|dashboard|browser|tab|window)\b/gi,
    ' screenshot ',
  ],
  // `discover the pages without scraping them`: the map of a site, not its content.
  inClauseWith(
    /\b(?:pages?|site|website|urls?|links|domain)\b/i,
    /\bwithout\s+(?:scraping|downloading|fetching|crawling|loading|reading)\b/gi,
    ' map urls ',
  ),
  // `as it would print`, `print preview`: the print media.
  [
    /\bas it would print\b|\bprint\s+(?:preview|styles?|stylesheet|media|layout|view)\b/gi,
    ' emulate media print ',
  ],
  // `hold until the button is enabled`: a wait.
  [/\b(?:hold|hold off|hang on|hold on|stand by|pause|sit tight)\s+(?:un)?til\b/gi, ' wait until '],
  // `let #frontend know`: to notify them.
  [/\blet\s+(\S+)\s+know\b/gi, ' notify $1 '],
  // `respond to the discussion on issue 90`: a comment on it.
  [/\b(?:respond|reply|answer)\b(?=[^.;]*\b(?:issue|ticket|pr|pull request)\b)/gi, ' comment '],
  // `the users table`: the table's name is a value too.
  [/\bthe\s+[a-z_][\w.]*\s+table\b/gi, ' the table '],
  // `drop a note on ticket 55`: a comment.
  [
    /\b(?:drop|leave|post|put|write)\s+(?:a\s+)?(?:quick\s+)?(?:note|remark)\s+(?:on|under)\b/gi,
    ' comment on ',
  ],
  // `I think the config has a typo`: a hedge, not a request to think.
  [/\b(?:i|we)\s+(?:think|guess|believe|suspect|reckon|assume)\b/gi, ' '],
  // `I forgot the path of…`: what the speaker does not remember, not a request to forget.
  [/\b(?:i|we)\s+(?:forgot|(?:can't|cannot|don't|do not)\s+(?:remember|recall))\b/gi, ' what is '],
  // `the generated report`, `the uploaded pdf`: a participle that says where a thing came from, not what to do with it.
  [
    /\b(the|a|an|this|that|these|those|my|our|your)\s+(?:generated|uploaded|attached|downloaded|exported|pasted|compiled|rendered|printed|saved|stored|created)\s+(?=[a-z])/gi,
    ' $1 ',
  ],
  // `dump the report into report.html`: to write it there.
  [/\b(?:dump|pipe|output|spit|stick)\b(?=[^.;]*\b(?:into|to|as)\b[^.;]*\bfile\b)/gi, ' write '],
  // `the year in the footer needs to be 2026`: a value to change.
  // `ought to be called intake_final.docx`: a new name.
  [
    /\b(?:ought\s+to|should|needs?\s+to|has\s+to|must)\s+be\s+(?:called|named|renamed|titled)\b|\bmislabell?ed\b/gi,
    ' rename ',
  ],
  [
    /\b(?:needs|has|ought)\s+to\s+(?:be|say|read)\b|\b(?:need|have)\s+to\s+be\b|\bshould\s+(?:be|say|read)\b|\bmust\s+(?:be|say)\b/gi,
    ' change to ',
  ],
  // `which yaml files mention redis`: files searched for what they contain.
  [
    /\b(files|docs|documents|scripts|configs)\b(?=[^.;?]*\b(?:mention|mentions|contain|contains|reference|references|refer to|refers to)\b)/gi,
    ' $1 search ',
  ],
  // `yaml files`, `python files`: files of a kind, a pattern of names.
  [
    /\b(?:yaml|yml|json|csv|markdown|md|python|py|typescript|ts|javascript|js|html|css|log|text|txt|png|jpe?g|pdf|toml|xml|sql|shell)\s+files\b/gi,
    ' files file pattern ',
  ],
  // `extract the text from the uploaded pdf brochure`: a document to parse, not a page to scrape.
  [
    /\b(?:text|content|contents|tables?|data|figures)\s+(?:out\s+)?(?:of|from|in)\s+(?:the\s+|a\s+|an\s+|this\s+|that\s+|my\s+|our\s+)?(?:[\w-]+\s+){0,2}?(?:pdf|docx?|word\s+document|word\s+file|spreadsheet|document|scan)\b/gi,
    ' $& parse document ',
  ],
  // `turn this PDF of the annual report into markdown`: a document to parse.
  [
    /\b(?:turn|convert|transform|change|make)\b(?=[^.;]*?\b(?:pdf|docx?|word\s+document|spreadsheet|document|scan(?:ned)?|brochure|invoice|contract|agreement)\b[^.;]*?\binto\b)/gi,
    ' parse document ',
  ],
  // `did any return 500`: an HTTP status.
  [
    /\b(?:return(?:s|ed)?|respond(?:s|ed)?\s+with|came back|fail(?:s|ed)?\s+with|got|gave)\s+(?:a\s+|an\s+)?[1-5]\d\d\b/gi,
    ' http status ',
  ],
  // `send hello and expect hello back`: an echo.
  [
    /\bsend\s+["']?(\w+)["']?\s+(?:and|then)\s+(?:expect|get|receive|see)\s+(?:(?:it|["']?\1["']?)\s*)?(?:back)?/gi,
    ' echo ',
  ],
  // `requests the page sent to the API`: its network requests.
  [
    /\brequests?\s+(?:that\s+|which\s+)?(?:the|this|my|our)\s+(?:page|site|app|browser|frontend|client)\s+(?:sent|made|fired|issued|sends|makes|fires|issues|did)\b/gi,
    ' network requests page ',
  ],
  // `anything in memory mentioning the Madrid office`: a search of what holds it.
  [
    /\bmentioning\b|\b(?:that|which|who)\s+(?:ones?\s+|of\s+them\s+)?mentions?\b/gi,
    ' search mention ',
  ],
  // `pull the price from the page`: to fetch it (a pull request is named as one).
  [
    /\bpull(?!\s+(?:requests?|reqs?|prs?|it|them|this|that|up|in|together|down|out)\b|-)\b(?=[^.;]*\b(?:from|out\s+of)\b)/gi,
    ' fetch ',
  ],
  // `anything in memory about the setup`: a search.
  [
    /\b(?:anything|something)\b(?=[^.;?]*?\b(?:about|on|regarding|related to|concerning|to\s+do\s+with)\b)/gi,
    ' search ',
  ],
  // `rows of the tracker where priority is High`: a filtered query.
  [
    /\b(?:rows|entries|items|records|tasks|cards|tickets|deals|leads|contacts|candidates|orders|accounts|customers|projects|bugs)\b(?=[^.;]*?\b(?:where|whose|with status|that are|which are)\b)/gi,
    ' $& query filter ',
  ],
  // `a list of 20 startups with their founders`: structured data gathered from the web.
  [
    /\b(?:a\s+)?(?:list|table|spreadsheet|dataset)\s+of\s+(?:the\s+)?(?:top\s+)?\d+\s+[\w\s-]*?\b(?:with|including|and their)\b/gi,
    ' structured data web research ',
  ],
  // `replace the old version`: to write the whole file anew.
  [
    /\breplace\s+(?:the\s+)?(?:old|existing|previous|current|whole|entire)\s+(?:version|file|contents?|one|copy|text)\b/gi,
    ' overwrite write file ',
  ],
  // `the size and timestamp of the dump`: a file's metadata.
  [
    /\b(?:size|timestamps?|times?|dates?|mtime|permissions|owner|last[- ]modified(?:\s+(?:date|time))?)\s+(?:and|&|\+|,)\s+(?:size|timestamps?|mtime|permissions|owner|(?:last[- ])?modified(?:\s+(?:date|time))?|dates?|times?)\b(?!\s+(?:fields|columns|properties)\b)/gi,
    ' file metadata info ',
  ],
  // `check your memory`: a search of it.
  [
    /\b(?:check|search|look\s+in|consult|query)\s+(?:your|the|my|our)\s+memory\b/gi,
    ' search memory knowledge ',
  ],
  // `close #450`, `reopen the issue`: a change of the issue's state.
  inClauseWith(
    /\b(?:issue|ticket|bug|pr|pull request)\b|#\d/i,
    /\b(?:close|reopen)\b/gi,
    ' $& update state ',
  ),
  // `everything that landed on main`: its commits.
  [
    /(?<!\b(?:be|get|to)\s+)\b(?:landed|merged|pushed|went\s+in|got\s+in|shipped)\s+(?:on|in|to|into)\s+(?:main|master|develop|trunk|the\s+[\w./-]+\s+branch)\b/gi,
    ' list commits history ',
  ],
  // `how long is the drive from SFO`: a route's travel time.
  [
    /\bhow\s+long\s+(?:is|does|will|would|'s)\s+(?:it\s+take\s+(?:to\s+)?)?(?:the\s+)?(?:drive|walk|ride|trip|commute|journey|flight|bike ride|cycle)\b/gi,
    ' travel time directions ',
  ],
  // `is there a "Forgot password" link on this page`: a search of the page.
  [
    /\bis\s+there\s+(?:a|an|any)\b(?=[^.;?]*?\bon\s+(?:this|the)\s+(?:page|site|screen)\b)/gi,
    ' find on page ',
  ],
  // `before querying, …`, `I updated the page, so…`: what was or will be done around the request, not the request.
  [
    /\bbefore\s+\w+ing\b|\bbefore\s+(?:i|we)\s+\w+(?:\s+(?:it|them|this|that|anything))?\b|\b(?:i|we)\s+(?:just\s+)?(?:updated|changed|edited|created|deleted|removed|added|fixed|wrote|pushed|merged|moved|renamed|uploaded|generated|built|produced|drafted|exported|rendered|scanned|downloaded|photographed|shot)\b/gi,
    ' ',
  ],
  // `for the audit, load…`, `since the deploy failed on a missing key, read .env.example`: the purpose and the background of a
  // request (what happened in it, not the names it gives), not the request.
  [
    /(?:^|(?<=[.;!?]\s*))\s*for\b(?![^,;.?!]*\b(?:i|we|me|us|you|you've|you're)\b)[^,;.?!]{3,50}?,/gi,
    ' ',
  ],
  [
    /(?:^|(?<=[.;!?]\s*))\s*(?:since|now that|because|given that|seeing as)\b[^,;.?!]{3,100}?,/gi,
    (clause) => clause.replace(PAST_EVENT, ' '),
  ],
  // `check the current docs, not your memory`: what not to use is not asked for.
  [
    /,\s*(?:and\s+)?not\s+(?:from\s+|in\s+|with\s+|by\s+)?(?:your|my|our|the|a|an)\s+(?:own\s+)?[\w-]+\b/gi,
    ' ',
  ],
  // `what's the description and base branch of PR 2231`: an item's details, read (not the fields of a new one).
  [
    /\b(?:what(?:'s|\s+is|\s+are|\s+was|\s+were)|(?:get|show|fetch|give|tell)(?:\s+me)?|(?:i|we)\s+need)\s+the\b(?=[^.;?]*?\bof\s+(?:[\w/.-]+\s+){0,3}?(?:pr|pull\s+request|issue|merge\s+request|mr|ticket|commit|release)\b)/gi,
    ' get details ',
  ],
  // `any public reporting on the delay`: the news.
  [
    /\b(?:public\s+|press\s+|media\s+|news\s+)(?:reporting|coverage|reports)\b|\b(?:reporting|coverage)\s+(?:on|of|about)\b/gi,
    ' news ',
  ],
  // `add a row to the Customer Calls database`: a new entry.
  [
    /\b(?:add|create|insert|make|log|put)\s+(?:a|an|one|another)\s+(?:new\s+)?(?:row|entry|record|item)\s+(?:to|in|into|for)\b/gi,
    ' create new entry page in ',
  ],
  // `tag the page with priority High`: properties to set.
  [/\btag\b(?=[^.;]*\bwith\b)/gi, ' update set property '],
  // `the "Related Projects" relation on the page`: one property of it.
  [
    /\b(?:relation|rollup|property|field|column)\s+(?:on|of|from|in)\s+(?:the\s+|this\s+|that\s+)?(?:notion\s+)?(?:page|entry|row|card)\b/gi,
    ' page property ',
  ],
  // `table is orders, column created_at`: an SQL table.
  [
    /(?<!\bnotion\b[^.;?]*)(?:\btables?\b(?=[^.;?]*\bcolumns?\b)|\bcolumns?\b(?=[^.;?]*\btables?\b))(?![^.;?]*\bnotion\b)/gi,
    ' sql table ',
  ],
  // `check the size of…`, `so check what they announced`: the verb asks to look, which every reading tool does (a check
  // of a monitor is a noun: `the last check`).
  [
    /(?:^|(?<=[,;.!?]|\b(?:to|please|and|then|so|can\s+you|could\s+you|also|first|quickly|just|now|go)))\s*check\b(?!\s+(?:on|in|out|for|runs?|status)\b)/gi,
    ' ',
  ],
  // `what Let's Encrypt announced about…`: the news.
  [
    /\bwhat\b(?=[^.;?]*?\b(?:announced|unveiled|reported|said\s+publicly)\b)|\b(?:announced|unveiled)\s+(?:about|regarding|on)\b/gi,
    ' news ',
  ],
  // `who won stage 20 of the Tour`: a fact about the world, for a web search.
  [
    /\bwho\s+(?:won|founded|invented|discovered|directed|starred\s+in|is\s+the\s+(?:ceo|cto|founder|president|head|owner)\s+of)\b/gi,
    ' web search who ',
  ],
  // `photorealistic`, `a minimalist vector icon`, `watercolor`: the style of an image to make.
  [
    /\b(?:photo-?realistic|hyper-?realistic|watercolou?r|oil\s+painting|pixel\s+art|vector\s+(?:art|illustration|graphic|icon|logo)|isometric|3d\s+render(?:ing)?|concept\s+art|digital\s+art|line\s+art|hero\s+(?:visual|art|illustration))\b/gi,
    ' generate image art ',
  ],
  // `take a picture of the whole confirmation page`: a screenshot, not an image to make.
  [
    /\b(?:picture|image|photo|capture|snapshot|shot)\s+of\s+(?:the\s+|this\s+|that\s+)?(?:whole\s+|entire\s+|full\s+|current\s+)?(?:[\w-]+\s+){0,2}?(?:page|screen|site|window|tab)\b/gi,
    ' screenshot ',
  ],
  // `an illustration of a bustling Roman forum`: what the new image shows is its subject, not the need.
  [
    /\b(?:a|an|some|three|two|four)\s+(?:[\w-]+\s+){0,2}?(illustrations?|images?|pictures?|drawings?|paintings?|renders?|renderings?|visuals?|icons?|logos?|posters?|artworks?|sketch(?:es)?)\s+(?:of|showing|depicting)\b[^.;?!]*/gi,
    ' generate $1 ',
  ],
  // `what is 1287 added to 3456`: a sum.
  [/(?<![\w.])\d+(?:\.\d+)?\s+(?:added\s+to|plus|and)\s+\d+(?:\.\d+)?(?![\w.])/gi, ' sum numbers '],
  // `work through them one hypothesis at a time and backtrack`: thinking it through.
  [
    /\bmethodically\b|\bpiece\s+by\s+piece\b|\bone\s+(?:[\w-]+\s+)?at\s+a\s+time\b|\bbacktrack\w*\b|\bbranch\s+off\s+alternatives\b/gi,
    ' think step by step revise ',
  ],
  // `the biggest files in Downloads`: files by their size.
  [
    /\b(?:biggest|largest|smallest|heaviest|bulkiest|fattest|hugest|chunkiest|heftiest)\b/gi,
    ' largest size ',
  ],
  // `rust terminal ui libs on github`: repositories to search.
  [
    /\b(?:libs?|librar(?:y|ies)|packages?|frameworks?|crates?|gems?|plugins?|sdks?)\b(?=[^.;?]*\b(?:on|in|from)\s+github\b)/gi,
    ' repositories ',
  ],
  // `tell the general channel standup moved`: a message posted there.
  [/tell\s+(?:the\s+)?(?=#[\w-]+|[\w-]+\s+(?:channel|team|room)\b)/gi, ' post message to '],
  // `what change alerts do I have`: the monitors of pages.
  [
    /\b(?:change|changes|update|diff)\s+(?:alerts?|notifications?|watch(?:ers|es)?|trackers?)\b/gi,
    ' monitors changes ',
  ],
  // `LinkedIn heads of growth in London`: people found by a web search.
  [/\blinkedin\b/gi, ' linkedin web search people '],
  // `dig across whatever sites you need`: research left to an agent.
  [
    /\b(?:whatever|any|all\s+the|as\s+many)\s+(?:sites|sources|websites|pages)\s+(?:you\s+|it\s+)?(?:need|want|can\s+find|takes?|carry|carries|have|list|mention)\b|\b(?:wherever|anywhere)\s+(?:it|they|that|this)\s+(?:lives?|is|are|can\s+be\s+found)\s+online\b/gi,
    ' autonomous web research agent ',
  ],
  // `do not open it, there's PII inside`: what not to do is not asked for.
  [
    /\b(?:do\s+not|don't|never)\s+(?:open|read|change|modify|edit|touch|delete|remove|move|download|scrape|fetch)\b(?:\s+(?:it|them|this|that|the\s+file))?/gi,
    ' ',
  ],
  // `file it into Stories/housing`: a move.
  [/\bfile\s+(?:it|them|this|that|these|those)\s+(?:into|in|under|away\s+in)\b/gi, ' move into '],
  // `what's nested inside that toggle`: the children of a block.
  [/\bnested\s+(?:inside|in|under|within|below)\b/gi, ' children '],
  // `two levels deep`, `capped at 100 pages`: a crawl.
  [
    /\b[\w-]+\s+levels?\s+deep\b|\b(?:capped|limited)\s+at\s+\d+\s+pages\b|\bacross\s+(?:that|the|this|their|our)\s+(?:help\s+center|site|website|docs|documentation|wiki|knowledge\s+base)\b/gi,
    ' crawl pages ',
  ],
  // `a live session on that URL`: a browser session of the scraping service.
  [
    /\b(?:hosted|remote|live|cloud|interactive)\s+(?:browser(?:\s+session)?|session)\b/gi,
    ' interact browser session ',
  ],
  // `a place ID from the map lookup`: the place's details.
  [/\bplace[_\s-]?ids?\b/gi, ' place details '],
  // `a new reading-log table with columns for Student and Book`: a database to create.
  [
    /\b(?:new|create|make|set\s+up|add)\b[^.;]*?\b(?:table|database|db|tracker)\b[^.;]*?\bwith\s+(?:[^.;]{0,80}?\s)?(?:columns|fields|properties)\b/gi,
    ' create database data source properties ',
  ],
  // `break the migration into steps`: thinking it through.
  [
    /\bbreak\b[^.;]*?\binto\s+(?:small(?:er)?\s+|clear\s+|concrete\s+)?(?:steps|stages|phases|chunks|pieces)\b|\bchange\s+(?:my|our)\s+minds?\b|\brevisit(?:ing)?\s+(?:earlier|previous|prior|my|your|our|the)\s+(?:assumptions|steps|conclusions|thoughts|decisions)\b|\bwork\s+through\b(?=[^.;]*\b(?:carefully|methodically|systematically|step\s+by\s+step)\b)/gi,
    ' plan step by step revise ',
  ],
  // `1600 Amphitheatre Pkwy`: a street address.
  [
    /\b\d{1,5}\s+(?:[A-Z][\w'.-]*\s+){1,4}(?:St|Street|Ave|Avenue|Blvd|Boulevard|Rd|Road|Pkwy|Parkway|Ln|Lane|Dr|Drive|Way|Pl|Place|Ct|Court|Sq|Square|Hwy|Highway|Ter|Terrace|Cres|Crescent|Cir|Circle|Trl|Trail|Row|Close|Plaza|Alley)\b\.?/g,
    ' street address ',
  ],
  // `a list of fintech startups with founders and funding`: structured data gathered from the web.
  [
    /\b(?:a\s+)?(?:list|table|spreadsheet|dataset)\s+of\s+(?:every\s+|all\s+)?(?:the\s+)?(?:top\s+)?(?:\d+\s+)?(?:[\w-]+\s+){0,3}?(?:companies|startups?|cos|firms|foundations|charities|nonprofits|non-profits|ngos|agencies|publishers|vendors|competitors|brands|organi[sz]ations|orgs|products|investors|funds|universities)\b/gi,
    ' structured data web research ',
  ],
  // `anyone hit this error with next 14?`: a search of reported issues.
  [
    /\b(?:anyone|anybody|someone|others?)\s+(?:else\s+)?(?:already\s+)?(?:hit|seen|seeing|reported|report|filed|opened|raised|logged|run\s+into|ran\s+into|had|having|get|got|getting)\b|\bknown\s+(?:bug\s+reports?|bugs|issues|problems)\b/gi,
    ' search issues reported ',
  ],
  // `mark the search as bad`: feedback on its quality.
  [
    /\bmark\b(?=[^.;]*?\bas\s+(?:bad|good|partial|wrong|useless|helpful|irrelevant|junk|spam|incorrect|poor|unhelpful)\b)/gi,
    ' feedback quality ',
  ],
  // `a deep dive with sources`: research.
  [/\bdeep[- ]dive\b|\bin[- ]depth\s+(?:look|review|analysis|report)\b/gi, ' research report '],
  // `what's written in the notes file`: its contents.
  [/\bwhat(?:'s| is)\s+written\s+(?:in|on)\b/gi, ' read contents of '],
  // `when it was created`: a date.
  [
    /\bwhen\s+(?:it|they|this|that|[\w.-]+)\s+(?:was|were)\s+(?:created|modified|changed|updated|edited|written|made|touched|last\s+\w+)\b/gi,
    ' timestamp ',
  ],
  // `proposed code changes`: pull requests.
  [/\b(?:proposed|suggested|pending)\s+(?:code\s+)?changes\b/gi, ' pull requests '],
  // `the history of saved changes`: the commits.
  [/\b(?:saved|committed|recorded)\s+changes\b|\bchange\s+history\b/gi, ' commits history '],
  // `every response to the question Maria posted`: the replies in its thread.
  [
    /\b(?:responses?|replies|reply|answers?|reactions?|back-and-forth|conversation|discussion)\b(?:\s+[\w']+){0,3}?\s+(?:to|under|on)\s+(?:the|a|her|his|their|that|this|my|[\w]+'s)\s+(?:[\w-]+\s+)?(?:question|message|post|thread|announcement)\b/gi,
    ' thread replies ',
  ],
  // `what buttons and links are on the page`: its structure.
  [
    /\bwhat\s+(?:buttons|links|elements|fields|controls|inputs|options)\b(?=[^.;?]*\bon\s+(?:the|this)\s+(?:page|screen)\b)/gi,
    ' snapshot page elements ',
  ],
  // `move the card into the Done column`: a drag.
  [
    /\bmove\b(?=[^.;]*\b(?:card|tile|item|ticket|task)\b[^.;]*\b(?:column|lane|list|board|swimlane)\b)/gi,
    ' drag drop ',
  ],
  // `on a phone-sized screen`: a window size.
  [
    /\b(?:phone|mobile|tablet|iphone|ipad|android|desktop|laptop)[- ]?(?:sized?|width)\b|\bon\s+(?:a\s+)?(?:phone|mobile|tablet)\s+(?:screen|display)\b/gi,
    ' window size resize ',
  ],
  // `what the site looks like in dark mode`: an emulated media feature, not a screenshot.
  [
    /\blooks?\s+like\s+(?:in|with|under|using)\s+(?=(?:dark|light|print|high[- ]contrast|reduced[- ]motion)\b)/gi,
    ' emulate media ',
  ],
  // `assigned to me and due this week`: a filtered query.
  [
    /\b(?:items|tasks|entries|rows|cards|tickets)\b(?=[^.;]*?\b(?:assigned|due|tagged|labell?ed|owned)\b)/gi,
    ' $& query filter ',
  ],
  // `I no longer need the watcher`: to delete it.
  [/\bno longer\s+(?:need|want|use|require)\b/gi, ' delete '],
  // `all the help-center articles on support.example.com`: a crawl.
  [
    /\b(?:all|every)\s+(?:of\s+)?(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:articles?|pages?|posts?|docs?|entries|entry)\s+(?:on|from|of|under|across|in)\b(?!\s+(?:it|them)\b|\s+(?:this|that)\s*(?:[.,;:!?]|$))/gi,
    ' crawl all pages ',
  ],
  // `Priority = High`, `status='refunded'`: a condition to filter by.
  // `set property Priority = High`: a value to set, not a condition.
  [
    /\b(?:set|change|update|make)\s+(?:the\s+)?(?:property\s+|field\s+|column\s+)?[a-z][\w.]*\s*=\s*(?:'[^']*'|"[^"]*"|[\w.-]+)/gi,
    ' update set property value ',
  ],
  [/\b[a-z][\w.]*\s*(?:=|!=|<>|>=|<=)\s*(?:'[^']*'|"[^"]*"|[\w.-]+)/gi, ' filter condition query '],
  // `mark the card Done`: a property to set.
  [
    /\bmark\b(?=[^.;]*?\b(?:done|complete|completed|resolved|finished|closed|in progress)\b)/gi,
    ' update set property status ',
  ],
  // `add a "Reviewer" property to the tracker db`: a change of the data source's schema.
  [
    /\badd\s+(?:a|an|another|one more)\b[^.;]*?\b(?:property|column|field|select|tag)\s+(?:to|in|on)\s+(?:the|our|my|this|that)\b[^.;]*?\b(?:db|database|table|tracker|board|data source|list)\b/gi,
    ' update data source schema add property ',
  ],
  // `all URLs, no content needed`: a map of the site.
  [
    /\bno\s+content(?:\s+needed)?\b|\bwithout\s+(?:the\s+)?content\b|\b(?:just|only)\s+(?:the\s+)?(?:urls|links)\b/gi,
    ' map urls ',
  ],
  // `don't need it anymore`: to delete it.
  [
    /\b(?:don't|do not|won't)\s+(?:need|want|use)\b(?=[^.;]*\b(?:anymore|any more|any longer)\b)/gi,
    ' delete ',
  ],
  // `get the pdf out of Downloads and into Taxes`: a move.
  [/\bout\s+of\b(?=[^.;]*\binto\b)/gi, ' move from '],
  // `every spreadsheet with "invoice" in its name`: files searched by name.
  [
    /\bwith\s+text\s+in\s+(?:its|their|the)\s+names?\b|\b(?:named|called)\s+like\b/gi,
    ' search name pattern ',
  ],
  // `the whole layout of my thesis project`: its tree.
  [
    /\b(?:layout|structure|skeleton|shape|outline)\s+of\s+(?:my\s+|the\s+|our\s+|this\s+)?(?:[\w-]+\s+){0,2}?(?:project|repo|repository|folder|directory|codebase|workspace)\b|\bevery\s+sub-?folder\b|\ball\s+(?:the\s+)?sub-?folders\b/gi,
    ' directory tree ',
  ],
  // `report the broken filters in our GitLab project`: an issue to raise.
  [
    /\breport\s+(?:the|this|that)\b(?=[^.;]*\b(?:github|gitlab|project|repo)\b)/gi,
    ' create issue ',
  ],
  // `run a little script on the page`: JavaScript evaluated there.
  [
    /\b(?:run|execute)\s+(?:a\s+)?(?:little\s+|small\s+|quick\s+|short\s+)?(?:script|snippet|js|javascript)\s+(?:on|in|against)\s+(?:the|this)\s+page\b/gi,
    ' evaluate javascript page ',
  ],
  // `could the page live under Personal instead`: a move.
  [/\blive\s+(?:under|in|inside|beneath)\b(?![^.;]*\bwhere\b)/gi, ' move under '],
  // `get an alert whenever the page changes`: a monitor.
  [
    /\b(?:get|receive|have)\s+(?:an?\s+)?(?:alert|notification|email|ping|heads-up)\s+(?:when|whenever|if|once|every\s+time)\b/gi,
    ' create monitor changes ',
  ],
  // `log into the supplier's website and download…`: a live browser session.
  [
    /\blog\s*(?:in|into|on)(?:\s+to)?\s+(?:our|the|a|my|their|this)?\s*(?:[\w']+\s+){0,2}?(?:website|site|portal|dashboard|account)\b/gi,
    ' login interact browser session ',
  ],
  // `the search results were useless`: feedback on them.
  [
    /\b(?:results?|answers?|output)\b(?=[^.;]*\b(?:useless|junk|wrong|bad|irrelevant|poor|unhelpful|garbage)\b)/gi,
    ' $& feedback quality ',
  ],
  // `a ready-made data source instead of scraping`: a data provider.
  [
    /\b(?:instead\s+of|rather\s+than|without\s+having\s+to|so\s+(?:i|we)\s+(?:don't|do\s+not|won't)\s+have\s+to)\s+(?:scrap(?:e|ing)|copy(?:ing)?)\b/gi,
    ' data provider structured ',
  ],
  // `is that research job finished`: its status.
  [
    /(?<!\b(?:pretend|simulated?|fake|demo|mock)\b[^.;]*)\b(?:research|agent)\s+(?:job|task|run)\b(?=[^.;?]*\b(?:finished|done|ready|status|progress|complete|come\s+back|back\s+yet|returned)\b)(?![^.;]*\b(?:pretend|simulat\w*|fake|demo|mock)\b)/gi,
    ' agent status ',
  ],
  // `pushed to next Friday`: a date moved.
  [
    /\b(?:push(?:ed)?|move[ds]?|bump(?:ed)?)\s+(?:back\s+)?(?:to|until)\s+(?:next|later|tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/gi,
    ' postpone update date ',
  ],
  // `which watchers do we have`: a list of them.
  [
    /\b(?:which|what)\s+((?:[\w-]+\s+){1,3}?)(?:(?:have|'ve)\s+(?:we|i|you)\s+got\b|do\s+(?:we|i|you)\s+(?:have|own|run)\b)/gi,
    ' list $1 ',
  ],
  // `what exactly changed`: the differences.
  [/\bwhat\s+(?:exactly\s+|actually\s+)?changed\b/gi, ' diff changes '],
  // `a spreadsheet-style list of bookstores with their websites`: structured data gathered from the web.
  [
    /\b(?:list|table|spreadsheet)\s+of\b(?=[^.;]*?\bwith\s+(?:their|its|the)\b)(?![^.;]*\b(?:files?|folders?|directories|dirs?|issues|commits|messages|channels|users|members|tabs)\b)/gi,
    ' structured data web research ',
  ],
  // `the pros and cons of four-day weeks`: research.
  [/\bpros\s+and\s+cons\b/gi, ' research compare '],
  // `replace bootstrap.sh entirely`: a file written anew.
  [/\breplace\b(?=[^.;]*\b(?:entirely|completely|wholesale|outright)\b)/gi, ' overwrite write '],
  // `what's sitting in db/migrations`: a folder's listing.
  [
    /\bwhat(?:'s| is| are)\s+(?:sitting\s+|lying\s+|currently\s+|stored\s+)?in\s+(?:the\s+)?[\w.-]+\/[\w./-]*/gi,
    ' list directory contents ',
  ],
  [/\btop[- ]level\s+only\b|\bnot\s+recursive(?:ly)?\b|\bnon[- ]recursive\b/gi, ' list directory '],
  // `which pull requests are waiting`: a list of them.
  [
    /\b(?:which|what)\s+(?:open\s+|other\s+)?(?:pull requests|prs|issues|merge requests|mrs|branches|commits|repos|repositories|channels|users|monitors|pages|tabs)\b/gi,
    ' list $& ',
  ],
  // `log this in the team's repository`: an issue.
  [
    /\b(?:log|file|raise|report|track)\s+(?:this|that|it)\s+(?:in|on|against|to)\s+(?:[\w']+\s+){0,3}?(?:repo|repository|project|tracker|board)\b/gi,
    ' create issue ',
  ],
  // `pull that from our database`: an SQL query (a Notion database is named as one).
  [
    /(?<!\bpage\s+)\b(?:from|in|query|to)\s+(?:our|the|my)\s+(?:[\w-]+\s+)?(?:database|db)\b(?![^.;]*\bnotion\b)/gi,
    ' sql query database ',
  ],
  // `pull the key terms out of the contract PDF`: a document to parse.
  [
    /\b(?:fetch|pull|extract|get|grab)\b[^.;]*?\b(?:out\s+of|from)\s+(?:the\s+|a\s+|this\s+|that\s+|my\s+|our\s+)?(?:[\w-]+\s+){0,3}?(?:pdf|docx?|document|contract|invoice|spreadsheet|scan)\b/gi,
    ' $& parse document ',
  ],
  // `… to check which log level is set`: why, not what.
  [
    /\b(?:so\s+as\s+|in\s+order\s+)?to\s+(?:check|see|verify|confirm|find\s+out|make\s+sure)\s+(?:which|whether|if|what|how|that)\b/gi,
    ' ',
  ],
  // `have it return my text unchanged`: an echo.
  [
    /\b(?:return|send|give|hand|repeat|reflect)\w*\s+(?:it\s+|my\s+|the\s+|this\s+|that\s+)?(?:text|message|input|string|words|payload)\s+(?:back\s+)?(?:unchanged|verbatim|as[- ]is|untouched|intact|back)\b/gi,
    ' echo ',
  ],
  // `send "ping" and check it comes back unchanged`: an echo.
  [
    /\b(?:comes?|came|coming|gets?\s+sent|is\s+returned|bounces?)\s+back\s+(?:unchanged|verbatim|as[- ]is|intact|untouched|the\s+same|identical)\b/gi,
    ' echo ',
  ],
  // `I'm a project coordinator`, `as a release manager`: who asks, not what is asked.
  [
    /\b(?:(?:i'm|i\s+am|we're|we\s+are)\s+(?:an?\s+)?|as\s+an?\s+)(?:[\w-]+\s+){0,3}?(?:manager|coordinator|engineer|developer|analyst|designer|lead|director|officer|administrator|admin|producer|writer|editor|assistant|specialist|consultant|owner|planner|researcher|scientist|teacher|nurse|agent|student|founder)s?\b/gi,
    ' ',
  ],
  // `at a glance`: its details.
  [/\bat\s+a\s+glance\b/gi, ' get details '],
  // `finished yet or still going?`: its status.
  [
    /\b(?:finished|done|complete|completed|ready|over)\s+yet\b|\bstill\s+(?:going|running|working|in\s+progress|processing|crawling)\b/gi,
    ' status progress ',
  ],
  // `the last 100 messages in C02STANDUP`: a channel's history.
  [
    /\b(?:last|latest|recent|past)\s+(?:[\w-]+\s+)?messages\b(?=[^.;]*\b(?:in|from|of)\s+(?:#|id\b|the\s+[\w-]+\s+channel\b))/gi,
    ' recent messages channel history ',
  ],
  // `look in notion for the agenda`: a search there.
  [/\blook\s+(?:in|through|inside|around|across)\b([^.;]*?)\bfor\b/gi, ' search $1 for '],
  // `open the staging site in a headless browser`: to navigate there.
  [
    /\b(?:open|load|bring up|pull up)\b(?=[^.;]*\bin\s+(?:a|the)\s+(?:headless\s+)?browser\b)/gi,
    ' navigate ',
  ],
];

/** `open a PR`, `raise an issue`, `file a bug`: to open one is to create it (not to read it, as `open the file` is). */
export const OPEN_TO_CREATE =
  /\b(?:open|raise|file|log|submit|report)\s+(?:(?:a|an|the)\s+)?(?:new\s+)?(?:github\s+|gitlab\s+)?(?:[\w-]+\s+)?(pr|pull request|merge request|mr|issue|ticket|bug report|problem report|bug|problem)\b/gi;
