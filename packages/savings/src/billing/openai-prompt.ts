import { itemsOf, type ResponsesRequest } from '../wire/responses-request.js';
import { canonicalJson } from './canonical-json.js';

/** The rendered prompt of a Responses request, with where each part of the body starts in it. */
export interface RenderedPrompt {
  readonly text: string;
  /** Start offsets in `text`, ascending, each with the body part that starts there (`tools`, `input[3]`). */
  readonly sections: readonly { readonly start: number; readonly label: string }[];
}

/**
 * The prompt an OpenAI Responses request renders, as one string in render order: tool definitions, the
 * instructions, then the input items. Item `id` and `status` fields are bookkeeping the model never sees,
 * and reasoning's `encrypted_content` is not billed as text, so they are left out; everything else is
 * kept in its semantic (canonical JSON) form.
 */
export function responsesPrompt(body: ResponsesRequest): RenderedPrompt {
  const parts: { label: string; text: string }[] = [
    { label: 'tools', text: canonicalJson(body.tools ?? []) },
    { label: 'instructions', text: body.instructions ?? '' },
  ];
  itemsOf(body.input).forEach((item, i) => {
    // `encrypted_content` is the model's own reasoning, carried opaquely between turns; the provider does not
    // bill its base64 as prompt text (real rollouts' recorded input is a third of what counting it gives).
    const {
      id: _id,
      status: _status,
      encrypted_content: _sealed,
      ...rendered
    } = item as Record<string, unknown>;
    parts.push({ label: `input[${i}](${String(item.type ?? item.role)})`, text: canonicalJson(rendered) });
  });
  const sections: { start: number; label: string }[] = [];
  let offset = 0;
  for (const part of parts) {
    sections.push({ start: offset, label: part.label });
    offset += part.text.length + 1;
  }
  return { text: parts.map((p) => p.text).join('\n'), sections };
}

/** The body part that holds character `offset` of a rendered prompt. */
export function sectionAt(prompt: RenderedPrompt, offset: number): string {
  let label = prompt.sections[0]?.label ?? '';
  for (const section of prompt.sections) if (section.start <= offset) label = section.label;
  return label;
}
