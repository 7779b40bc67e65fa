/**
 * MGP capability negotiation (MGP §2): what the kernel offers in `initialize`, and what is active once
 * the server has answered.
 */
export const MGP_VERSION = '0.5.2';

/** The extensions this kernel implements (MGP §2.2 table), offered to every server. */
export const KERNEL_EXTENSIONS = [
  'security',
  'access_control',
  'audit',
  'code_safety',
  'lifecycle',
  'streaming',
  'bidirectional',
  'discovery',
  'tool_discovery',
  'error_handling',
] as const;

export type MgpExtension = (typeof KERNEL_EXTENSIONS)[number];

export interface MgpOffer {
  version: string;
  extensions: string[];
  /** MGP §16.6 guardrail 1: autonomous tool creation is off unless the operator turns it on. */
  tool_creation: { enabled: boolean };
}

/** The negotiated MGP state of one connection. */
export interface NegotiatedMgp {
  /** The server's MGP version. */
  version: string;
  /** Intersection of ours and the server's (MGP §2.4 rule 1). */
  extensions: ReadonlySet<string>;
  permissionsRequired: string[];
  serverId?: string;
  trustLevel?: string;
  /** Event channels the server publishes (MGP §13.5), when it says. */
  eventChannels: string[];
}

export interface NegotiationNote {
  level: 'info' | 'warning' | 'error';
  message: string;
}

export interface NegotiationOutcome {
  /** undefined: the connection is plain MCP (MGP §2.4 rule 2). */
  mgp: NegotiatedMgp | undefined;
  notes: NegotiationNote[];
}

export function mgpOffer(toolCreation = false): MgpOffer {
  return {
    version: MGP_VERSION,
    extensions: [...KERNEL_EXTENSIONS],
    tool_creation: { enabled: toolCreation },
  };
}

function parseSemver(text: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}

/** Semver rules of MGP §2.4 rule 4 and §2.5: the major must match; pre-1.0, a minor mismatch warns. */
export function compareVersions(ours: string, theirs: string): NegotiationNote | 'compatible' {
  const a = parseSemver(ours);
  const b = parseSemver(theirs);
  if (!b)
    return {
      level: 'error',
      message: `the server's MGP version "${theirs}" is not semver: connecting as plain MCP`,
    };
  if (!a || a[0] !== b[0])
    return {
      level: 'error',
      message: `MGP major version mismatch (kernel ${ours}, server ${theirs}): connecting as plain MCP`,
    };
  if (a[0] === 0 && a[1] !== b[1]) {
    return {
      level: 'warning',
      message: `MGP ${ours} and the server's ${theirs} differ in minor version; before 1.0 that may break things (MGP §2.5). Connecting anyway.`,
    };
  }
  return 'compatible';
}

/**
 * The active MGP state from our offer (undefined when we made none) and the server's raw
 * `capabilities.mgp`. A server that answers `mgp` unasked violates MGP §2.4 rule 3: logged, ignored.
 */
export function negotiate(offer: MgpOffer | undefined, serverMgp: unknown): NegotiationOutcome {
  if (serverMgp === undefined || serverMgp === null)
    return {
      mgp: undefined,
      notes: offer
        ? [
            {
              level: 'info',
              message: 'the server did not answer with mgp: plain MCP (MGP §2.4 rule 2)',
            },
          ]
        : [],
    };
  if (!offer) {
    return {
      mgp: undefined,
      notes: [
        {
          level: 'error',
          message:
            'protocol violation: the server sent capabilities.mgp although the kernel offered none (MGP §2.4 rule 3); ignored',
        },
      ],
    };
  }
  if (typeof serverMgp !== 'object' || Array.isArray(serverMgp)) {
    return {
      mgp: undefined,
      notes: [
        {
          level: 'error',
          message: 'protocol violation: capabilities.mgp is not an object; connecting as plain MCP',
        },
      ],
    };
  }
  const raw = serverMgp as Record<string, unknown>;
  const version = typeof raw.version === 'string' ? raw.version : '';
  const notes: NegotiationNote[] = [];
  const compatibility = compareVersions(offer.version, version);
  if (compatibility !== 'compatible') {
    notes.push(compatibility);
    if (compatibility.level === 'error') return { mgp: undefined, notes };
  }
  const theirs = strings(raw.extensions);
  const extensions = new Set(theirs.filter((name) => offer.extensions.includes(name)));
  const extra = theirs.filter((name) => !offer.extensions.includes(name));
  if (extra.length)
    notes.push({
      level: 'info',
      message: `the server lists extensions the kernel did not offer, left inactive: ${extra.join(', ')}`,
    });
  return {
    mgp: {
      version,
      extensions,
      permissionsRequired: strings(raw.permissions_required),
      serverId: typeof raw.server_id === 'string' ? raw.server_id : undefined,
      trustLevel: typeof raw.trust_level === 'string' ? raw.trust_level : undefined,
      eventChannels: strings(raw.event_channels),
    },
    notes,
  };
}
