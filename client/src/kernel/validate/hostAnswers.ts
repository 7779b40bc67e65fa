/**
 * What the validator answers when an MCPL server asks its host something (MCPL §7.4, §9, §11, §12,
 * §14.3): the answers of a host that accepts events and messages, approves no scope and has no
 * model. The checks judge what was asked; these answers only keep the server going.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { isRecord, McplMethods } from '../mcpl/protocol';
import type { RequestAnswer } from './probe';

export const mcplHostAnswers: RequestAnswer = (method, params) => {
  switch (method) {
    case McplMethods.pushEvent:
      return Promise.resolve({ accepted: true });
    case McplMethods.scopeElevate:
      return Promise.resolve({ approved: false, reason: 'mgp validate approves no scope' });
    case McplMethods.channelsRegister:
      return Promise.resolve({});
    case McplMethods.channelsList:
      return Promise.resolve({ channels: [] });
    case McplMethods.channelsIncoming: {
      const messages = Array.isArray(params.messages) ? params.messages : [];
      return Promise.resolve({
        results: messages.filter(isRecord).map((message) => ({
          messageId: message.messageId,
          accepted: true,
        })),
      });
    }
    case McplMethods.inferenceRequest:
    case McplMethods.modelInfo:
      return Promise.reject(new McpError(ErrorCode.InternalError, 'mgp validate has no model'));
  }
  return undefined;
};
