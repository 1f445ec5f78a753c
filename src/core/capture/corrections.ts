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
export type CorrectionHow = 'refusal-note' | 'after-refusal' | 'after-action' | 'stated' | 'repeated';

export interface Correction {
  /** The user's words, as they wrote them (one line, trimmed). */
  words: string;
  /** What it was about: the refused or preceding action, as a short phrase. */
  about: string;
  how: CorrectionHow;
}

// A message that opens by turning something down.
// "No, …" turns something down; "No signups came in" states a fact: a bare English no or wrong needs its comma
// or stop. In Portuguese and Russian the bare word is the ordinary "don't" (não use, не используй).
const OPENS_NEGATIVE =
  /^(?:(?:no|nope|wrong|errado|non|nein|niet|неправильно)(?=\s*[,.!:;—–-]|$)|(?:not|don'?t|do not|never|stop|wait|actually|não|nao|nunca|pare|na verdade|nicht|нет|не|ні|стоп|подожди|вообще-то)(?=[\s,.!:;]|$))/iu;

// "Wait", "actually" open a thought as readily as a turn-down ("Wait so if the feature flag broke them then we need to
// fix them"): they turn the step down only when what follows does ("Wait, don't push yet", "actually, use pnpm instead").
const SOFT_OPENER = /^(?:wait|actually|hold on|na verdade|espere|espera|подожди|вообще-то)[\s,.!:;—–-]+/iu;
// What turns the step down after one: a no, a use, an instead, a should ("Wait no we should keep the old cache logic").
const TURNS_AFTER_SOFT =
  /^(?:no\s|(?:use|usa|utilise|benutze|используй)(?=[\s,.;:!?]|$)|(?:we|you) should\b|let'?s\b|let us\b)|\binstead\b|\bem vez\b|\ben vez\b|вместо/iu;

/** The message opens by turning the last step down. */
function turnsDown(words: string): boolean {
  const soft = SOFT_OPENER.exec(words);
  if (!soft) return OPENS_NEGATIVE.test(words);
  const rest = words.slice(soft[0].length);
  return OPENS_NEGATIVE.test(rest) || TURNS_AFTER_SOFT.test(rest);
}

// What the user tells of what they did ("No - I renamed the branch after pushing it"): a before or an after in it
// orders their own past steps, not the assistant's next ones.
const TOLD =
  /(?<![\p{L}\p{N}])(?:i|we|eu|nós|yo|я|мы)\s+(?:(?!(?:need|feed|proceed|exceed|succeed|speed|embed|seed|bleed|breed|heed)(?![\p{L}\p{N}]))\p{L}+ed|ran|made|did|wrote|put|set|got|built|went|had|fiz|\p{L}+ei|\p{L}+л[аи]?)(?![\p{L}\p{N}])[^,.;!?]*/giu;

// An answer to the assistant's options ("A - except …", "2. yes"): a choice, not a correction.
const OPTION_ANSWER = /^\s*(?:[A-Ea-e]|\d{1,2})\s*(?:[-–—.):]\s|$)/;
// Something a codebase names: a path, a file, an identifier (snake_case, camelCase, PascalCase), code in backticks.
const NAMES_CODE = /[\w@.-]+\/[\w@./-]+|\b\w+\.[a-z]{1,5}\b|\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w*\b|\b[A-Z][a-z]+[A-Z]\w*\b|`[^`]+`/;

// A message that puts one thing in place of another: "use Button instead of button", "не X, а Y", "should go in db/".
const REPLACES =
  /\b(?:instead of|rather than|should go (?:in|into|under)|belongs? (?:in|into|under))\b|(?:^|[\s,])не\s+\S+(?:\s+\S+)?\s*,?\s+а\s|\b(?:em vez de|ao inv[ée]s de|en (?:vez|lugar) de|au lieu de|statt|anstatt|invece di)\b|(?:^|\s)вместо\s/iu;

// What a directive or preference carries, in any of those languages. "Before" and "after" only as they lead
// a step ("before committing"), not as "I didn't see it before" ends a sentence.
const DIRECTIVE =
  /(?:^|[\s,.;:!(])(?:don'?t|do not|never|always|instead|rather|we need|you need|should|must|please|use|belongs?|prefer|only|(?:before|after)(?=\s+[\p{L}\p{N}])|avoid|make sure|be aware|keep|não|nao|nunca|sempre|em vez|ao invés|usa|use|prefira|precisa|deve|antes|depois|só|somente|siempre|en vez|debe|hay que|solo|toujours|jamais|au lieu|il faut|utilise|immer|statt|anstatt|muss|benutze|sempre|invece|usa|всегда|никогда|вместо|нужно|надо|должен|используй|сначала|только|не надо|не нужно|завжди|ніколи|замість|потрібно)(?=[\s,.;:!?)]|$)/iu;

// Consent and small talk: moving on, not a lesson ("continue", "ok", "sim", "да").
const ACKNOWLEDGEMENT =
  /^(?:ok(?:ay)?|yes|yep|sure|continue|go on|go ahead|proceed|retry|try again|thanks?|thank you|sim|claro|pode|continua|continue|vai|s[ií]|dale|oui|ja|да|давай|продолжай|ок|так)[\s!.,]*$/iu;

// What is said of the text or code at hand ("do not remove that part", "the first sentence …", "update the
// function so …", "actually i think we should change the wording to …", "instead tag, create a column",
// "don't revert anything, figure out why"): an instruction for this change, not a lesson for the next.
const AT_HAND =
  /\b(?:that|this|these|those) (?:part|parts|line|lines|sentence|paragraph|section|bit|word|words|wording|block|one|ones)\b|\bthe (?:first|second|third|last|previous|next|above|below) (?:sentence|line|paragraph|part|section|one|word|bullet|item)\b|^(?:update|change|fix|rename|move|make|add|remove|delete|rewrite|refactor|replace|edit)\s+(?:the|this|that|it|them)\b|^instead\b(?!\s+of\b)/i;
// The same said with a lead-in ("actually i think we should change the wording to …") or with the next step
// ("don't revert anything, figure out why"), or the tool to take for it ("use bugbot to solve the issue"): at hand
// too, unless it also says always or never.
const AT_HAND_TASK =
  /^(?:(?:actually|ok(?:ay)?|so|also|and|but|well|i think|i guess|maybe|we should|we need to|let'?s|please|can you|could you|you should)[,\s]+)+(?:update|change|fix|rename|move|make|add|remove|delete|rewrite|refactor|replace|edit|set|switch)\s+(?:the|this|that|it|them)\b|\b(?:figure|find|work) out (?:why|what)\b|\b(?:look|dig) into (?:why|what|it)\b|^(?:please\s+)?use \S+(?:\s+\S+)? to (?:solve|fix|resolve|debug|address|handle) (?:the|this|that|it)\b/i;
const STANDING = /\b(?:always|never|from now on|every time)\b/i;

/** Said of the text or code at hand, not a lesson for the next session. */
const atHand = (words: string): boolean => AT_HAND.test(words) || (AT_HAND_TASK.test(words) && !STANDING.test(words));

const MIN_WORDS = 4;
const STEP_RULE_MAX = 120;
const MAX_CHARS = 280;

// What Claude Code adds after the words of a user who turned a call down, for its own memory: not the user's.
const HARNESS_NOTE = /\s*Note: The user's next message may contain a correction or preference\.[\s\S]*$/;
// A question asks; it does not tell: one that ends so, one that opens as a question and asks one before going on
// ("Why are you recommending A over B? be specific"), one that opens as one ("Where is that value coming from",
// "can you fix …"), or one that asks twice.
const ASKS =
  /[?？]\s*$|^(?:why|where|what|how|who|which|is|are|was|does|did|do you|can you|could you|would you|por que|porque|почему|зачем|где)\b[^?？]*[?？]\s+\S|^(?:why|where|what|who|which)\s+(?:is|are|was|were|do|does|did|can|could|would|should|not|the|this|that|you)\b|^(?:can|could|would) you\b|[?？][^?？]*[?？]/iu;
// How things go every time, in the languages above: a question or a yes that says it is still a rule.
const STANDING_ANY = new RegExp(
  `${STANDING.source}|(?:^|[\\s,.;:!])(?:sempre|nunca|siempre|toujours|jamais|immer|niemals|всегда|никогда|завжди|ніколи)(?=[\\s,.;:!?]|$)|以後|以后|每次`,
  'iu',
);
// What the user did not see, understand or like is their view of the thing at hand, no directive ("I don't see
// `forAllSystems` being used there", "don't understand ~ explain"): a don't of that kind does not count.
const VIEW =
  /(?:^|\bi\s+)(?:really\s+)?(?:don'?t|do not)\s+(?:really\s+)?(?:see|understand|like|know|think|get|mind|mine|feel|care|remember|follow)\b/gi;

/** Directive words, a "don't" of the user's view aside. */
const directs = (words: string): boolean =>
  DIRECTIVE.test(
    words
      .replace(VIEW, ' ')
      .replace(TOLD, (clause) => clause.replace(/(?<![\p{L}\p{N}])(?:before|after|antes|depois|перед|после)(?![\p{L}\p{N}])/giu, ' ')),
  );

// Asking for something (please, we need to, you need to) asks for this change when it turns a call down: "Please
// remove generation of the flat file". What says how to work stays: "please do not …", "use …", "… instead".
const ASKING = /(?:^|[\s,.;:!(])(?:please|pls|we need(?: to)?|you need(?: to)?)(?=[\s,.;:!?)]|$)/giu;

/** The user's text read as a lesson candidate, or null when it is a question, a paste, a new task or small talk. */
export function correctionText(raw: string): string | null {
  const text = raw.replace(HARNESS_NOTE, '').trim();
  if (!text || text.startsWith('/') || text.startsWith('<') || text.startsWith('!')) return null;
  // A paste (logs, code, a config file) or a whole task description is not a correction of one step.
  if (text.length > MAX_CHARS || text.split(/\r?\n/).filter((l) => l.trim()).length > 3 || /```|^\s*(?:at |File "|\$ )/m.test(text))
    return null;
  const line = oneLine(text);
  if (ACKNOWLEDGEMENT.test(line)) return null;
  if (wordCount(line) < MIN_WORDS) return null;
  // A question asks; it does not tell (unless it says how things go every time: "can you always run the tests first").
  if (ASKS.test(line) && !STANDING_ANY.test(line)) return null;
  return line;
}

/**
 * The user's message read as a correction, given what came just before it: a refused call, or an action
 * of the assistant in the turn it answers. Null when it is not one.
 */
export function readCorrection(
  message: string,
  before: { refused: string | null; acted: (() => string) | string | null; proposal?: boolean },
): Correction | null {
  const words = correctionText(message);
  if (!words) return null;
  // A long message after a refusal or an action is more often the next task than a rule about the last step.
  if (words.length > STEP_RULE_MAX || atHand(words)) return null;
  // After a plan or a question turned down, the message answers it, as a note would.
  if (before.refused && directs(words) && (!before.proposal || outlastsProposal(words)))
    return { words, about: before.refused, how: 'after-refusal' };
  if (OPTION_ANSWER.test(words)) return null;
  // Turning the last step down, or putting one thing of the code in place of another ("use Button instead of button").
  const turned = turnsDown(words) || (REPLACES.test(words) && NAMES_CODE.test(words));
  if (before.acted && turned && directs(words))
    return { words, about: typeof before.acted === 'function' ? before.acted() : before.acted, how: 'after-action' };
  return null;
}

// The user saying a fix changed nothing: "still", "the same error", "again", in the languages above.
const NO_CHANGE =
  /\b(?:still|again|same (?:error|issue|problem)|didn'?t (?:work|help|fix)|doesn'?t work|not (?:working|fixed))\b|(?:^|\s)(?:ainda|de novo|novamente|mesmo erro|n[ãa]o funcion\w*|todav[ií]a|otra vez|encore|toujours pas|immer noch|wieder|всё ещё|все еще|до сих пор|опять|снова|не работает|не помогло)(?=[\s,.!?:;]|$)/iu;

/** The user's message says what was just done changed nothing, or turns it down. */
export function reportsNoChange(message: string): boolean {
  const text = oneLine(message.trim());
  return NO_CHANGE.test(text) || OPENS_NEGATIVE.test(text);
}

// A note that opens by saying yes ("Yes, clear context and auto-accept edits, but first update the todolist"):
// the user took what was offered, with a change to it for this task.
const CONSENTS = /^(?:yes|yeah|yep|ok(?:ay)?|sure|sim|s[ií]|oui|ja|да)(?=\s*[,.!:;—–-])/iu;
// What a project is, said of it ("this repo uses pnpm, not npm"): how it is worked, whatever the words.
const PROJECT_FACT = /\b(?:this|the|our) (?:project|repo|repository|codebase|app) (?:uses|is on|runs on|is built with)\b/i;

// A plan or a question put to the user and turned down with a note: the note answers that plan ("Deve haver uma task
// para escolher a arquitetura…", "Given the complexity, review the plan before continuing", "super shift alt t should
// open btop"). It holds beyond that plan only when it states a rule or forbids something in its first words ("no dont
// give me any plans", "I dont use btop", "Please do not add your signature"); what the plan need not hold ("não
// precisa de custos nem de fases", "no need for phases") scopes that plan.
const FORBIDS =
  /^(?:[^\s.!?;]+[\s,]+){0,3}(?:don'?t|dont|do not|never|não|nao|nunca|nicht|не|ні)\s|^no(?:\s*[,.!:;—–-]|\s+(?:don'?t|dont|do not|never|use)\b)|^(?:[^。！？]{0,4})(?:不要|别|別|不用)/iu;
const NO_NEED =
  /\b(?:no need|need not|n[ãa]o (?:precisa|precisamos|[ée] preciso|h[áa] necessidade)|no (?:hace falta|es necesario|necesitamos)|pas besoin|nicht n[öo]tig)|не нужно|不需要|不用/iu;

/** The note turning a plan or a question down says how to work beyond that plan. */
const outlastsProposal = (words: string): boolean =>
  RULE_CJK.test(words) ||
  RULE_ADDRESSED.test(words) ||
  RULE_STATED.test(words) ||
  RULE_OPENER.test(words) ||
  PROJECT_FACT.test(words) ||
  words.split(/(?<=[.!?;])\s+|(?<=[。！？；])/).some((sentence) => FORBIDS.test(sentence.trim()) && !NO_NEED.test(sentence));

/**
 * A refusal's note ("…the user said: use lru_cache instead"), when it says something to keep. `proposal`: the call
 * turned down put a plan or a question to the user (ExitPlanMode, AskUserQuestion), which the note answers.
 */
export function refusalNote(note: string, about: string, proposal = false): Correction | null {
  const words = correctionText(note);
  if (!words || atHand(words) || (CONSENTS.test(words) && !STANDING_ANY.test(words))) return null;
  if (proposal && !outlastsProposal(words)) return null;
  // What it says must tell how to work (use, don't, instead, should…) or state a rule; a remark on the change at hand
  // ("the comment applies to all config properties", "it's a data issue") is feedback on that change.
  const rule =
    directs(words.replace(ASKING, ' ')) ||
    CJK_DIRECTIVE.test(words) ||
    RULE_CJK.test(words) ||
    RULE_ADDRESSED.test(words) ||
    RULE_STATED.test(words) ||
    RULE_OPENER.test(words) ||
    PROJECT_FACT.test(words);
  if (!rule) return null;
  return { words, about, how: 'refusal-note' };
}

/** Claude Code's words when the user turned a tool call down. */
export function isRefusal(resultText: string): boolean {
  return /\bdoesn't want to (?:proceed with this tool use|take this action)\b|\btool use was rejected\b/i.test(resultText);
}

// A standing rule addressed to the assistant. Either the sentence opens with "always …", "never …",
// "from now on …" (an instruction, not a description: "the function always returns" is a spec), or it
// speaks to the assistant anywhere: "call me …", "remember that …", "without my confirmation …", "I want
// you to … first" (RULE_WANTED), or it states a rule or the user's habit (below).
const OPENER_WORDS =
  "always|never|from now on|here ?after|every time|don'?t ever|do not ever|sempre|nunca|a partir de agora|toda vez|siempre|a partir de ahora|toujours|jamais|désormais|immer|niemals|ab jetzt|всегда|никогда|с этого момента|каждый раз|завжди|ніколи";
// "Never have seen that one before": what the user has lived through, the subject left out, not an instruction.
const RULE_OPENER = new RegExp(
  `^(?:(?:please|pls|and|also|but|por favor|e|y|et|und|и|а|пожалуйста),?\\s+)?(?:${OPENER_WORDS})(?=[\\s,.;:!)»"]|$)(?!\\s+(?:(?:have|has|had)\\s+(?:seen|been|heard|done|known|met|gotten|got|had|tried|used|worked|needed|encountered|experienced|noticed|found)|seen|heard|been)\\b)`,
  'iu',
);
const RULE_ADDRESSED =
  /(?:^|[\s,.;:!(«"])(?:call me|(?<!\b(?:i|we|you|they)\s+)remember (?:that|to)|keep in mind|запомни|учитывай|lembre-se|recuerda que|ten en cuenta|merk dir|retiens que|without my (?:confirmation|approval|permission)|me chame|sem (?:a )?minha (?:confirma[çc][ãa]o|aprova[çc][ãa]o|permiss[ãa]o)|ll[aá]mame|sin mi (?:confirmaci[oó]n|aprobaci[oó]n|permiso)|appelle-moi|sans mon (?:accord|autorisation)|nenn mich|ohne meine (?:zustimmung|bestätigung)|обращайся ко мне|называй меня|без моего (?:подтверждения|согласия|разрешения))(?=[\s,.;:!?)»"]|$)/iu;

// "I want you to …" asks for this task ("I want you to take a look at triggers") unless it says how the
// work is done every time: always, first, before, without, only… ("я хочу, чтобы ты сначала показывал мне план").
const RULE_WANTED =
  /(?:^|[\s,.;:!(«"])(?:i want you to|i'd like you to|quero que voc[eê]|quiero que|je veux que tu|ich möchte, dass du|я хочу, чтобы ты)(?=[\s,.;:!?)»"]|$)/iu;
const HABIT =
  /(?:^|[\s,.;:!(«"])(?:always|never|every time|each time|whenever|from now on|in (?:the )?future|before|first|without|(?<!read[\s-])only|by default|sempre|nunca|toda vez|cada vez|antes de|primeiro|sem|só|somente|primero|sin|solo|toujours|jamais|chaque fois|avant de|d'abord|sans|seulement|désormais|immer|nie|niemals|jedes mal|vorher|zuerst|ohne|nur|künftig|всегда|никогда|каждый раз|перед тем|сначала|без|только|впредь)(?=[\s,.;:!?)»"]|$)/iu;

// A rule said of how things are done here, anywhere in the sentence: "as a rule", "under no circumstances",
// "hereafter", or the user's own habit in the first person ("I never use that word, I always say …").
const RULE_STATED =
  /(?:^|[\s,.;:!(«"])(?:as a rule|the rule is|(?:as )?per our rules?|under no circumstances|i (?:almost )?(?:always|never)(?!\s+(?:\w+ed|thought|knew|know|felt|feel|was|were|had|have|found|got|get|heard|hear|saw|see|said|made|forget|forgot|understood|understand|wonder|seem|end up|run into|hit|lose|lost)\b)|i strongly prefer|eu (?:sempre|nunca)|yo (?:siempre|nunca)|je (?:n'|ne )?(?:\S+ )?(?:toujours|jamais)|ich (?:\S+ )?(?:immer|nie)(?!\s+noch)|я (?:всегда|никогда)|впредь|de agora em diante|daqui (?:pra|para a) frente|de ahora en adelante|por regra|como regla)(?=[\s,.;:!?)»"]|$)/iu;
// A should or must that holds everywhere: "Sprint should be capitalised throughout."
const RULE_EVERYWHERE = /\b(?:should|must)\b.*\b(?:throughout|everywhere|in every (?:file|page|place))\b/i;
// Quoted text is somebody's words being discussed (a title, a line of copy), not the user's rule.
const QUOTED = /"[^"]{2,}"|“[^”]{2,}”|«[^»]{2,}»|`[^`]+`/g;

// The same in Chinese, where words are not spaced: which language to answer in (請用繁體中文回答), or "from now
// on" / "every time" (以後, 之後, 每次) with a request to the assistant (請, 幫我, 記得, 不要, 你…都要). Those words
// alone also describe code, plans and the user's own chores ("永遠不相等", "每次都是獨立事務", "我每次都要點yes"):
// they are no rule without the request; "next" (接下來) orders a task, it sets no rule.
const ANSWER_LANGUAGE = /[請请](?:盡量|尽量)?(?:以|用)(.{1,8}?)(?:為主|为主)?(?:回答|回覆|回复)/u;
const RULE_CJK = new RegExp(
  `${ANSWER_LANGUAGE.source}|(?:以後|以后|今後|今后|之後|之后|從現在起|从现在起|每次)(?!再).{0,40}(?:請|请|幫我|帮我|記得|记得|不要|別再|别再|務必|务必|[你您](?:都|也|就|一定|必須|必须)?要)`,
  'u',
);

/**
 * The same rule however it is worded, where that is known: the language to answer in
 * (`請用繁體中文回答我` and `請用正體中文回覆` are one rule). Null for any other.
 */
export function ruleKey(words: string): string | null {
  const lang = ANSWER_LANGUAGE.exec(words)?.[1]
    ?.replace(/\s+/g, '')
    .replace(/正體|繁体/g, '繁體')
    .replace(/简体/g, '簡體');
  return lang ? `answer in ${lang}` : null;
}

const RULE_MAX = 220;
// Any of the rule words anywhere: most prompts hold none and are not split into sentences at all.
const RULE_WORDS = new RegExp(
  `(?:${OPENER_WORDS})|${RULE_ADDRESSED.source}|${RULE_WANTED.source}|${RULE_STATED.source}|${RULE_CJK.source}|\\bthroughout\\b|\\beverywhere\\b|\\bin every\\b`,
  'iu',
);

const isRule = (sentence: string): boolean => {
  const own = sentence.replace(QUOTED, ' … ');
  return (
    RULE_OPENER.test(own) ||
    RULE_ADDRESSED.test(own) ||
    (RULE_WANTED.test(own) && HABIT.test(own)) ||
    RULE_STATED.test(own) ||
    RULE_EVERYWHERE.test(own) ||
    RULE_CJK.test(own)
  );
};

// Scripts without spaces count by characters (about four to a word).
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const wordCount = (line: string): number => line.split(/\s+/).length + (UNSPACED.test(line) ? Math.floor(line.length / 4) : 0);

// Lines of pasted code: comment lines, declarations, lines ending in a brace or a semicolon.
const CODE_LINE =
  /^\s*(?:\*\s|\/\/|\/\*|#include|import\s|export\s|const\s|let\s|var\s|def\s|class\s|function\s|return\s|<\/?[a-z][\w-]*[\s>])|[;{}]\s*$/;

/** The prompt holds pasted code (two lines of it or more): its words are the code's, not the user's rules. */
const pastedCode = (text: string): boolean => text.split(/\r?\n/).filter((l) => CODE_LINE.test(l)).length >= 2;

// A line that hands the rules below it to someone else: "The translator MUST:", "Each agent should:" — the
// spec of what is being written, not a rule for the assistant (who is "you", "we", "I" or Claude).
const OTHERS_RULES_LEAD = /\b(?:must|should|shall|will|needs? to|has to|may not|cannot|can't)\b[^:]{0,40}:\s*$/i;
const ADDRESSED_TO_US = /\b(?:you|your|we|our|us|i|me|my|claude|team|everyone|everybody)\b/i;
const LIST_ITEM = /^\s*(?:[-*•]|\d+[.)])\s+/;

// A block indented under a line that ends in a colon and names what it hands over ("Replace the system prompt with this
// exact content:") is that text (another agent's prompt, a file's lines), however it is worded; the user's own rules
// indented under "Some rules for you going forward:" are still theirs.
const INDENTED = /^(?: {2,}|\t)\S/;
// The line before it names what is handed over: a prompt, its content, a template, a file's text, a message.
const HANDED_LEAD = /\b(?:prompt|content|contents|template|file|message|text|snippet|copy|description|instructions)\b/i;

/** The text without the list items that follow a line giving them to a third party, nor a block indented under a colon. */
function othersRulesRemoved(text: string): string {
  const out: string[] = [];
  let theirs = false;
  let handedOver = false;
  let lead = '';
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() !== '') {
      // Begun by indented prose under the colon (an indented list there is the user's own), it goes on while indented.
      handedOver = INDENTED.test(line) && (handedOver || (/:\s*$/.test(lead) && HANDED_LEAD.test(lead) && !LIST_ITEM.test(line)));
      if (!handedOver) lead = line;
    }
    if (handedOver) continue;
    if (LIST_ITEM.test(line)) {
      if (!theirs) out.push(line);
      continue;
    }
    if (line.trim() === '') {
      out.push(line);
      continue;
    }
    theirs = OTHERS_RULES_LEAD.test(line) && !ADDRESSED_TO_US.test(line);
    out.push(line);
  }
  return out.join('\n');
}

/** Sentences of a prompt that set a standing rule for the assistant (at most `max`), each as the user wrote it. */
export function statedRules(prompt: string, max = 3): Correction[] {
  const text = prompt.trim();
  if (!text || text.startsWith('/') || text.startsWith('<') || /```/.test(text) || !RULE_WORDS.test(text) || pastedCode(text)) return [];
  const out: Correction[] = [];
  // A line that goes on in lower case continues the sentence before it (a wrapped line, not a new one).
  const unwrapped = othersRulesRemoved(text).replace(/([^\s.!?;:])[ \t]*\r?\n[ \t]*(?=\p{Ll})/gu, '$1 ');
  for (const part of unwrapped.split(/(?<=[.!?;])\s+|(?<=[。！？；])|\r?\n+/)) {
    const sentence = oneLine(part.replace(/^[-*•\d.)\s]+/, ''));
    // A question asks (in Chinese also by its last particle: 嗎, 吗, 呢).
    if (sentence.length < 8 || sentence.length > RULE_MAX || /(?:[?？]|[嗎吗呢][。.!！]?)$/.test(sentence) || !isRule(sentence)) continue;
    if (wordCount(sentence) < MIN_WORDS) continue;
    out.push({ words: sentence, about: 'how to work with them', how: 'stated' });
    if (out.length >= max) break;
  }
  return out;
}

// The user saying they are saying it again: "I already told you", "how many times", 我说了, 为什么又, 为什么每次,
// я же говорил, eu já disse. What they ask in the same breath was asked before: a request made twice is a
// standing one, whatever the assistant did just before it.
const SAID_AGAIN = new RegExp(
  [
    "\\bi(?:'ve| have)? (?:already |just )?(?:told|asked) you\\b",
    // Not "as I said in the PR description": that cites a document.
    '\\b(?:as|like) i (?:said|told you|asked)\\b(?! (?:in|on|at|to)\\b)',
    // "How many times do I have to …", not "count how many times it is called".
    '\\bhow many times (?:do|did|have|must|should|will) i\\b',
    "\\bi(?:'ve| have) (?:already )?said\\b",
    // 我说了 alone is as often "I said (to the customer)": said again only with a pause after it, or already, before.
    // Not 客户跟我说了 ("the customer told me"): said to the user, not by them.
    '(?<![跟对對给給])我(?:说|說)过|(?<![跟对對给給])我(?:已经|已經|早就|不是)(?:说|說)了|(?<![跟对對给給])我(?:说|說)了[，,]|(?:说|說)过了|告诉过你|告訴過你|为什么又|為什麼又|怎么又|怎麼又|又忘了|为什么每次|為什麼每次|每次都要我|不是(?:说|說)了',
    'я же (?:говорил|сказал|просил|писал)|я уже (?:говорил|писал|просил)|сколько раз (?:я|тебе|повторять|говорить|можно)',
    'eu j[áa] (?:disse|falei|pedi)|j[áa] te (?:disse|falei|pedi)|quantas vezes (?:eu|vou|tenho|preciso)|ya te (?:dije|ped[íi])|cu[áa]ntas veces (?:te|tengo|voy)',
    "ich habe (?:dir |es )?(?:doch |schon )+gesagt|wie oft noch|je (?:te l'ai|t'ai) d[ée]j[àa] dit|combien de fois (?:je|dois|faut)",
  ].join('|'),
  'iu',
);
// What such a sentence must still ask for (said of how to work, not only that it was said before): the spaced
// languages' directive words or a negation it opens with ("…, не трогай миграции"), or the same in Chinese (必须, 不要, 只, 以后…);
// a please alone does not make it one.
const CJK_DIRECTIVE = /必须|必需|一定要|不要|别再|別再|不用|不需要|只要|只有|只|务必|務必|以后|以後|每次都|都要/u;
// A please asks for this task as readily as for every one: it is no sign of a standing request.
const PLEASE = /(?:^|[\s,.;:!(])(?:please|pls|por favor|пожалуйста|bitte|s'il te pla[îi]t)(?=[\s,.;:!?)]|$)|[请請]/giu;

/** Sentences of a prompt in which the user says they are asking again, each with what it asks (at most `max`). */
export function repeatedRequests(prompt: string, max = 2): Correction[] {
  const text = prompt.trim();
  if (!text || text.startsWith('/') || text.startsWith('<') || /```/.test(text) || !SAID_AGAIN.test(text) || pastedCode(text)) return [];
  const out: Correction[] = [];
  for (const part of text.split(/(?<=[.!?;])\s+|(?<=[。！？；])|\r?\n+/)) {
    const sentence = oneLine(part.replace(/^[-*•\d.)\s]+/, '').replace(/^[?？!！]+\s*/, ''));
    if (sentence.length < 8 || sentence.length > RULE_MAX || /(?:[?？]|[嗎吗呢][。.!！]?)$/.test(sentence)) continue;
    const marker = SAID_AGAIN.exec(sentence);
    if (!marker) continue;
    // Without the words that say it is said again, the sentence still asks for something.
    const rest = `${sentence.slice(0, marker.index)} ${sentence.slice(marker.index + marker[0].length)}`.replace(PLEASE, ' ');
    const asks = DIRECTIVE.test(rest) || CJK_DIRECTIVE.test(rest) || OPENS_NEGATIVE.test(rest.replace(/^[\s,.;:!—–-]+/, ''));
    if (wordCount(oneLine(rest)) < MIN_WORDS || !asks) continue;
    out.push({ words: sentence, about: 'a request made before', how: 'repeated' });
    if (out.length >= max) break;
  }
  return out;
}
