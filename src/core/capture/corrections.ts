// The user correcting the assistant, read from the conversation's structure:
// a tool call the user refused (with a note, or followed by what they said
// next), and a message right after the assistant acted that turns it around.
// Words alone decide nothing; they only tell a correction from a new request
// when the structure already points at one. The markers cover the languages
// users write in (English, Portuguese, Spanish, French, German, Italian,
// Russian, Ukrainian) and are the kind of word a correction carries in any of
// them: a negation, "instead", "always/never", "we need", "use". Pure.

import { oneLine } from '../text.ts';

/** How the structure pointed at it. */
export type CorrectionHow = 'refusal-note' | 'after-refusal' | 'after-action' | 'stated';

export interface Correction {
  /** The user's words, as they wrote them (one line, trimmed). */
  words: string;
  /** What it was about: the refused or preceding action, as a short phrase. */
  about: string;
  how: CorrectionHow;
}

// A message that opens by turning something down.
const OPENS_NEGATIVE =
  /^(?:no|nope|not|don'?t|do not|never|stop|wait|wrong|actually|instead|não|nao|nunca|pare|errado|na verdade|no,|nunca|non|nein|nicht|niet|нет|не|ні|стоп|подожди|неправильно|вообще-то)(?=[\s,.!:;]|$)/iu;

// What a directive or preference carries, in any of those languages.
const DIRECTIVE =
  /(?:^|[\s,.;:!(])(?:don'?t|do not|never|always|instead|rather|we need|you need|should|must|please|use|prefer|only|before|after|avoid|make sure|be aware|keep|não|nao|nunca|sempre|em vez|ao invés|usa|use|prefira|precisa|deve|antes|depois|só|somente|siempre|en vez|debe|hay que|solo|toujours|jamais|au lieu|il faut|utilise|immer|statt|anstatt|muss|benutze|sempre|invece|usa|всегда|никогда|вместо|нужно|надо|должен|используй|сначала|только|не надо|не нужно|завжди|ніколи|замість|потрібно)(?=[\s,.;:!?)]|$)/iu;

// Consent and small talk: moving on, not a lesson ("continue", "ok", "sim", "да").
const ACKNOWLEDGEMENT =
  /^(?:ok(?:ay)?|yes|yep|sure|continue|go on|go ahead|proceed|retry|try again|thanks?|thank you|sim|claro|pode|continua|continue|vai|s[ií]|dale|oui|ja|да|давай|продолжай|ок|так)[\s!.,]*$/iu;

const MIN_WORDS = 4;
const STEP_RULE_MAX = 120;
const MAX_CHARS = 280;

/** The user's text read as a lesson candidate, or null when it is a question, a paste, a new task or small talk. */
export function correctionText(raw: string): string | null {
  const text = raw.trim();
  if (!text || text.startsWith('/') || text.startsWith('<') || text.startsWith('!')) return null;
  // A paste (logs, code, a config file) or a whole task description is not a correction of one step.
  if (text.length > MAX_CHARS || text.split(/\r?\n/).filter((l) => l.trim()).length > 3 || /```|^\s*(?:at |File "|\$ )/m.test(text))
    return null;
  const line = oneLine(text);
  if (ACKNOWLEDGEMENT.test(line)) return null;
  // Scripts without spaces count by characters.
  const words =
    line.split(/\s+/).length +
    (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(line) ? Math.floor(line.length / 4) : 0);
  if (words < MIN_WORDS) return null;
  // A question asks; it does not tell.
  if (/[?？]\s*$/.test(line)) return null;
  return line;
}

/**
 * The user's message read as a correction, given what came just before it: a refused call, or an action
 * of the assistant in the turn it answers. Null when it is not one.
 */
export function readCorrection(
  message: string,
  before: { refused: string | null; acted: (() => string) | string | null },
): Correction | null {
  const words = correctionText(message);
  if (!words) return null;
  // A long message after a refusal or an action is more often the next task than a rule about the last step.
  if (words.length > STEP_RULE_MAX) return null;
  if (before.refused && DIRECTIVE.test(words)) return { words, about: before.refused, how: 'after-refusal' };
  if (before.acted && OPENS_NEGATIVE.test(words) && DIRECTIVE.test(words))
    return { words, about: typeof before.acted === 'function' ? before.acted() : before.acted, how: 'after-action' };
  return null;
}

/** A refusal's note ("…the user said: use lru_cache instead"), when it says something to keep. */
export function refusalNote(note: string, about: string): Correction | null {
  const words = correctionText(note);
  return words ? { words, about, how: 'refusal-note' } : null;
}

/** Claude Code's words when the user turned a tool call down. */
export function isRefusal(resultText: string): boolean {
  return /\bdoesn't want to (?:proceed with this tool use|take this action)\b|\btool use was rejected\b/i.test(resultText);
}

// A standing rule addressed to the assistant. Either the sentence opens with "always …", "never …",
// "from now on …" (an instruction, not a description: "the function always returns" is a spec), or it
// speaks to the assistant anywhere: "I want you to …", "call me …", "without my confirmation …".
const OPENER_WORDS =
  "always|never|from now on|every time|don'?t ever|do not ever|sempre|nunca|a partir de agora|toda vez|siempre|a partir de ahora|toujours|jamais|désormais|immer|niemals|ab jetzt|всегда|никогда|с этого момента|каждый раз|завжди|ніколи";
const RULE_OPENER = new RegExp(
  `^(?:(?:please|pls|and|also|but|por favor|e|y|et|und|и|а|пожалуйста),?\\s+)?(?:${OPENER_WORDS})(?=[\\s,.;:!)»"]|$)`,
  'iu',
);
const RULE_ADDRESSED =
  /(?:^|[\s,.;:!(«"])(?:i want you to|i'd like you to|call me|without my (?:confirmation|approval|permission)|quero que voc[eê]|me chame|sem (?:a )?minha (?:confirma[çc][ãa]o|aprova[çc][ãa]o|permiss[ãa]o)|quiero que|ll[aá]mame|sin mi (?:confirmaci[oó]n|aprobaci[oó]n|permiso)|je veux que tu|appelle-moi|sans mon (?:accord|autorisation)|ich möchte, dass du|nenn mich|ohne meine (?:zustimmung|bestätigung)|я хочу, чтобы ты|обращайся ко мне|называй меня|без моего (?:подтверждения|согласия|разрешения))(?=[\s,.;:!?)»"]|$)/iu;

const RULE_MAX = 220;
// Any of the rule words anywhere: most prompts hold none and are not split into sentences at all.
const RULE_WORDS = new RegExp(`(?:${OPENER_WORDS})|${RULE_ADDRESSED.source}`, 'iu');

/** Sentences of a prompt that set a standing rule for the assistant (at most `max`), each as the user wrote it. */
export function statedRules(prompt: string, max = 3): Correction[] {
  const text = prompt.trim();
  if (!text || text.startsWith('/') || text.startsWith('<') || /```/.test(text) || !RULE_WORDS.test(text)) return [];
  const out: Correction[] = [];
  for (const part of text.split(/(?<=[.!?;])\s+|\r?\n+/)) {
    const sentence = oneLine(part.replace(/^[-*•\d.)\s]+/, ''));
    if (
      sentence.length < 12 ||
      sentence.length > RULE_MAX ||
      /[?？]$/.test(sentence) ||
      !(RULE_OPENER.test(sentence) || RULE_ADDRESSED.test(sentence))
    )
      continue;
    if (sentence.split(/\s+/).length < MIN_WORDS) continue;
    out.push({ words: sentence, about: 'how to work with them', how: 'stated' });
    if (out.length >= max) break;
  }
  return out;
}
