import type { Rewrite } from './rewrite';

/** Relations between two things told to the memory (`Heron depends on Lattice`, `Canopy was replaced by Arbor`). */
const RELATION_PHRASES =
  /\b(?:depends|relies|builds|runs)\s+on\b|\b(?:ships|sells|supplies|delivers|distributes|lends|reports|answers)\s+(?:to|for)\b|\b(?:partners|works|collaborates|competes)\s+with\b|\b(?:supplies|distributes)\b|\b(?:(?:was|is|got|has\s+been)\s+)?(?:replaced|superseded|succeeded|acquired|bought)\s+by\b|\bis\s+(?:a\s+)?part\s+of\b/gi;

/**
 * Requests about an assistant's memory (`remember that…`, `what do you know about…`, `forget
 * everything about…`) name neither a tool nor its objects: they ask for the memory, a knowledge graph.
 */
export const MEMORY_REQUESTS: readonly Rewrite[] = [
  // `break the tie between Hank and Globex`: to delete a relation.
  [
    /\b(?:break|cut|sever)\s+(?:the\s+)?(?:tie|link|connection|relation|relationship)\b/gi,
    ' delete relation ',
  ],
  // `save a new contact`: a person for the memory.
  [
    /\b(?:save|add|store|remember|create|record)\s+(?:a\s+|an\s+)?(?:new\s+)?(?:contact|person|client|customer|candidate|vendor|supplier|lead)\b/gi,
    ' create memory entity person ',
  ],
  // `what do you have on file about…`: the memory.
  [
    /\b(?:you|u|we)(?:'ve|\s+(?:already\s+)?have)\s+(?:already\s+)?(?:got\s+)?on\s+(?:file|record)\b|\bkeep\s+(?:\w+\s+){0,2}?on\s+file\b/gi,
    ' memory knowledge ',
  ],
  // `everything you've been tracking for me`, `the sources you've noted for me`: the memory.
  [
    /\b(?:you|u)(?:'ve|\s+have)?\s+(?:been\s+)?(?:tracking|tracked|noted|noting|keeping|kept|recorded|recording|saved|stored|remembered|logged)\s+(?:for|about|on)\s+(?:me|us|my|our)\b/gi,
    ' memory knowledge ',
  ],
  // `remember: Tomasz = our contact at Baltic`: a fact for the memory.
  [/\b(?:remember|memori[sz]e|note|jot down|keep in mind)\s*:/gi, ' remember memory knowledge '],
  // `the Falcon project is owned by Growth`: a relation between two things.
  [
    /\bis\s+(?:owned|managed|run|led|maintained|funded|backed|sponsored|founded|employed)\s+by\b|\b(?:is|are)\s+(?:his|her|their|my|our)\s+(?:sister|brother|mother|father|son|daughter|wife|husband|partner|cousin|aunt|uncle|niece|nephew|boss|manager|colleague|friend|neighbou?r|mentor|landlord|tenant|client|employer)s?\b|\bbelongs\s+to\b|\breports\s+to\b|\bworks\s+(?:for|at)\b/gi,
    ' relation ',
  ],
  // `persist some facts for later`: the memory.
  [
    /\b(?:persist|save|store|keep|record)\s+(?:some\s+|these\s+|a\s+few\s+|the\s+)?(?:facts?|notes?|details?)\s+(?:for\s+later|for\s+the\s+future|for\s+next\s+time|about)\b/gi,
    ' remember memory knowledge ',
  ],
  // `anything I saved earlier`: the memory.
  [
    /\b(?:i|we)\s+(?:saved|stored|noted|told\s+you|asked\s+you\s+to\s+remember)\s+(?:earlier|before|previously|last\s+time)\b/gi,
    ' memory knowledge ',
  ],
  // `unlink them`: a relation to remove.
  [/\b(?:unlink|disassociate|decouple)\b/gi, ' delete relation '],
  // `rememb…`: `remember`, and typos of its ending such as `remembr`.
  [
    /\b(rememb\w*|memori[sz]e|record|note|note down|jot down|write down|keep in mind|bear in mind)(?:\s+(?:in|to)\s+(?:your\s+|the\s+)?memory)?(?:\s+(?:from now on|going forward|for the future|for later|for next time))? that\b/gi,
    ' $1 memory knowledge ',
  ],
  // `… that Heron depends on Lattice`, `… that Canopy was replaced by Arbor`: a relation between two things remembered.
  [/\bmemory knowledge\b[^.;]*/gi, (fact) => fact.replace(RELATION_PHRASES, ' relation ')],
  // `what you have on him`: what the memory holds about someone.
  [
    /\b(?:what|everything|anything|all)\s+(?:you|u)\s+(?:have|know|got)\s+(?:on|about)\b/gi,
    ' memory knowledge observation ',
  ],
  [
    /(?<!\bso\s+(?:that\s+)?)\b(?:do )?(?:you|u|we) (?:already |still )?(?:know|remember|recall|have (?:stored|remembered|saved|memori[sz]ed|recorded|noted))(?: about)?\b|\byou've (?:stored|remembered|saved|memori[sz]ed|recorded|noted)\b/gi,
    ' memory knowledge ',
  ],
  [
    /\b(?:remembered|stored|saved|memorized|recorded|noted) (?:about|on)\b(?!\s+(?:the\s+|my\s+|our\s+)?(?:disk|drive|server|machine|computer|laptop|device|filesystem|file system|s3)\b)/gi,
    ' memory knowledge ',
  ],
  // `what have you got stored that mentions kubernetes`, `look through what you've retained`: what the memory holds.
  [
    /\b(?:you|u)(?:'ve|\s+have)?\s+(?:got\s+)?(?:stored|retained|memori[sz]ed|on\s+record)\b|\bhave\s+(?:you|u)\s+(?:already\s+|ever\s+)?(?:stored|remembered|memori[sz]ed|recorded|noted|retained|kept)\b|\bkeep\s+(?:[\w-]+\s+){0,3}?with\s+you\b/gi,
    ' memory knowledge ',
  ],
  // `so it persists into the next session`, `from earlier sessions`: what an assistant keeps between conversations.
  [
    /\b(?:persists?|survives?|carries?\s+over|stays?|is\s+kept|sticks?)\s+(?:into|to|across|for|until|in)\s+(?:the\s+)?(?:next|future|later|other|all)\s+(?:sessions?|conversations?|chats?)\b|\bacross\s+(?:sessions|conversations|chats)\b|\b(?:from|in)\s+(?:earlier|previous|past|prior|other|older)\s+(?:sessions|conversations|chats)\b|\b(?:i|we)\s+already\s+know\b/gi,
    ' memory knowledge remember ',
  ],
  // `load the "Kenji" and "Aiko" records by exact name`: entities opened by their names.
  [
    /\bby\s+(?:their\s+|its\s+)?exact\s+names?\b|\b(?:for|named|called)\s+exactly\b/gi,
    ' open nodes names ',
  ],
  [/\byour\s+(?:saved\s+|stored\s+)(?:records|notes|facts)\b/gi, ' memory knowledge '],
  // `what have you got on record for "Rosa" and "Emil"`: entities opened by their names.
  [
    /\bmemory knowledge\s+(?:for|on|about)\s+text(?:\s*(?:,|and)\s*text)+/gi,
    ' memory open nodes names ',
  ],
  // `add that the roof was replaced`, `remove just that detail`: a fact of an entity, added or removed.
  [/\badd\s+(?:that|the\s+fact\s+that)\b/gi, ' add observation fact '],
  [
    /\b(?:remove|delete|drop|forget|strike)\s+(?:just\s+|only\s+)?(?:that|this|the)\s+(?:detail|fact|bit|note|line|observation)\b/gi,
    ' delete observation ',
  ],
  // `remember how those fit together: Diaz leads the Tigers`: relations.
  [
    /\bhow\s+(?:those|these|they|the\s+[\w-]+|it\s+all)\s+(?:fit|tie|link|hang|connect)s?\s+together\b|\bhow\s+(?:they|those|these)\s+(?:are\s+)?(?:related|connected|linked)\b/gi,
    ' relations between ',
  ],
  // `keep in mind two newcomers: Dana…, and Marco…`: people for the memory.
  [
    /\bkeep\s+in\s+mind\s+(?:[\w-]+\s+){0,2}?(?:people|persons|newcomers|contacts|clients|customers|vendors|suppliers|volunteers|members|names|folks|players|students|patients|guests)\b/gi,
    ' remember memory create entities people ',
  ],
  // `every node and every link`, `dump all of it`: the whole graph.
  [
    /\bevery\s+(?:node|entity|person|thing|item|record)\s+and\s+every\s+(?:link|edge|relation|relationship|connection)s?\b|\bthe\s+whole\s+lot\b|\b(?:dump|export)\s+(?:all|everything|the\s+whole)\b/gi,
    ' read entire graph ',
  ],
  // `start keeping track of the vendors… give each their own record`: entities for the memory.
  [
    /\b(?:start|begin)\s+(?:keeping|to\s+keep)\s+track\s+of\b|\b(?:its|their)\s+own\s+(?:record|entry|entity|node)\b/gi,
    ' remember memory create entities ',
  ],
  [/\bforget (everything|all|what)\b/gi, ' forget memory knowledge '],
  // `forget "Old Staging Cluster"` (a quoted name, `text` by now): an entity of the memory.
  [/\bforget\s+(?:about\s+)?text\b/gi, ' forget delete memory entity '],
  [/\blong[- ]term memory\b/gi, ' memory knowledge '],
];
