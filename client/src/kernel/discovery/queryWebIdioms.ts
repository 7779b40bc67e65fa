import { inClauseWith, type Rewrite } from './rewrite';

/** The web and the map in their users' words: research across many sites, the companies in a field, a grid of drive times. */
export const WEB_IDIOMS: readonly Rewrite[] = [
  // `you'll have to dig across a bunch of sites`: research left to an agent.
  [
    /\b(?:dig|search|look|hunt|poke|trawl|comb|crawl|go)\w*\s+(?:across|through|around|over)\s+(?:a\s+(?:bunch|lot|ton|number|pile|handful)\s+of|many|lots\s+of|multiple|several|various|dozens\s+of|loads\s+of|a\s+few|different|lots\s+of\s+different)\s+(?:web\s*)?(?:sites|websites|pages|sources)\b|\b(?:gathered|collected|compiled|pulled|found)\s+(?:from\s+|across\s+)(?:sites|websites|the\s+web|the\s+internet|online\s+sources)\b/gi,
    ' autonomous web research agent ',
  ],
  // `startups making solid state batteries`: companies found by a web search.
  [
    /\b(?:startups|companies|firms|vendors|makers|manufacturers|suppliers|labs|brands|businesses)\s+(?:making|building|doing|selling|developing|producing|working\s+on|that\s+(?:make|build|sell|develop|produce|do))\b/gi,
    ' web search companies ',
  ],
  // `the company name and tax number of these pages as structured JSON`: data extracted from the pages.
  inClauseWith(
    /\b(?:urls?|pages?|site|website)\b/i,
    /\b(?:as|into|in)\s+(?:a\s+)?(?:structured\s+|neat\s+|clean\s+|tidy\s+)?(?:json|table|spreadsheet|csv)\b/gi,
    ' extract structured data json ',
  ),
  // `the price list, https://…, as plain readable text`: the page's content.
  inClauseWith(
    /\burl\b/i,
    /\bas\s+(?:(?:plain|clean|readable|simple)\s+){1,3}text\b|\bas\s+markdown\b/gi,
    ' scrape content markdown ',
  ),
  // `a ready data source I can hook into`: a data provider.
  [
    /\b(?:ready|ready-made|existing|off-the-shelf|prebuilt|pre-built)\s+(?:data\s+sources?|datasets?|data\s+feeds?|feeds?|data\s+providers?)\b/gi,
    ' data provider find tools ',
  ],
  // `log that it was a bad result`: feedback on a result.
  [
    /\b(?:was|is)\s+a\s+(?:bad|poor|useless|wrong|junk|good|great|helpful)\s+(?:result|scrape|answer|grab|search|job)\b/gi,
    ' feedback quality ',
  ],
  [/\bpage\s+grab\b/gi, ' scrape '],
  // `what identifier does the documentation service use for pandas`: a library's id.
  inClauseWith(/\b(?:documentation|docs)\b/i, /\b(?:identifier|id)\b/gi, ' library id resolve '),
  // `its exact latitude and longitude`: an address geocoded.
  [
    /\b(?:its|the|exact)\s+(?:exact\s+)?(?:latitude\s+and\s+longitude|lat(?:itude)?\s*\/\s*long?(?:itude)?|lat\s*\/?\s*lng)\b/gi,
    ' geocode coordinates address ',
  ],
  // `drive time and mileage from every DC to every store`: a matrix of distances.
  [
    /\bfrom\s+(?:every|each|all(?:\s+the)?|any\s+of\s+the)\b(?=[^.;]*?\bto\s+(?:every|each|all(?:\s+the)?)\b)/gi,
    ' distance matrix from ',
  ],
  [/\bmileage\b|\bhow\s+many\s+(?:miles|kilometers|kilometres|km)\b/gi, ' distance '],
  [
    /\bfrom\b(?=[^.;?]*?\bto\s+(?:each|every|all)\s+of\b)|\bevery\s+(?:pairing|pair|combination)\b/gi,
    ' distance matrix ',
  ],
  // `24 hr pharmacy open now`: a local business by its hours.
  [
    /\bopen\s+(?:now|right\s+now|late|tonight|24\/7|all\s+night)\b|\b24\s*(?:hr|hrs|hour|hours|h)\b/gi,
    ' local business open ',
  ],
  // `the latest on the EU AI Act vote`: the news.
  [
    /^\s*(?:the\s+)?latest\s+(?:on|about|with|regarding)\b|\bwhat(?:'s|s|\s+is)\s+the\s+latest\s+(?:on|about|with|regarding)\b|\bany\s+(?:updates?|news)\s+(?:on|about)\b/gi,
    ' news web search ',
  ],
  // `what are forecasters saying about mortgage rates`: opinions on the web.
  [
    /\bwhat\s+(?:are|is)\s+(?:people|experts|analysts|forecasters|economists|critics|reviewers|users|folks|others|commentators|pundits)\s+(?:[\w-]+\s+){0,3}?saying\s+(?:about|on|regarding)\b/gi,
    ' web search news ',
  ],
  // `garden centres within 5 km of downtown Portland`: places nearby.
  [
    /\bwithin\s+(?:\S+\s+)?(?:km|kilometers|kilometres|miles?|mi|blocks|minutes?)\s+(?:of|from)\b/gi,
    ' nearby places near ',
  ],
  // `the current rules in Ontario about…`, `how green burial is regulated`: the law, from the web.
  [
    /\bwhat\s+are\s+the\s+(?:current\s+|latest\s+)?(?:rules|regulations|laws|requirements|guidelines)\b|\bhow\s+(?:is|are)\s+(?:[\w-]+\s+){1,4}?regulated\b/gi,
    ' web search regulations ',
  ],
  [
    /\b(?:properly\s+|well\s+|fully\s+)?sourced\s+(?:overview|summary|report|brief|write-?up|explainer)\b/gi,
    ' research report with sources ',
  ],
  // `the exchange rate from euro to zloty`: a live fact from the web.
  [/\bexchange\s+rates?\b|\b(?:stock|share)\s+prices?\b/gi, ' web search current '],
  // `pricing and founders for ten vector-database startups`: structured data from the web.
  [
    /\bfor\s+(?:\d+|ten|twenty|five|fifteen|a\s+dozen|several|many)\s+(?:[\w-]+\s+){0,3}?(?:companies|startups|firms|vendors|competitors|brands)\b(?![^.?]*\b(?:data\s+provider|provider|dataset|api)\b)/gi,
    ' structured data web research ',
  ],
  // `log a bad rating`: feedback on a result.
  [/\b(?:bad|good|poor|partial|negative|positive)\s+rating\b/gi, ' feedback quality rating '],
  // `peer-reviewed studies on…`: scholarly papers.
  [/\bpeer[- ]reviewed\b/gi, ' scholarly papers '],
];
