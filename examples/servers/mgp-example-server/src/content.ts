/**
 * The resource and the prompt, as McpServer served them before: same names, URIs and texts. The about
 * page lists the tools from the registry, so it cannot drift from tools/list.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ITEM_ICONS } from './icons';
import type { ToolDef } from './tooling';
import { MGP_VERSION } from './wire';

const ABOUT_URI = 'mgp-example://about';
const PROMPT_NAME = 'summarize-notes';

export function aboutText(tools: readonly ToolDef[]): string {
  const plain = tools.filter((tool) => tool.plainMcp).map((tool) => tool.name);
  const mgp = tools
    .filter((tool) => !tool.plainMcp)
    .map((tool) => `- ${tool.name} (${tool.security.risk_level}): ${tool.description}`);
  return [
    '# mgp-example-server',
    `Tools: ${plain.join(', ')}.`,
    '',
    `With MGP ${MGP_VERSION} negotiated (\`capabilities.mgp\` in initialize), every tool carries \`security\` metadata and these tools join them:`,
    ...mgp,
  ].join('\n');
}

function installResources(server: Server, tools: readonly ToolDef[]): void {
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      {
        uri: ABOUT_URI,
        name: 'about',
        title: 'About this server',
        description: 'What this example server offers',
        mimeType: 'text/markdown',
        icons: ITEM_ICONS,
      },
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    if (request.params.uri !== ABOUT_URI)
      throw new McpError(ErrorCode.InvalidParams, `Resource ${request.params.uri} not found`);
    return { contents: [{ uri: ABOUT_URI, mimeType: 'text/markdown', text: aboutText(tools) }] };
  });
}

function installPrompts(server: Server): void {
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [
      {
        name: PROMPT_NAME,
        title: 'Summarize notes',
        description: 'Asks the model to summarize the notes kept by this server',
        arguments: [{ name: 'style', required: false }],
        icons: ITEM_ICONS,
      },
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    if (request.params.name !== PROMPT_NAME)
      throw new McpError(ErrorCode.InvalidParams, `Prompt ${request.params.name} not found`);
    const style = request.params.arguments?.style;
    return {
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Summarize my notes${style ? ` in a ${style} style` : ''}.`,
          },
        },
      ],
    };
  });
}

export function installContent(server: Server, tools: readonly ToolDef[]): void {
  installResources(server, tools);
  installPrompts(server);
}
